package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

// TestGroupNotices: one change told by several sources is one notice,
// shown from the guide, else the release notes' entry, with what the
// others add, and the sources of each; ambiguous ties stay apart.
func TestGroupNotices(t *testing.T) {
	v := knowledge.MustVersion("1.32")
	sources := map[string]knowledge.Source{
		"guide": {ID: "guide", Kind: knowledge.SourceDeprecationGuide, Lang: "en"},
		"post":  {ID: "post", Kind: knowledge.SourceReleaseNote, Lang: "en"},
		"zh":    {ID: "zh", Kind: knowledge.SourceReleaseNote, Lang: "zh"},
		"rn":    {ID: "rn", Kind: knowledge.SourceReleaseNotesData, Lang: "en"},
	}
	api := func(kinds ...string) *knowledge.APIChange {
		return &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3", Kinds: kinds, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}
	}
	ns := []knowledge.Notice{
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "FlowSchema (flowcontrol)", API: api("FlowSchema"), Source: "post"},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "API 移除", API: api("PriorityLevelConfiguration"), Source: "zh"},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Removed the API", API: api("FlowSchema"), Source: "rn", PR: 127017, URL: "u", Action: true},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Removal of kubelet --keep-terminated-pod-volumes flag", KEP: 9, Source: "post"},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Removed the flag --keep-terminated-pod-volumes of kubelet", Source: "rn", PR: 122082},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Withdrawal of classic DRA", KEP: 3063, Source: "post"},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "撤回 DRA", KEP: 3063, Source: "zh"},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Removed the feature gate DRAControlPlaneController", KEP: 3063, Source: "rn", PR: 128003},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "feature gates A and B", FeatureGates: []string{"GateA", "GateB"}, Source: "post"},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Removed the feature gate GateA", FeatureGates: []string{"GateA"}, Source: "rn", PR: 1},
		{Kind: knowledge.NoticeRemoval, Release: v, Title: "Removed the feature gate GateB", FeatureGates: []string{"GateB"}, Source: "rn", PR: 2},
		{Kind: knowledge.NoticeDeprecation, Release: v, Title: "Deprecated the flag --x", Source: "rn", PR: 3},
	}
	got := groupNotices(ns, sources)
	type shown struct {
		Title  string
		PR     int
		Action bool
		Kinds  []string
		Told   []string
	}
	var rows []shown
	for i, n := range got.notices {
		s := shown{Title: n.Title, PR: n.PR, Action: n.Action, Told: got.told[i]}
		if n.API != nil {
			s.Kinds = n.API.Kinds
		}
		rows = append(rows, s)
	}
	want := []shown{
		{"Removed the API", 127017, true, []string{"FlowSchema", "PriorityLevelConfiguration"}, []string{"rn", "post", "zh"}},
		{"Removed the flag --keep-terminated-pod-volumes of kubelet", 122082, false, nil, []string{"rn", "post"}},
		{"Removed the feature gate DRAControlPlaneController", 128003, false, nil, []string{"rn", "post", "zh"}},
		{"feature gates A and B", 0, false, nil, []string{"post"}}, // it shares one gate with each of two entries
		{"Removed the feature gate GateA", 1, false, nil, []string{"rn"}},
		{"Removed the feature gate GateB", 2, false, nil, []string{"rn"}},
		{"Deprecated the flag --x", 3, false, nil, []string{"rn"}},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("grouped (-want +got):\n%s", d)
	}
	if c := got.count(); c != (noticeCounts{Deprecations: 1, Removals: 6, Upgrades: 1}) {
		t.Errorf("counts %+v", c)
	}
	if ns[0].API.Kinds[0] != "FlowSchema" || len(ns[0].API.Kinds) != 1 {
		t.Errorf("grouping changed the notices it was given: %+v", ns[0].API)
	}
	if notes := toldNotes(got.ofKind(knowledge.NoticeRemoval), sources); len(notes) != 3 {
		t.Errorf("told notes %q; want one for each notice several sources tell", notes)
	}
}
