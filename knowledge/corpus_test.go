package knowledge

import (
	"strings"
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

// TestWithoutKeepsTheAPITypesAndOtherClaims: swapping a source's part
// keeps the API types (merged across releases, never one source's part)
// while a release of an API module stays, and the API claims of every
// other source; with the last API module's release, the types go too.
func TestWithoutKeepsTheAPITypesAndOtherClaims(t *testing.T) {
	v := MustVersion
	c := &Corpus{
		Sources:   []Source{{ID: "notes-1.36"}, {ID: "guide"}, {ID: "k8s.io/api@v0.36.4", Kind: SourceAPILifecycle}},
		APITypes:  []APIType{{API: APIRef{Group: "apps", Version: "v1beta1", Kind: "Deployment"}, First: v("1.19"), Last: v("1.36"), Source: "k8s.io/api@v0.36.4"}},
		APIClaims: []APIClaim{{Action: APIRemoved, Release: v("1.36"), GroupVersion: "x/v1", Source: "notes-1.36"}, {Action: APIRemoved, Release: v("1.36"), GroupVersion: "y/v1", Source: "guide"}},
	}
	got := c.Without("notes-1.36")
	if len(got.APITypes) != 1 || got.APITypes[0] != c.APITypes[0] {
		t.Errorf("API types %+v; want them kept", got.APITypes)
	}
	if len(got.APIClaims) != 1 || got.APIClaims[0].Source != "guide" {
		t.Errorf("API claims %+v; want the guide's alone", got.APIClaims)
	}
	if ids := got.SourceIDs(); strings.Join(ids, ",") != "guide,k8s.io/api@v0.36.4" {
		t.Errorf("sources %v", ids)
	}
	if gone := c.Without("k8s.io/api@v0.36.4"); len(gone.APITypes) != 0 {
		t.Errorf("API types %+v after the last API module's release went; want none", gone.APITypes)
	}
}
