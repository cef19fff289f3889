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
