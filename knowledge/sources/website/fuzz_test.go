package website

import (
	"os"
	"testing"
	"unicode/utf8"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

// FuzzParse feeds Parse arbitrary bytes, seeded with the shared documents
// (read at run time, never stored) and small documents of each type. Parse
// must not panic, must return a corpus or an error, never both, and what it
// returns must hold together.
func FuzzParse(f *testing.F) {
	f.Add([]byte("---\ntitle: 'Kubernetes v1.40: T'\n---\n\nAnnouncing the release of Kubernetes v1.40.\n\n## New alpha features\n\n### X\n\n[KEP-1](https://kep.k8s.io/1)\n"))
	f.Add([]byte("---\ntitle: Deprecated API Migration Guide\n---\n## Removed APIs by release\n### v1.40\n#### W\nThe **a.io/v1beta1** API version of W is no longer served.\n"))
	f.Add([]byte("---\ntitle: Kubernetes v1.40 sneak peek\n---\n## Removal of `x/v1` from `Y`\n- [a](https://github.com/kubernetes/kubernetes/pull/1)\n"))
	f.Add([]byte("```\n# not a heading\n{{< x\n"))
	if root, err := os.Stat(sharedtest.Path(f, "data", "website")); err == nil && root.IsDir() {
		for _, name := range docNames {
			if data, err := os.ReadFile(sharedtest.Path(f, "data", "website", name)); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.md", data)
		if (c == nil) == (err == nil) {
			t.Fatalf("got corpus %v and error %v; want exactly one", c != nil, err)
		}
		if err != nil {
			return
		}
		if !utf8.Valid(data) {
			t.Fatal("parsed a document that is not UTF-8")
		}
		if len(c.Sources) != 1 || c.Sources[0].ID != "fuzz.md" {
			t.Fatalf("sources %+v, want one named fuzz.md", c.Sources)
		}
		for _, m := range c.Mentions {
			if m.KEP < 0 || m.Source != "fuzz.md" || m.Line <= 0 || !utf8.ValidString(m.Text) {
				t.Fatalf("bad mention %+v", m)
			}
		}
		for _, n := range c.Notices {
			if n.Release.IsZero() || n.Source != "fuzz.md" || !utf8.ValidString(n.Text) {
				t.Fatalf("bad notice %+v", n)
			}
		}
	})
}
