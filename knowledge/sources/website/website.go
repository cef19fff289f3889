package website

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// MaxSize is the largest document Parse reads. The real ones are under
// 40 KB; anything past this is not a post.
const MaxSize = 4 << 20

// Errors Parse wraps with the document's name; test with errors.Is.
var (
	ErrNoName   = errors.New("the document has no name; expected its file name, which becomes the source ID")
	ErrEmpty    = errors.New("the document is empty; expected the Markdown source of a kubernetes.io post or page")
	ErrBinary   = errors.New("the document holds NUL bytes, so it is binary data; expected UTF-8 Markdown text")
	ErrNotUTF8  = errors.New("the document is not valid UTF-8; expected UTF-8 Markdown text (convert it with iconv first)")
	ErrTooLarge = fmt.Errorf("the document is larger than %d MiB; expected a post of a few dozen KiB", MaxSize>>20)
	// ErrUnrecognised means the document is none of the types this package reads.
	ErrUnrecognised = errors.New(`the document is not one kepbot reads from kubernetes.io; expected a release announcement ` +
		`(a title such as "Kubernetes v1.NN: Theme" and an opening announcing the release of v1.NN), a post about a coming release ` +
		`(a title naming removals, deprecations, major changes or a sneak peek of a version such as v1.NN) ` +
		`or the Deprecated API Migration Guide (a "Removed APIs by release" section)`)
	// ErrDescribesSources means the document is a list of where the others
	// came from (SOURCE.md), not a source of facts.
	ErrDescribesSources = errors.New("the document describes where the other documents came from (SOURCE.md); expected a post or page with facts")
)

// Parse reads one document. name is its file base name and becomes the
// Source ID. It fails, wrapping one of the Err values above and naming the
// document, on a missing name and on an empty, binary, non-UTF-8, oversized
// or unrecognised document.
func Parse(name string, data []byte) (*knowledge.Corpus, error) {
	if name == "" {
		return nil, fmt.Errorf("website: %w", ErrNoName)
	}
	if err := checkText(data); err != nil {
		return nil, fmt.Errorf("website document %s: %w", name, err)
	}
	fm, blocks := splitBlocks(string(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	d := &doc{name: name, fm: fm, o: buildOutline(blocks)}
	d.title = fm["title"]
	if d.title == "" {
		for _, b := range blocks {
			if b.kind == blockHeading && b.level == 1 {
				d.title = b.plain
				break
			}
		}
	}
	switch {
	case isSourceList(name, fm, d.o):
		return nil, fmt.Errorf("website document %s: %w", name, ErrDescribesSources)
	case isGuide(d.title, d.o):
		return parseGuide(d), nil
	}
	if v, ok := announcedRelease(d, blocks); ok {
		d.rel = v
		return parseAnnouncement(d), nil
	}
	if upcomingTitleRe().MatchString(d.title) {
		if v, ok := firstVersion(d.title, fm["slug"]); ok {
			d.rel = v
			kind := "deprecations and removals"
			if !noticePostRe().MatchString(d.title) {
				kind = "sneak peek"
			}
			return parseUpcoming(d, kind), nil
		}
	}
	return nil, fmt.Errorf("website document %s: %w", name, ErrUnrecognised)
}

// checkText rejects what is not a text document.
func checkText(data []byte) error {
	switch {
	case len(data) > MaxSize:
		return ErrTooLarge
	case len(bytes.TrimSpace(data)) == 0:
		return ErrEmpty
	case bytes.IndexByte(data, 0) >= 0:
		return ErrBinary
	case !utf8.Valid(data):
		bad := 0
		for bad < len(data) {
			r, n := utf8.DecodeRune(data[bad:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			bad += n
		}
		return fmt.Errorf("%w: the first bad byte is at offset %d", ErrNotUTF8, bad)
	}
	return nil
}

// announcedRelease returns the release a document announces: its front
// matter's release_announcement.minor_version, or a title "Kubernetes
// v1.NN: Theme" together with an opening that announces the release of v1.NN.
func announcedRelease(d *doc, blocks []block) (knowledge.Version, bool) {
	if mv := d.fm["release_announcement.minor_version"]; mv != "" {
		if v, err := knowledge.ParseVersion(mv); err == nil {
			return v, true
		}
	}
	m := titleThemeRe().FindStringSubmatch(d.title)
	if m == nil {
		return knowledge.Version{}, false
	}
	for _, b := range blocks {
		if b.kind != blockParagraph {
			continue
		}
		if a := announceRe().FindStringSubmatch(b.plain); a != nil && a[1] == m[1] {
			v, err := knowledge.ParseVersion(m[1])
			return v, err == nil
		}
	}
	return knowledge.Version{}, false
}

// slugVersionRe reads "1-32" from a slug like "kubernetes-1-32-upcoming-changes".
var slugVersionRe = lazyre.New(`\bv?1-(\d{1,2})\b`)

// firstVersion returns the first Kubernetes version a title names, else
// the one its slug spells with a dash.
func firstVersion(title, slug string) (knowledge.Version, bool) {
	if vs := versionsIn(title); len(vs) > 0 {
		return vs[0], true
	}
	if m := slugVersionRe().FindStringSubmatch(slug); m != nil {
		v, err := knowledge.ParseVersion("1." + m[1])
		return v, err == nil
	}
	return knowledge.Version{}, false
}

// frontDate is the front matter's date as 2006-01-02, or "" when it has none
// or it is not a date.
func frontDate(fm frontMatter) string {
	d := strings.TrimSpace(fm["date"])
	if len(d) < 10 {
		return ""
	}
	if _, err := time.Parse("2006-01-02", d[:10]); err != nil {
		return ""
	}
	return d[:10]
}

// source describes the document; label says what it is ("release
// announcement", "sneak peek"), empty for the guide.
func (d *doc) source(kind knowledge.SourceKind, label, asOf string) knowledge.Source {
	name := "Kubernetes deprecated API migration guide (en)"
	if label != "" {
		name = fmt.Sprintf("Kubernetes v%s %s (en)", d.rel, label)
	}
	return knowledge.Source{ID: d.name, Name: name, Kind: kind, Lang: "en", AsOf: asOf, URL: blogURL(d.fm)}
}

var slugRe = lazyre.New(`^[a-z0-9][a-z0-9-]*$`)

// blogURL is where kubernetes.io publishes a blog post, from its front
// matter's date and slug (/blog/2024/08/13/kubernetes-v1-31-release/), or ""
// when the front matter lacks either.
func blogURL(fm frontMatter) string {
	date, slug := frontDate(fm), strings.TrimSpace(fm["slug"])
	if date == "" || !slugRe().MatchString(slug) {
		return ""
	}
	return "https://kubernetes.io/blog/" + strings.ReplaceAll(date, "-", "/") + "/" + slug + "/"
}
