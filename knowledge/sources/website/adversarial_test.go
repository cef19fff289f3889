package website

import (
	"fmt"
	"strings"
	"testing"
)

// adversarial returns documents built to be slow or to break a parser:
// unclosed brackets, deep nesting, tens of thousands of items. Each is an
// announcement by its front matter, so the whole parser runs on it.
func adversarial() map[string]string {
	head := "---\ntitle: 'Kubernetes v1.40: Stress'\ndate: 2030-01-02\nrelease_announcement:\n  minor_version: \"1.40\"\n---\n\n"
	var entries, headings, nested strings.Builder
	entries.WriteString("## Graduations to stable\n\n")
	headings.WriteString("## Graduations to stable\n\n")
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&entries, "* [Feature number %d](https://kep.k8s.io/%d)\n", i, i)
		fmt.Fprintf(&headings, "### Feature number %d\n\nIt is stable, see `Gate%dName` feature gate.\n\n", i, i)
	}
	for i := 0; i < 5000; i++ {
		nested.WriteString("# a\n## Deprecations and removals\n### b\n#### Removal of c\n##### d\n###### e\nThe x/v1beta1 API version of Thing will be removed.\n")
	}
	return map[string]string{
		"open brackets":        head + strings.Repeat("[", 1<<20),
		"open links":           head + strings.Repeat("[x](", 1<<18),
		"nested brackets":      head + strings.Repeat("[[]", 1<<18),
		"open parens":          head + "[x]" + strings.Repeat("(", 1<<20),
		"backticks":            head + strings.Repeat("`", 1<<20),
		"emphasis":             head + strings.Repeat("*_", 1<<19),
		"open shortcodes":      head + strings.Repeat("{{< x\n", 1<<16),
		"one long line":        head + strings.Repeat("KEP-1 graduates to beta ", 1<<16),
		"kep words":            head + "## New alpha features\n\n### x\n\n" + strings.Repeat("KEP-12 KEP #13 kep.k8s.io/14 ", 1<<15),
		"list of 20000":        head + entries.String(),
		"headings of 20000":    head + headings.String() + entries.String(),
		"deep nesting":         head + nested.String(),
		"unclosed fence":       head + "```\n" + strings.Repeat("# not a heading\n", 1<<15),
		"front matter forever": "---\n" + strings.Repeat("key: value\n", 1<<15),
	}
}

// TestParseAdversarial checks that Parse survives documents built to
// break it: no panic, and a corpus or an error, never both.
func TestParseAdversarial(t *testing.T) {
	for name, doc := range adversarial() {
		c, err := Parse("stress.md", []byte(doc))
		if (c == nil) == (err == nil) {
			t.Errorf("%s: corpus %v, error %v; want exactly one", name, c != nil, err)
		}
	}
}

// BenchmarkParseAdversarial shows that Parse stays linear on them: MB/s of
// the same order as on real documents.
func BenchmarkParseAdversarial(b *testing.B) {
	for name, doc := range adversarial() {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				_, _ = Parse("stress.md", []byte(doc))
			}
		})
	}
}
