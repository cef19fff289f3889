package knowledge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCorpusWithout: dropping one source's part keeps every other source's
// part whole, and a release announced by two sources keeps the other.
func TestCorpusWithout(t *testing.T) {
	v := MustVersion("1.40")
	c := &Corpus{
		Sources: []Source{{ID: "notes"}, {ID: "yaml", Kind: SourceKEPYAML}, {ID: "rn"}, {ID: "eol"}},
		Releases: []Release{
			{Version: v, Sources: []string{"notes"}},
			{Version: MustVersion("1.41"), Sources: []string{"rn", "notes"}},
			{Version: MustVersion("1.42"), Sources: []string{"rn"}},
		},
		KEPs:       []KEP{{Number: 1, Source: "yaml"}},
		Mentions:   []Mention{{KEP: 1, Source: "notes"}, {KEP: 2, Source: "rn"}},
		Notices:    []Notice{{Title: "a", Source: "notes"}, {Title: "b", Source: "rn"}},
		Changes:    []Change{{PR: 5, Source: "rn"}},
		Lifecycles: []Lifecycle{{Release: v, Source: "eol"}},
		Patches:    []Patch{{Release: v, Source: "eol"}},
		Skipped: []Skip{{Path: "keps/sig-x/1-a/kep.yaml", Reason: "old, no source"}, {Path: "x.json", Source: "rn"},
			{Path: "notes.md", Reason: "kept"}},
	}
	got := c.Without("rn", "yaml")
	want := &Corpus{
		Sources: []Source{{ID: "notes"}, {ID: "eol"}},
		Releases: []Release{
			{Version: v, Sources: []string{"notes"}},
			{Version: MustVersion("1.41"), Sources: []string{"notes"}},
		},
		Mentions:   []Mention{{KEP: 1, Source: "notes"}},
		Notices:    []Notice{{Title: "a", Source: "notes"}},
		Lifecycles: []Lifecycle{{Release: v, Source: "eol"}},
		Patches:    []Patch{{Release: v, Source: "eol"}},
		Skipped:    []Skip{{Path: "notes.md", Reason: "kept"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Without (-want +got):\n%s", d)
	}
	if len(c.Releases[1].Sources) != 2 {
		t.Errorf("Without changed the corpus it was given: %v", c.Releases[1].Sources)
	}
}
