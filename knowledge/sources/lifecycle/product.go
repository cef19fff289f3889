package lifecycle

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// ParseLifecycle reads endoflife.date's products/kubernetes.md: one
// knowledge.Lifecycle per entry of its front matter's releases list,
// oldest release first. A date field may be a date or a boolean (eoas:
// true says support ended without saying when, eol: false that it has not
// ended); a boolean leaves the date empty. name is what warnings and
// errors call the file; stamp gives the source's as-of date. An entry with
// no readable releaseCycle is skipped, and a value that is not a date
// dropped, each with a Warning. It fails, wrapping one of the Err values
// and naming the file, when the file is empty, too large, not UTF-8, has
// no front matter or no releases list, is about another product, or no
// entry can be read.
func ParseLifecycle(name string, data []byte, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	switch {
	case len(data) > MaxLifecycleSize:
		return nil, nil, fileError(name, fmt.Errorf("%w: %d bytes, more than the %d KiB read", ErrTooLarge, len(data), MaxLifecycleSize>>10))
	case len(bytes.TrimSpace(data)) == 0:
		return nil, nil, fileError(name, ErrEmpty)
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return nil, nil, fileError(name, ErrNotUTF8)
	}
	fm, ok := frontMatter(data)
	if !ok {
		return nil, nil, fileError(name, ErrNoFrontMatter)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		return nil, nil, fileError(name, fmt.Errorf("%w: %s", ErrNotYAML, firstLine(err.Error())))
	}
	top := mapping(&doc)
	if top == nil {
		return nil, nil, fileError(name, ErrNoReleases)
	}
	if !isKubernetes(top) {
		return nil, nil, fileError(name, ErrNotKubernetes)
	}
	rels := deref(get(top, "releases"))
	if rels == nil || rels.Kind != yaml.SequenceNode {
		return nil, nil, fileError(name, ErrNoReleases)
	}
	w := &warnings{file: name}
	var out []knowledge.Lifecycle
	seen := map[knowledge.Version]bool{}
	for i, item := range rels.Content {
		if lc, ok := readRelease(deref(item), i, seen, w); ok {
			out = append(out, lc)
		}
	}
	if len(out) == 0 {
		return nil, nil, fileError(name, ErrNothingUsable)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Release.Less(out[j].Release) })
	return &knowledge.Corpus{
		Sources: []knowledge.Source{{
			ID: LifecycleSourceID, Name: "endoflife.date Kubernetes lifecycle", Kind: knowledge.SourceLifecycle,
			Lang: "en", AsOf: stamp.Date, URL: "https://endoflife.date/kubernetes",
		}},
		Lifecycles: out,
	}, w.done(), nil
}

// readRelease reads the i-th entry of the releases list, or warns why it
// cannot.
func readRelease(m *yaml.Node, i int, seen map[knowledge.Version]bool, w *warnings) (knowledge.Lifecycle, bool) {
	entry := fmt.Sprintf("#%d", i+1)
	if m == nil || m.Kind != yaml.MappingNode {
		w.add(entry, "skipped: not a mapping")
		return knowledge.Lifecycle{}, false
	}
	cycle, _ := scalar(get(m, "releaseCycle"))
	v, err := knowledge.ParseVersion(cycle)
	if err != nil || strings.Count(strings.TrimPrefix(cycle, "v"), ".") != 1 {
		w.add(entry, fmt.Sprintf("skipped: releaseCycle %q is not a release such as 1.30", clip(cycle)))
		return knowledge.Lifecycle{}, false
	}
	entry = v.String()
	if seen[v] {
		w.add(entry, "skipped: listed twice; the first is kept")
		return knowledge.Lifecycle{}, false
	}
	seen[v] = true
	lc := knowledge.Lifecycle{Release: v, Source: LifecycleSourceID}
	lc.Released = dateField(m, "releaseDate", entry, w)
	lc.EndOfSupport = dateField(m, "eoas", entry, w)
	lc.EOL = dateField(m, "eol", entry, w)
	lc.LatestDate = dateField(m, "latestReleaseDate", entry, w)
	if latest, ok := scalar(get(m, "latest")); ok && latest != "" {
		lv, _, ok := parsePatchName(latest)
		switch {
		case !ok:
			w.add(entry, fmt.Sprintf("latest %q is not a patch release such as 1.30.2; left out", clip(latest)))
		case lv != v:
			w.add(entry, fmt.Sprintf("latest %s is not a patch of %s; left out", latest, v))
		default:
			lc.Latest = strings.TrimPrefix(latest, "v")
		}
	}
	return lc, true
}

// frontMatter returns the YAML between a first line "---" and the next
// line "---" (or "...").
func frontMatter(data []byte) ([]byte, bool) {
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, false
	}
	for off := 0; off <= len(rest); {
		end := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			return []byte(rest[:off]), true
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, false
}

// isKubernetes reports whether the front matter is Kubernetes's: its
// title or permalink says so.
func isKubernetes(top *yaml.Node) bool {
	title, _ := scalar(get(top, "title"))
	link, _ := scalar(get(top, "permalink"))
	return strings.EqualFold(strings.TrimSpace(title), "Kubernetes") || strings.EqualFold(strings.Trim(link, "/ "), "kubernetes")
}

// dateField reads a date value: a date, or a boolean that says no date.
// Anything else is dropped with a warning.
func dateField(m *yaml.Node, key, entry string, w *warnings) string {
	n := deref(get(m, key))
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		w.add(entry, key+" is not a date; left out")
		return ""
	}
	switch n.ShortTag() {
	case "!!bool", "!!null":
		return ""
	}
	if d, ok := day(strings.TrimSpace(n.Value)); ok {
		return d
	}
	w.add(entry, fmt.Sprintf("%s %q is not a date; left out", key, clip(n.Value)))
	return ""
}

// maxAliasHops bounds following YAML aliases; aliases are followed, never
// expanded, so a "billion laughs" document costs nothing.
const maxAliasHops = 8

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// mapping returns the document's top mapping, or nil.
func mapping(doc *yaml.Node) *yaml.Node {
	n := deref(doc)
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = deref(n.Content[0])
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return n
}

// get returns the value of key in mapping m, or nil.
func get(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := deref(m.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// scalar returns a scalar's text as written ("1.30" stays "1.30").
func scalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		return "", false
	}
	return strings.TrimSpace(n.Value), true
}

// clip shortens a value quoted in a warning.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
