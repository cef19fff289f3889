package releasenote

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

// noticeRow is what a test checks of a Notice: no words of the document.
type noticeRow struct {
	Line  int
	Kind  knowledge.NoticeKind
	KEP   int
	Gates []string
	API   *knowledge.APIChange
}

func TestParseSeedNotices(t *testing.T) {
	D, R, U := knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade
	tests := []struct {
		name string
		want []noticeRow
	}{
		{seed129, []noticeRow{
			{303, D, 0, nil, nil}, // a deprecation in the "other features" list
			{335, R, 0, nil, nil}, // a removal among the contributions
			{355, U, 0, nil, nil},
			{359, U, 0, []string{"DisableCloudProviders", "DisableKubeletCloudCredentialProvider"}, nil},
			{376, U, 0, nil, nil},
			{385, R, 0, nil, nil},
			{386, D, 0, nil, nil},
			{387, D, 0, nil, nil}, // a deprecated API version: not a removal, so no API change
		}},
		{seed132, []noticeRow{
			{186, R, 3063, nil, nil},
			{192, D, 0, nil, nil},
			{196, R, 0, nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
				Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}},
		}},
		{seed130, []noticeRow{
			{172, R, 0, nil, nil},
		}},
		{seed127, []noticeRow{
			{286, R, 0, []string{"IPv6DualStack"}, nil},
			{289, D, 0, nil, nil}, // titled by the short line above its paragraph
			{296, R, 0, nil, &knowledge.APIChange{GroupVersion: "storage.k8s.io/v1beta1", Kinds: []string{"CSIStorageCapacity"}}},
			{297, R, 0, []string{"NetworkPolicyEndPort", "LocalStorageCapacityIsolation", "StatefulSetMinReadySeconds",
				"IdentifyPodOS", "DaemonSetUpdateSurge", "EphemeralContainers", "CSIInlineVolume", "CSIMigration",
				"ControllerManagerLeaderMigration"}, nil},
			{300, R, 0, nil, nil},
			{301, R, 0, nil, nil},
			{302, R, 0, nil, nil},
			{303, D, 0, nil, nil},
			{304, D, 0, []string{"SecurityContextDeny"}, nil}, // "将在未来版本移除" is no removal yet
			{305, U, 0, nil, nil},
		}},
		{seed131, []noticeRow{
			{74, U, 3063, nil, nil}, // "KEP-3063/KEP-4381": two KEPs, two notices
			{74, U, 4381, nil, nil},
			{103, D, 4569, nil, nil},
			{104, D, 4004, nil, nil},
			{105, D, 0, nil, nil}, // a kubernetes/kubernetes issue link is not a KEP
			{106, D, 0, nil, nil},
			{110, R, 0, nil, nil},
			{111, R, 0, nil, nil},
			{112, R, 0, nil, nil},
			{116, U, 2589, []string{"CSIMigrationPortworx"}, nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseSeed(t, tt.name)
			var got []noticeRow
			for _, n := range c.Notices {
				got = append(got, noticeRow{n.Line, n.Kind, n.KEP, n.FeatureGates, n.API})
				if n.Title == "" || n.Text == "" || n.Source != tt.name || n.Release != c.Releases[0].Version {
					t.Errorf("notice at line %d: title %q, text empty %v, source %q, release %v",
						n.Line, n.Title, n.Text == "", n.Source, n.Release)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
		})
	}
}
