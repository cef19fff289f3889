package website

import (
	"os"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// The documents under ../shared/data/website, read at test time and never
// copied here. Every expected value below was read off them by hand.
const (
	ann127    = "kubernetes-1.27-release.md"
	ann128    = "kubernetes-1.28-blog.md"
	ann129    = "kubernetes-1.29.md"
	ann130    = "kubernetes-v1-30-release.md"
	ann131    = "kubernetes-v1-31-release.md"
	ann132    = "kubernetes-v1-32-release.md"
	dep127    = "2023-03-17-kubernetes-1.27-deprecations-and-removals.md"
	dep131    = "kubernetes-1-31-deprecations-and-removals.md"
	mid129    = "mid-cycle-1.29.md"
	mid130    = "mid-cycle-1-30.md"
	peek132   = "kubernetes-1-32-sneak-peek.md"
	guideName = "deprecation-guide.md"
)

// docNames lists every document with facts (SOURCE.md aside).
var docNames = []string{ann127, ann128, ann129, ann130, ann131, ann132, dep127, dep131, mid129, mid130, peek132, guideName}

// readDoc returns a document's bytes, skipping without ../shared.
func readDoc(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "data", "website", name))
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return data
}

// parseDoc parses one document and fails the test on error.
func parseDoc(t testing.TB, name string) *knowledge.Corpus {
	t.Helper()
	c, err := Parse(name, readDoc(t, name))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return c
}

var v = knowledge.MustVersion

func TestParseAnnouncementFacts(t *testing.T) {
	tests := []struct {
		name string
		want knowledge.Release
		src  string
		url  string
	}{
		{ann127, knowledge.Release{Version: v("1.27"), Date: "2023-04-11", Theme: "Chill Vibes",
			Enhancements: knowledge.Counts{Total: 60, Stable: 13, Beta: 29, Alpha: 18}},
			"Kubernetes v1.27 release announcement (en)", "https://kubernetes.io/blog/2023/04/11/kubernetes-v1-27-release/"},
		{ann128, knowledge.Release{Version: v("1.28"), Date: "2023-08-15", Theme: "Planternetes",
			Enhancements: knowledge.Counts{Total: 45, Stable: 12, Beta: 14, Alpha: 19}},
			"Kubernetes v1.28 release announcement (en)", "https://kubernetes.io/blog/2023/08/15/kubernetes-v1-28-release/"},
		{ann129, knowledge.Release{Version: v("1.29"), Date: "2023-12-13", Theme: "Mandala",
			Enhancements: knowledge.Counts{Total: 49, Stable: 11, Beta: 19, Alpha: 19}},
			"Kubernetes v1.29 release announcement (en)", "https://kubernetes.io/blog/2023/12/13/kubernetes-v1-29-release/"},
		{ann130, knowledge.Release{Version: v("1.30"), Date: "2024-04-17", Theme: "Uwubernetes",
			Enhancements: knowledge.Counts{Total: 45, Stable: 17, Beta: 18, Alpha: 10}},
			"Kubernetes v1.30 release announcement (en)", "https://kubernetes.io/blog/2024/04/17/kubernetes-v1-30-release/"},
		{ann131, knowledge.Release{Version: v("1.31"), Date: "2024-08-13", Theme: "Elli",
			Enhancements: knowledge.Counts{Total: 45, Stable: 11, Beta: 22, Alpha: 12}},
			"Kubernetes v1.31 release announcement (en)", "https://kubernetes.io/blog/2024/08/13/kubernetes-v1-31-release/"},
		// 1.32's front matter has no release_announcement key: the title and
		// the opening sentence make it an announcement.
		{ann132, knowledge.Release{Version: v("1.32"), Date: "2024-12-11", Theme: "Penelope",
			Enhancements: knowledge.Counts{Total: 44, Stable: 13, Beta: 12, Alpha: 19}},
			"Kubernetes v1.32 release announcement (en)", "https://kubernetes.io/blog/2024/12/11/kubernetes-v1-32-release/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseDoc(t, tt.name)
			tt.want.Sources = []string{tt.name}
			if diff := cmp.Diff([]knowledge.Release{tt.want}, c.Releases); diff != "" {
				t.Errorf("releases (-want +got):\n%s", diff)
			}
			wantSrc := []knowledge.Source{{ID: tt.name, Name: tt.src, Kind: knowledge.SourceReleaseNote,
				Lang: "en", AsOf: tt.want.Date, URL: tt.url}}
			if diff := cmp.Diff(wantSrc, c.Sources); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
		})
	}
}

// stageKEPs lists, per stage, the KEP numbers an announcement's mentions
// carry, and how many mentions of that stage have no number.
type stageKEPs struct {
	keps      []int
	noNumbers int
}

func TestParseAnnouncementStages(t *testing.T) {
	S, B, A := knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha
	tests := []struct {
		name string
		want map[knowledge.Stage]stageKEPs
	}{
		{ann127, map[knowledge.Stage]stageKEPs{
			S: {keps: []int{693, 1748, 2053, 2227, 2238, 2413, 2727, 2885, 2896, 2926, 3140, 3744}},
			B: {keps: []int{1710, 2485}, noNumbers: 3},
			A: {noNumbers: 1},
		}},
		{ann128, map[knowledge.Stage]stageKEPs{
			S: {keps: []int{606, 1440, 1669, 2268, 2403, 2595, 3178, 3325, 3333, 3453, 3685, 3743}},
			B: {noNumbers: 4},
			A: {noNumbers: 5},
		}},
		{ann129, map[knowledge.Stage]stageKEPs{
			S: {keps: []int{365, 727, 1040, 2485, 2876, 2879, 3107, 3299, 3458, 3466, 3668}, noNumbers: 1},
			B: {keps: []int{2799}, noNumbers: 1},
			A: {noNumbers: 5},
		}},
		{ann130, map[knowledge.Stage]stageKEPs{
			S: {keps: []int{24, 647, 1610, 2305, 2681, 2799, 3022, 3141, 3352, 3458, 3488, 3521, 3705, 3716, 3756, 3895, 4402}},
			B: {noNumbers: 6},
			A: {keps: []int{1710}, noNumbers: 4},
		}},
		{ann131, map[knowledge.Stage]stageKEPs{
			S: {keps: []int{24, 2185, 2305, 3017, 3329, 3335, 3715, 3762, 3836, 4009, 4569}},
			B: {keps: []int{1880, 2644, 3751, 3866, 4193, 4444}},
			A: {keps: []int{3063, 4601, 4633, 4639, 4680}},
		}},
		{ann132, map[knowledge.Stage]stageKEPs{
			S: {keps: []int{1769, 1847, 1860, 1967, 2681, 3221, 3545, 4017, 4026, 4193, 4292, 4358, 4420}},
			B: {keps: []int{1790, 3476, 4247, 4368, 4381, 4601, 4633}},
			A: {keps: []int{2837, 3962, 4802, 4817, 4818, 4827, 4828, 4832, 4885}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseDoc(t, tt.name)
			got := map[knowledge.Stage]stageKEPs{}
			for _, m := range c.Mentions {
				if m.Release != c.Releases[0].Version || m.Source != tt.name {
					t.Errorf("mention %q: release %v source %q, want the document's", m.Title, m.Release, m.Source)
				}
				if m.Line <= 0 || m.Title == "" || m.Text == "" || m.Section == "" {
					t.Errorf("mention %q lacks its line, title, text or section: %+v", m.Title, m)
				}
				sk := got[m.Stage]
				if m.KEP == 0 {
					sk.noNumbers++
				} else {
					sk.keps = append(sk.keps, m.KEP)
				}
				got[m.Stage] = sk
			}
			for s, sk := range got {
				sort.Ints(sk.keps)
				got[s] = sk
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(stageKEPs{})); diff != "" {
				t.Errorf("mentions by stage (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseAnnouncementMentionDetails checks single mentions: the SIG, the
// feature gates, how a KEP was found and the name given.
func TestParseAnnouncementMentionDetails(t *testing.T) {
	tests := []struct {
		doc   string
		kep   int
		title string // "" when the KEP alone finds it
		stage knowledge.Stage
		sig   string
		gates []string
		via   string
	}{
		{ann127, 2413, "", knowledge.StageStable, "sig-node", []string{"SeccompDefault"}, "link"},
		{ann127, 0, "Node log access via Kubernetes API", knowledge.StageAlpha, "", []string{"NodeLogQuery"}, ""},
		{ann128, 2268, "", knowledge.StageStable, "", nil, "title"},
		{ann128, 0, "ValidatingAdmissionPolicies", knowledge.StageBeta, "", []string{"ValidatingAdmissionPolicy"}, ""},
		{ann129, 3299, "", knowledge.StageStable, "sig-auth", nil, ""},
		{ann129, 0, "Add support to containerd/kubelet/CRI to support image pull per runtime class", knowledge.StageAlpha,
			"sig-windows", []string{"RuntimeClassInImageCriApi"}, ""},
		{ann130, 3756, "", knowledge.StageStable, "sig-storage", []string{"NewVolumeManagerReconstruction"}, "title"},
		{ann130, 1710, "", knowledge.StageAlpha, "sig-storage", []string{"SELinuxMountReadWriteOncePod", "SELinuxMount"}, "link"},
		{ann130, 0, "Make Kubernetes aware of the LoadBalancer behaviour", knowledge.StageBeta, "sig-network", []string{"LoadBalancerIPMode"}, ""},
		{ann131, 3866, "", knowledge.StageBeta, "sig-network", []string{"NFTablesProxyMode"}, ""},
		{ann131, 4639, "", knowledge.StageAlpha, "sig-node", []string{"ImageVolume"}, ""},
		{ann131, 3063, "", knowledge.StageAlpha, "sig-node", []string{"DRAControlPlaneController"}, ""},
		{ann132, 4818, "", knowledge.StageAlpha, "sig-node", []string{"PodLifecycleSleepActionAllowZero"}, ""},
		{ann132, 4381, "", knowledge.StageBeta, "sig-node", nil, ""},
		{ann132, 4420, "", knowledge.StageStable, "", nil, "link"},
	}
	for _, tt := range tests {
		c := parseDoc(t, tt.doc)
		var found []knowledge.Mention
		for _, m := range c.Mentions {
			if m.KEP == tt.kep && (tt.title == "" || m.Title == tt.title) {
				found = append(found, m)
			}
		}
		if len(found) != 1 {
			t.Errorf("%s KEP-%d %q: %d mentions, want 1", tt.doc, tt.kep, tt.title, len(found))
			continue
		}
		m := found[0]
		if m.Stage != tt.stage || m.SIG != tt.sig || m.Via != tt.via || !cmp.Equal(m.FeatureGates, tt.gates) {
			t.Errorf("%s KEP-%d %q: stage %v sig %q via %q gates %v, want %v %q %q %v",
				tt.doc, tt.kep, m.Title, m.Stage, m.SIG, m.Via, m.FeatureGates, tt.stage, tt.sig, tt.via, tt.gates)
		}
		if tt.kep != 0 && m.Link == "" {
			t.Errorf("%s KEP-%d: no link", tt.doc, tt.kep)
		}
	}
}
