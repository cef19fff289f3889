package knowledge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompileChanges: each release-note entry is filed under its release
// once, makes the notice its class asks for (with PR, link and SIGs), and
// is linked from the known KEPs it names; lifecycle dates ride on their
// release, patches come oldest first.
func TestCompileChanges(t *testing.T) {
	v := MustVersion("1.40")
	c := &Corpus{
		KEPs: []KEP{{Number: 10, Title: "Widgets", Source: "kep.yaml"}},
		Changes: []Change{
			{Release: v, PR: 300, Kinds: []string{"feature"}, KEPs: []int{10}, Text: "Widgets go GA.", Source: "rn"},
			{Release: v, PR: 200, URL: "https://example.test/pull/200", Kinds: []string{"deprecation"}, SIGs: []string{"node", "Api-Machinery"},
				KEPs: []int{10, 99}, Notice: NoticeDeprecation, Text: "Deprecated the `--widget` flag. Use `--gizmo` instead.", Source: "rn"},
			{Release: v, PR: 200, Kinds: []string{"feature"}, Text: "the same PR again", Source: "rn"},
			{Release: v, PR: 400, Kinds: []string{"cleanup"}, Names: []string{"--old"}, Notice: NoticeRemoval, Source: "snapshot"},
			{Release: v, PR: 450, Kinds: []string{"api-change"}, Notice: NoticeDeprecation, Source: "snapshot"},
			{Release: v, PR: 500, Action: true, Notice: NoticeUpgrade, Text: "Action required: drain first", Source: "rn"},
			{PR: 600, Text: "no release", Source: "rn"},
		},
		Lifecycles: []Lifecycle{{Release: v, Released: "2030-01-01", EOL: "2031-03-01", Source: "eol"}, {Release: v, EOL: "later", Source: "other"}},
		Patches: []Patch{
			{Release: v, Number: 2, Date: "2030-02-01", Source: "p"},
			{Release: v, Number: 0, Date: "2030-01-01", Source: "p"},
			{Release: v, Number: 2, Date: "again", Source: "p"},
		},
	}
	k := Compile(c)
	if len(k.Releases) != 1 {
		t.Fatalf("releases %+v", k.Releases)
	}
	r := k.Releases[0]
	var prs []int
	for _, ch := range r.Changes {
		prs = append(prs, ch.PR)
	}
	if d := cmp.Diff([]int{200, 300, 400, 450, 500}, prs); d != "" {
		t.Errorf("entries by PR (-want +got):\n%s", d)
	}
	want := []Notice{
		{Kind: NoticeDeprecation, Release: v, KEP: 10, Title: "Deprecated the `--widget` flag.", Text: "Deprecated the `--widget` flag. Use `--gizmo` instead.",
			Source: "rn", PR: 200, URL: "https://example.test/pull/200", SIGs: []string{"sig-node", "sig-api-machinery"}},
		{Kind: NoticeRemoval, Release: v, Title: "--old", Source: "snapshot", PR: 400},
		{Kind: NoticeDeprecation, Release: v, Title: "(no summary in the built-in snapshot)", Source: "snapshot", PR: 450},
		{Kind: NoticeUpgrade, Release: v, Title: "Action required: drain first", Text: "Action required: drain first", Source: "rn", PR: 500, Action: true},
	}
	if d := cmp.Diff(want, r.Notices); d != "" {
		t.Errorf("notices (-want +got):\n%s", d)
	}
	var linked []int
	for _, ch := range k.KEPs[0].Changes {
		linked = append(linked, ch.PR)
	}
	if d := cmp.Diff([]int{200, 300}, linked); d != "" {
		t.Errorf("KEP-10's entries (-want +got):\n%s", d)
	}
	if r.Lifecycle == nil || r.Lifecycle.EOL != "2031-03-01" {
		t.Errorf("lifecycle %+v; want the first given", r.Lifecycle)
	}
	var patches []string
	for _, p := range r.Patches {
		patches = append(patches, p.String()+" "+p.Date)
	}
	if d := cmp.Diff([]string{"1.40.0 2030-01-01", "1.40.2 2030-02-01"}, patches); d != "" {
		t.Errorf("patches (-want +got):\n%s", d)
	}
	if st := k.Stats(); st.Changes != 5 || st.Patches != 2 || st.Notices != 4 {
		t.Errorf("stats %+v", st)
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Deprecated `x.y` in favour of z. More words.": "Deprecated `x.y` in favour of z.",
		"Removed v1.2.3 support":                       "Removed v1.2.3 support",
		"Moved the `a.b. c` field!  Then":              "Moved the `a.b. c` field!",
		"弃用了该字段。请迁移":                                   "弃用了该字段。",
		"":                                             "",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}
