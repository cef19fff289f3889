package website

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

// kindCount is a notice count by kind and release.
type kindCount struct {
	Kind    knowledge.NoticeKind
	Release string
}

func TestParseNoticeCounts(t *testing.T) {
	dep, rem, upg := knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade
	tests := []struct {
		name string
		want map[kindCount]int
	}{
		{ann127, map[kindCount]int{{rem, "1.27"}: 14}},
		{ann128, map[kindCount]int{{rem, "1.28"}: 1, {dep, "1.28"}: 2}},
		{ann129, map[kindCount]int{{rem, "1.29"}: 2, {dep, "1.29"}: 2}},
		{ann130, map[kindCount]int{{rem, "1.30"}: 1, {upg, "1.30"}: 1}},
		{ann131, map[kindCount]int{{rem, "1.31"}: 5, {dep, "1.31"}: 3, {upg, "1.31"}: 2}},
		{ann132, map[kindCount]int{{rem, "1.32"}: 2}},
		// The 1.27 post looks ahead to the flowcontrol v1beta2 removal in 1.29.
		{dep127, map[kindCount]int{{rem, "1.27"}: 16, {dep, "1.27"}: 1, {rem, "1.29"}: 1}},
		{dep131, map[kindCount]int{{rem, "1.31"}: 4, {dep, "1.31"}: 2, {upg, "1.31"}: 1, {rem, "1.32"}: 1}},
		{mid129, map[kindCount]int{{rem, "1.29"}: 2, {dep, "1.29"}: 3}},
		{mid130, map[kindCount]int{}},
		{peek132, map[kindCount]int{{rem, "1.32"}: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseDoc(t, tt.name)
			got := map[kindCount]int{}
			for _, n := range c.Notices {
				got[kindCount{n.Kind, n.Release.String()}]++
				if n.Title == "" || n.Text == "" || n.Line <= 0 || n.Source != tt.name {
					t.Errorf("notice %q lacks its title, text, line or source: %+v", n.Title, n)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notices by kind and release (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseNoticeDetails finds single notices by KEP or a word of the title
// and checks what each says.
func TestParseNoticeDetails(t *testing.T) {
	dep, rem, upg := knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade
	tests := []struct {
		doc     string
		kep     int    // 0: find by word
		word    string // a word of the title, lower case
		kind    knowledge.NoticeKind
		release string
		gates   []string
		api     *knowledge.APIChange
	}{
		{ann127, 0, "controllermanagerleadermigration", rem, "1.27", []string{"ControllerManagerLeaderMigration"}, nil},
		{ann127, 0, "csistoragecapacity", rem, "1.27", nil,
			&knowledge.APIChange{GroupVersion: "storage.k8s.io/v1beta1", Kinds: []string{"CSIStorageCapacity"}}},
		{ann128, 1488, "", rem, "1.28", nil, nil},
		{ann128, 0, "ceph rbd", dep, "1.28", nil, nil},
		{ann129, 2395, "", rem, "1.29", []string{"DisableCloudProviders", "DisableKubeletCloudCredentialProviders"}, nil},
		{ann129, 0, "flowschema", rem, "1.29", nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
			Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}}},
		{ann129, 0, "package repositories", dep, "1.29", nil, nil},
		{ann130, 0, "securitycontextdeny", rem, "1.30", nil, nil},
		{ann130, 3141, "", upg, "1.30", nil, nil},
		{ann131, 4569, "", dep, "1.31", nil, nil},
		{ann131, 4004, "", dep, "1.31", []string{"DisableNodeKubeProxyVersion"}, nil},
		{ann131, 0, "sha-1", upg, "1.31", nil, nil},
		{ann131, 0, "in-tree provider feature gates", rem, "1.31", []string{"InTreePluginAWSUnregister",
			"InTreePluginAzureDiskUnregister", "InTreePluginAzureFileUnregister", "InTreePluginGCEUnregister",
			"InTreePluginOpenStackUnregister", "InTreePluginvSphereUnregister"}, nil},
		{ann131, 0, "keep-terminated-pod-volumes", rem, "1.31", nil, nil}, // said twice, kept once
		{ann131, 0, "queueinghint", upg, "1.31", []string{"SchedulerQueueingHints"}, nil},
		{ann132, 3063, "", rem, "1.32", nil, nil},
		{ann132, 0, "flowschema", rem, "1.32", nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
			Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}},
		{dep127, 1472, "", rem, "1.27", nil, &knowledge.APIChange{GroupVersion: "storage.k8s.io/v1beta1",
			Kinds: []string{"CSIStorageCapacity"}, ReplacedBy: "storage.k8s.io/v1"}},
		{dep127, 135, "", rem, "1.27", nil, nil},
		{dep127, 284, "", rem, "1.27", []string{"ExpandCSIVolumes", "ExpandInUsePersistentVolumes", "ExpandPersistentVolumes"}, nil},
		{dep127, 625, "", rem, "1.27", []string{"CSIMigration"}, nil},
		{dep127, 0, "k8s.gcr.io", dep, "1.27", nil, nil},
		{dep127, 0, "flowschema", rem, "1.29", nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
			Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}}},
		{dep131, 4004, "", dep, "1.31", []string{"DisableNodeKubeProxyVersion"}, nil},
		{dep131, 2395, "", rem, "1.31", nil, nil},
		{dep131, 0, "non-csi", dep, "1.31", nil, nil},
		{dep131, 0, "sha-1", upg, "1.31", nil, nil},
		{dep131, 0, "flowschema", rem, "1.32", nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
			Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}},
		{mid129, 2395, "", rem, "1.29", []string{"DisableCloudProviders", "DisableKubeletCloudCredentialProviders"}, nil},
		{mid129, 4004, "", dep, "1.29", nil, nil},
		{mid129, 0, "flowschema", rem, "1.29", nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
			Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1beta3"}},
		{peek132, 3063, "", rem, "1.32", nil, nil},
		{peek132, 0, "flowschema", rem, "1.32", nil, &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
			Kinds: []string{"FlowSchema", "PriorityLevelConfiguration"}, ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}},
	}
	for _, tt := range tests {
		c := parseDoc(t, tt.doc)
		var found []knowledge.Notice
		for _, n := range c.Notices {
			if (tt.kep != 0 && n.KEP == tt.kep) || (tt.kep == 0 && tt.word != "" && strings.Contains(strings.ToLower(n.Title), tt.word)) {
				found = append(found, n)
			}
		}
		if len(found) != 1 {
			t.Errorf("%s KEP-%d %q: %d notices, want 1", tt.doc, tt.kep, tt.word, len(found))
			continue
		}
		n := found[0]
		if n.Kind != tt.kind || n.Release.String() != tt.release || !cmp.Equal(n.FeatureGates, tt.gates) {
			t.Errorf("%s %q: %s in %s gates %v, want %s in %s gates %v", tt.doc, n.Title, n.Kind, n.Release, n.FeatureGates,
				tt.kind, tt.release, tt.gates)
		}
		if diff := cmp.Diff(tt.api, n.API); diff != "" {
			t.Errorf("%s %q API (-want +got):\n%s", tt.doc, n.Title, diff)
		}
	}
}

// TestParseUpcomingPosts checks that posts about a coming release make no
// Release, name the release they are about, and give the features they
// preview as mentions without a stage.
func TestParseUpcomingPosts(t *testing.T) {
	tests := []struct {
		name, src, asOf string
		previewed       []int
	}{
		{dep127, "Kubernetes v1.27 deprecations and removals (en)", "2023-03-17", nil},
		{mid129, "Kubernetes v1.29 deprecations and removals (en)", "2023-11-16", nil},
		{mid130, "Kubernetes v1.30 sneak peek (en)", "2024-03-12", []int{4381, 2400, 127, 3221, 1610, 3488}},
		{dep131, "Kubernetes v1.31 deprecations and removals (en)", "2024-07-19", nil},
		{peek132, "Kubernetes v1.32 sneak peek (en)", "2024-11-08", []int{4680, 4802, 4369, 1860, 4420}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseDoc(t, tt.name)
			if len(c.Releases) != 0 {
				t.Errorf("got %d releases, want none from a post about a coming release", len(c.Releases))
			}
			s := c.Sources[0]
			if s.Name != tt.src || s.AsOf != tt.asOf || s.Kind != knowledge.SourceReleaseNote || s.Lang != "en" ||
				!strings.HasPrefix(s.URL, "https://kubernetes.io/blog/"+strings.ReplaceAll(tt.asOf, "-", "/")+"/") {
				t.Errorf("source %+v, want %q as of %s", s, tt.src, tt.asOf)
			}
			var got []int
			for _, m := range c.Mentions {
				got = append(got, m.KEP)
				if m.Stage != knowledge.StageNone {
					t.Errorf("KEP-%d: stage %v from a preview, want none: a preview states a plan", m.KEP, m.Stage)
				}
			}
			if diff := cmp.Diff(tt.previewed, got); diff != "" {
				t.Errorf("previewed KEPs (-want +got):\n%s", diff)
			}
		})
	}
}
