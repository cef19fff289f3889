package relnotes

import (
	"bytes"
	"fmt"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

const (
	// maxThemeRunes caps a theme; a longer heading tail is prose, not a name.
	maxThemeRunes = 80
	// maxLineBytes caps the lines read for a heading or a release day; the
	// real pages' longest line is under 500 bytes.
	maxLineBytes = 4 << 10
	// maxReleaseLines caps the lines giving the release day that are read;
	// a page gives it twice, in its Summary list and its Timeline table.
	maxReleaseLines = 16
)

// ParsePage reads one release page, releases/release-1.N/README.md, into
// a knowledge.Release: its version, its day (of the line "Kubernetes
// v1.N.0 released" in the Summary list or the Timeline table) and its
// theme (see theme). v is the release of the page's folder; when zero the
// heading's version is taken, and when both are given and differ v wins
// with a Warning. A page with no "# " heading is passed over: the corpus
// holds only a Skip naming it, and a Warning says why. It fails, wrapping
// one of the Err values and naming the file, when the page is empty,
// larger than MaxPageSize or not UTF-8 text, or when neither v nor its
// heading names a release.
func ParsePage(v knowledge.Version, name string, data []byte, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	switch {
	case len(data) > MaxPageSize:
		return nil, nil, fileError(name, fmt.Errorf("%w: %d bytes, more than the %d KiB read", ErrTooLarge, len(data), MaxPageSize>>10))
	case len(bytes.TrimSpace(data)) == 0:
		return nil, nil, fileError(name, ErrEmpty)
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return nil, nil, fileError(name, ErrNotUTF8)
	}
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	lines := bodyLines(strings.Split(text, "\n"))
	var warnings []Warning
	warn := func(problem string) { warnings = append(warnings, Warning{File: name, Problem: problem}) }

	heading, ok := firstHeading(lines)
	if !ok {
		reason := `no "# " heading naming the release; expected a sig-release release page such as "# Kubernetes v1.36"`
		warn("skipped: " + reason)
		return &knowledge.Corpus{Skipped: []knowledge.Skip{{Path: name, Reason: reason}}}, warnings, nil
	}
	hv, th := parseHeading(heading)
	switch {
	case v.IsZero() && hv.IsZero():
		return nil, nil, fileError(name, ErrNoRelease)
	case v.IsZero():
		v = hv
	case !hv.IsZero() && hv != v:
		warn(fmt.Sprintf("the heading names %s but the page is of %s; read as %s", hv, v, v))
	}
	if len([]rune(th)) > maxThemeRunes {
		warn("the heading after the version is too long for a theme; left out")
		th = ""
	}
	day := releaseDay(v, lines, warn)
	if day == "" {
		warn(fmt.Sprintf("no line gives the day of \"Kubernetes v%s.0 released\"", v))
	}
	return &knowledge.Corpus{
		Sources:  []knowledge.Source{releaseSource(v, knowledge.SourceReleasePage, "release page", PageFile, stamp.Date)},
		Releases: []knowledge.Release{{Version: v, Date: day, Theme: th, Sources: []string{PageSourceID(v)}}},
	}, warnings, nil
}

// PageRelease tells a release page by its content, wherever it lies: its
// first heading names a release v and a line gives the day of
// "Kubernetes v<v>.0 released". It returns v, or false for any other
// document.
func PageRelease(data []byte) (knowledge.Version, bool) {
	if len(data) > MaxPageSize || !utf8.Valid(data) {
		return knowledge.Version{}, false
	}
	lines := bodyLines(splitLines(data))
	h, ok := firstHeading(lines)
	if !ok {
		return knowledge.Version{}, false
	}
	v, _ := parseHeading(h)
	if v.IsZero() || releaseDay(v, lines, func(string) {}) == "" {
		return knowledge.Version{}, false
	}
	return v, true
}

// bodyLines drops the YAML front matter and blanks the lines of fenced
// code blocks, keeping the others (and their count) as they are.
func bodyLines(lines []string) []string {
	out := append([]string(nil), lines...)
	if len(out) > 0 && strings.TrimSpace(out[0]) == "---" {
		for i := 1; i < len(out); i++ {
			if t := strings.TrimSpace(out[i]); t == "---" || t == "..." {
				for j := 0; j <= i; j++ {
					out[j] = ""
				}
				break
			}
		}
	}
	fence := ""
	for i, l := range out {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			out[i] = ""
		case strings.HasPrefix(t, "```"):
			fence, out[i] = "```", ""
		case strings.HasPrefix(t, "~~~"):
			fence, out[i] = "~~~", ""
		}
	}
	return out
}

var headingRe = lazyre.New(`^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// firstHeading returns the text of the first level-1 ATX heading; a line
// longer than maxLineBytes is no heading.
func firstHeading(lines []string) (string, bool) {
	for _, l := range lines {
		if len(l) > maxLineBytes || !strings.HasPrefix(strings.TrimLeft(l, " "), "#") {
			continue
		}
		if m := headingRe().FindStringSubmatch(l); m != nil {
			if h := plain(m[1]); h != "" {
				return h, true
			}
		}
	}
	return "", false
}

var (
	imageRe    = lazyre.New(`!\[[^\]]*\]\([^)]*\)`)
	linkRe     = lazyre.New(`\[([^\]]*)\]\([^)]*\)`)
	emphasisRe = lazyre.New("\\*\\*|__|`|<[^>]{1,100}>")
	versionRe  = lazyre.New(`\b[vV]?(1\.\d{1,3})(?:\.0)?\b`)
	separators = ":-–—|"
)

// plain drops Markdown from a heading: images, link targets, emphasis,
// code ticks and inline HTML tags.
func plain(s string) string {
	s = imageRe().ReplaceAllString(s, "")
	s = linkRe().ReplaceAllString(s, "$1")
	s = emphasisRe().ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}

// parseHeading reads a release page's heading into the version it names
// and the release's theme, as people say it:
//
//	Kubernetes v1.34: Of Wind & Will (O' WaW)   → Of Wind & Will (O' WaW)
//	Kubernetes 1.29: Mandala (The Universe) ✨🌌 → Mandala (The Universe)
//	Timbernetes v1.35 - World Tree Release       → Timbernetes (World Tree Release)
//	Kubernetes v1.36                             → no theme
//
// The theme is what follows the version after a separator (":", "-", "–",
// "—"), with the page's own glosses in brackets kept and trailing emoji
// dropped; a release name standing before the version in place of
// "Kubernetes" leads, with what follows in brackets.
func parseHeading(h string) (knowledge.Version, string) {
	m := versionRe().FindStringSubmatchIndex(h)
	if m == nil {
		return knowledge.Version{}, ""
	}
	v, err := knowledge.ParseVersion(h[m[2]:m[3]])
	if err != nil {
		return knowledge.Version{}, ""
	}
	name := trimDecor(h[:m[0]])
	if strings.EqualFold(name, "Kubernetes") || strings.EqualFold(name, "K8s") {
		name = ""
	}
	sub := trimDecor(h[m[1]:])
	switch {
	case name == "":
		return v, sub
	case sub == "":
		return v, name
	}
	return v, name + " (" + sub + ")"
}

// trimDecor trims separators, spaces, emoji and other symbols from both
// ends of s.
func trimDecor(s string) string {
	decor := func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsSymbol(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) ||
			strings.ContainsRune(separators, r)
	}
	return strings.TrimFunc(s, decor)
}

// releaseDay returns the day the page gives for "v1.N.0 released": the
// first such line's first date. Another line giving another day, or a
// weekday that is not the date's, is warned of. Lines longer than
// maxLineBytes are not read, nor more than maxReleaseLines such lines.
func releaseDay(v knowledge.Version, lines []string, warn func(string)) string {
	re := regexp.MustCompile(`(?i)\bv?` + regexp.QuoteMeta(v.String()) + `\.0\**\s+released\b`)
	day, first, seen := "", 0, 0
	for i, l := range lines {
		if len(l) > maxLineBytes || !strings.Contains(strings.ToLower(l), "released") {
			continue
		}
		loc := re.FindStringIndex(l)
		if loc == nil {
			continue
		}
		if seen++; seen > maxReleaseLines {
			break
		}
		fd, ok := firstDate(l[:loc[0]] + " " + l[loc[1]:])
		if !ok {
			continue
		}
		if fd.badWeekday != "" {
			warn(fmt.Sprintf("line %d calls %s a %s", i+1, fd.day, fd.badWeekday))
		}
		switch {
		case day == "":
			day, first = fd.day, i+1
		case fd.day != day:
			warn(fmt.Sprintf("line %d gives the release day as %s but line %d as %s; kept %s", first, day, i+1, fd.day, day))
		}
	}
	return day
}

// PageSourceID is the Source ID of a release page:
// "sig-release/release-1.36/README.md".
func PageSourceID(v knowledge.Version) string {
	return "sig-release/release-" + v.String() + "/README.md"
}
