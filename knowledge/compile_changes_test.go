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
		// Known without words or effects: the pull request alone, no fragment.
		{Kind: NoticeRemoval, Release: v, Title: "Pull request #400", Source: "snapshot", PR: 400},
		{Kind: NoticeDeprecation, Release: v, Title: "Pull request #450", Source: "snapshot", PR: 450},
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

// TestChangeNoticesFromEffects: an entry's notice is titled by its typed
// changes, the same with its words (a full ingest) as without (the
// built-in snapshot); its gates include its effects' gates; an entry
// that removes one API version and nothing else names it (API), so that
// the documents telling the same removal are one item with it.
func TestChangeNoticesFromEffects(t *testing.T) {
	v := MustVersion("1.33")
	gate := Change{Release: v, PR: 129589, Kinds: []string{"feature"}, Notice: NoticeRemoval, Source: "rn",
		Text:    "kubeadm: removed the feature gate `EtcdLearnerMode` which graduated to GA in 1.32.",
		Effects: []Effect{{What: EffectGate, Name: "EtcdLearnerMode", Of: "kubeadm", Action: EffectRemoved}}}
	api := Change{Release: v, PR: 127017, Notice: NoticeRemoval, Source: "rn",
		Text: "The `flowcontrol.apiserver.k8s.io/v1beta3` API version of `FlowSchema` and `PriorityLevelConfiguration` is no longer served in v1.32.",
		Effects: []Effect{{What: EffectAPI, Name: "flowcontrol.apiserver.k8s.io/v1beta3", Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"},
			Action: EffectRemoved, Replacement: "flowcontrol.apiserver.k8s.io/v1"}}}
	kubectl := Change{Release: v, PR: 134685, Notice: NoticeRemoval, Source: "rn",
		Effects: []Effect{{What: EffectAPI, Name: "policy/v1beta1", Kinds: []string{"PodDisruptionBudget"}, Of: "kubectl", Action: EffectRemoved}}}
	mixed := Change{Release: v, PR: 129373, Notice: NoticeDeprecation, Source: "rn", Effects: []Effect{
		{What: EffectFlag, Name: "--cpu", Of: "kubectl autoscale", Action: EffectAdded},
		{What: EffectFlag, Name: "--cpu-precent", Of: "kubectl autoscale", Action: EffectDeprecated}}}
	for _, tt := range []struct {
		ch    Change
		title string
		gates []string
		api   *APIChange
	}{
		{gate, "Removed the feature gate EtcdLearnerMode of kubeadm", []string{"EtcdLearnerMode"}, nil},
		{api, "Removed the API flowcontrol.apiserver.k8s.io/v1beta3 (FlowSchema, PriorityLevelConfiguration) (use flowcontrol.apiserver.k8s.io/v1)", nil,
			&APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3", Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}},
		{kubectl, "Removed kubectl's support for the API policy/v1beta1 (PodDisruptionBudget)", nil, nil},
		{mixed, "Deprecated the flag --cpu-precent of kubectl autoscale; added the flag --cpu of kubectl autoscale", nil, nil},
	} {
		for _, words := range []bool{true, false} {
			ch := tt.ch
			if !words {
				ch.Text = "" // the built-in snapshot keeps no words
			}
			n, ok := noticeOf(ch)
			if !ok {
				t.Fatalf("PR %d makes no notice", ch.PR)
			}
			if n.Title != tt.title || !cmp.Equal(n.FeatureGates, tt.gates) || !cmp.Equal(n.API, tt.api) {
				t.Errorf("PR %d (words %v): title %q, gates %v, API %+v; want %q, %v, %+v", ch.PR, words, n.Title, n.FeatureGates, n.API, tt.title, tt.gates, tt.api)
			}
		}
	}
}

// TestEffectsTitle: effects written out, the notice's own action first,
// names listed and cut, a removal notice with no removal effect untitled.
func TestEffectsTitle(t *testing.T) {
	gates := func(a EffectAction, names ...string) []Effect {
		var out []Effect
		for _, n := range names {
			out = append(out, Effect{What: EffectGate, Name: n, Action: a})
		}
		return out
	}
	for _, tt := range []struct {
		es   []Effect
		k    NoticeKind
		want string
	}{
		{gates(EffectRemoved, "A", "B", "C"), NoticeRemoval, "Removed the feature gates A, B and C"},
		{gates(EffectRemoved, "A", "B", "C", "D", "E", "F"), NoticeRemoval, "Removed the feature gates A, B, C, D and 2 more"},
		{gates(EffectGraduated, "A"), NoticeRemoval, ""},
		{[]Effect{{What: EffectFlag, Name: "iptables CLI wait interval", Of: "kube-proxy", Action: EffectRemoved}}, NoticeRemoval,
			"Removed the iptables CLI wait interval flag of kube-proxy"},
		{[]Effect{{What: EffectGate, Name: "X", Action: EffectDefault, Value: "false"}, {What: EffectGate, Name: "X", Action: EffectDeprecated}}, NoticeDeprecation,
			"Deprecated the feature gate X; disabled the feature gate X by default"},
		{[]Effect{{What: EffectFeature, Name: "Y", Action: EffectGraduated, Stage: StageStable}}, NoticeUpgrade, "Graduated the feature Y to GA"},
		{[]Effect{{What: EffectComponent, Name: "in-tree Portworx volume plugin", Action: EffectRemoved}}, NoticeRemoval, "Removed the in-tree Portworx volume plugin"},
		{[]Effect{{What: EffectFlag, Name: "--mode", Action: EffectDefault, Value: "nftables"}}, NoticeUpgrade, "Changed the default of the flag --mode to nftables"},
	} {
		if got := EffectsTitle(tt.es, tt.k); got != tt.want {
			t.Errorf("EffectsTitle(%+v, %s) = %q, want %q", tt.es, tt.k, got, tt.want)
		}
	}
}
