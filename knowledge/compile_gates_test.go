package knowledge

import "testing"

func TestGateNamesAreWhatNotesCallGates(t *testing.T) {
	for _, tc := range []struct {
		text  string
		names []string
		want  []string
	}{
		{"The feature gate `InPlacePodVerticalScalingAllocatedStatus` is deprecated and no longer used. The `AllocatedResources` field in `ContainerStatus` is now guarded by the `InPlacePodVerticalScaling` feature gate.",
			[]string{"InPlacePodVerticalScalingAllocatedStatus", "AllocatedResources", "ContainerStatus", "InPlacePodVerticalScaling"},
			[]string{"InPlacePodVerticalScalingAllocatedStatus", "InPlacePodVerticalScaling"}},
		{"apimachinery: Deprecated `MessageCountMap` and `CreateAggregateFromMessageCountMap`.", []string{"MessageCountMap", "CreateAggregateFromMessageCountMap"}, nil},
		{"Added the ability to change the maximum backoff delay accrued between container restarts for a node for containers in `CrashLoopBackOff`. To set this for a node, turn on the feature gate `KubeletCrashLoopBackoffMax` and set the `CrashLoopBackOff.MaxContainerRestartPeriod ` field",
			[]string{"CrashLoopBackOff", "KubeletCrashLoopBackoffMax"}, []string{"KubeletCrashLoopBackoffMax"}},
		{"Removed the feature gates `A1b`, `Bb2` and `Cc3` after GA.", []string{"A1b", "Bb2", "Cc3"}, []string{"A1b", "Bb2", "Cc3"}},
	} {
		got := gateNames(Change{Text: tc.text, Names: tc.names})
		if len(got) != len(tc.want) {
			t.Errorf("%.40q: %v; want %v", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%.40q: %v; want %v", tc.text, got, tc.want)
			}
		}
	}
}

// TestNoteKEPs: a gate no kep.yaml names takes the one KEP the release
// notes tie it to (PR 111090's "feature gate:
// UserNamespacesStatelessPodsSupport", KEP-127, whose own gate
// UserNamespacesSupport begins when it ends); not when a note links two
// KEPs, notes disagree, or the KEP's own gate is declared beside it.
func TestNoteKEPs(t *testing.T) {
	v := MustVersion
	gate := func(name string, rels ...string) FeatureGate {
		g := FeatureGate{Name: name}
		for _, r := range rels {
			g.Releases = append(g.Releases, GateRelease{Release: v(r)})
		}
		return g
	}
	gates := []FeatureGate{
		gate("UserNamespacesStatelessPodsSupport", "1.25", "1.26", "1.27"),
		gate("UserNamespacesSupport", "1.28", "1.29"),
		gate("LoosePeer", "1.26", "1.27"), // named by a note of KEP-1029, whose own gate is declared beside it
		gate("OwnQuota", "1.25", "1.26", "1.27"),
		gate("TwoLinks", "1.27"),
		gate("Disputed", "1.27"),
	}
	keps := map[int]*KEP{
		127:  {Number: 127, FeatureGates: []string{"UserNamespacesSupport"}},
		1029: {Number: 1029, FeatureGates: []string{"OwnQuota"}},
		7:    {Number: 7},
		8:    {Number: 8},
	}
	changes := []Change{
		{PR: 111090, KEPs: []int{127}, Text: "Added alpha support for user namespaces in pods phase 1 (KEP 127, feature gate: UserNamespacesStatelessPodsSupport)"},
		{PR: 116377, Names: []string{"UserNamespacesStatelessPodsSupport"}, Text: "no KEP linked: no say"},
		{PR: 1, KEPs: []int{1029}, Names: []string{"LoosePeer"}},
		{PR: 2, KEPs: []int{7, 8}, Names: []string{"TwoLinks"}},
		{PR: 3, KEPs: []int{7}, Names: []string{"Disputed"}},
		{PR: 4, KEPs: []int{8}, Text: "the Disputed gate"},
	}
	noteKEPs(gates, keps, changes)
	for _, g := range gates {
		want := 0
		if g.Name == "UserNamespacesStatelessPodsSupport" {
			want = 127
		}
		got := 0
		if len(g.KEPs) == 1 {
			got = g.KEPs[0]
		}
		if got != want || len(g.KEPs) > 1 {
			t.Errorf("%s: KEPs %v, want %d", g.Name, g.KEPs, want)
		}
	}
}
