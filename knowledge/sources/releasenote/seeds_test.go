package releasenote

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// The five seed notes, by the release each is about. Expected values below
// were read off the documents by hand; the documents themselves are read
// from ../shared at test time and never copied here.
const (
	seed129 = "000_c7b9359b7d990384.txt"
	seed132 = "001_734cae5d6bd047d8.txt"
	seed130 = "002_e8a7eaf7ccef5240.txt"
	seed127 = "003_c70003f41ba6877e.txt"
	seed131 = "004_91e0686493f002ea.txt"
)

var seedNames = []string{seed129, seed132, seed130, seed127, seed131}

// readSeed returns a seed's bytes, skipping without ../shared.
func readSeed(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "seeds", name))
	if err != nil {
		t.Fatalf("read seed: %v", err)
	}
	return data
}

// parseSeed parses one seed and fails the test on error.
func parseSeed(t testing.TB, name string) *knowledge.Corpus {
	t.Helper()
	c, err := Parse(name, readSeed(t, name))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return c
}

func TestParseSeedReleaseFacts(t *testing.T) {
	tests := []struct {
		name  string
		want  knowledge.Release
		label string
	}{
		{seed129, knowledge.Release{Version: knowledge.MustVersion("1.29"), Date: "2023-12-13", Theme: "Mandala",
			Enhancements: knowledge.Counts{Total: 49, Stable: 11, Beta: 19, Alpha: 19}}, "Kubernetes 1.29 release note (zh)"},
		// 1.32's theme is a template placeholder: unknown, so empty.
		{seed132, knowledge.Release{Version: knowledge.MustVersion("1.32"), Date: "2024-12-11", Theme: "",
			Enhancements: knowledge.Counts{Total: 44, Stable: 13, Beta: 12, Alpha: 19}}, "Kubernetes 1.32 release note (zh)"},
		{seed130, knowledge.Release{Version: knowledge.MustVersion("1.30"), Date: "2024-04-17", Theme: "Uwubernetes",
			Enhancements: knowledge.Counts{Total: 45, Stable: 17, Beta: 18, Alpha: 10}}, "Kubernetes 1.30 release note (zh)"},
		// 1.27 leaves the theme blank after "主题是" and names it in quotes next.
		{seed127, knowledge.Release{Version: knowledge.MustVersion("1.27"), Date: "2023-04-11", Theme: "Chill Vibes",
			Enhancements: knowledge.Counts{Total: 60, Stable: 13, Beta: 29, Alpha: 18}}, "Kubernetes 1.27 release note (zh)"},
		// 1.31 states no theme and no total (its three counts sum to 40;
		// the release had 45), so Total stays 0. Its date is the front matter's.
		{seed131, knowledge.Release{Version: knowledge.MustVersion("1.31"), Date: "2024-08-13", Theme: "",
			Enhancements: knowledge.Counts{Total: 0, Stable: 10, Beta: 19, Alpha: 11}}, "Kubernetes 1.31 release note (zh)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseSeed(t, tt.name)
			tt.want.Sources = []string{tt.name}
			if len(c.Releases) != 1 {
				t.Fatalf("got %d releases, want 1", len(c.Releases))
			}
			if diff := cmp.Diff(tt.want, c.Releases[0]); diff != "" {
				t.Errorf("release (-want +got):\n%s", diff)
			}
			wantSrc := []knowledge.Source{{ID: tt.name, Name: tt.label, Kind: knowledge.SourceReleaseNote, Lang: "zh", AsOf: tt.want.Date}}
			if diff := cmp.Diff(wantSrc, c.Sources); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
		})
	}
}

// stageKEPs returns the KEPs the corpus puts at stage st, sorted.
func stageKEPs(c *knowledge.Corpus, st knowledge.Stage) []int {
	var out []int
	for _, m := range c.Mentions {
		if m.KEP != 0 && m.Stage == st {
			out = append(out, m.KEP)
		}
	}
	sort.Ints(out)
	return out
}

func sorted(xs ...int) []int {
	out := append([]int(nil), xs...)
	sort.Ints(out)
	return out
}

func TestParseSeedStages(t *testing.T) {
	S, B, A, N := knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha, knowledge.StageNone
	tests := []struct {
		name string
		want map[knowledge.Stage][]int
	}{
		{seed129, map[knowledge.Stage][]int{
			S: sorted(2495, 3299, 727, 3466, 3107),
			B: sorted(753, 2799, 4247, 3850),
			A: sorted(3866, 1287, 1880, 3633, 3751, 3077, 127, 4191, 4210, 4193),
		}},
		{seed132, map[knowledge.Stage][]int{
			// Line 30 says KEP-4292 but links kep.k8s.io/1769: the link wins.
			S: sorted(3221, 4193, 4358, 4420, 1860, 2681, 4292, 1769, 1967, 3545, 4026, 4017, 1847),
			B: sorted(3157, 4601, 4633, 1790, 3476, 1710, 4247, 4369, 4381, 4368, 3331),
			// The "KEP-283" detail heading is the list's KEP-2837.
			A: sorted(3962, 4427, 4832, 3288, 2837, 4680, 4800, 4817, 4827, 4828, 2862, 4818, 740, 4885, 3926, 4222, 4540, 4802),
		}},
		{seed130, map[knowledge.Stage][]int{
			S: sorted(1610, 3458, 4402, 2799, 3488, 3716, 3521, 3022, 3141, 647, 3705, 24, 3756, 3895, 2305, 2681, 3352),
			B: sorted(2258, 4008),
			A: sorted(1710, 3857, 3998, 4444, 4368),
		}},
		{seed127, map[knowledge.Stage][]int{
			B: sorted(1847, 3453, 2831, 647, 3386, 3838, 3521),
			A: sorted(3476, 2258, 3659),
			// These sections say nothing of the stage in 1.27 (KEP-2876's
			// "升级为 Beta" is about v1.25).
			N: sorted(3077, 1287, 3243, 2876),
		}},
		{seed131, map[knowledge.Stage][]int{
			S: sorted(3762, 2305, 3836, 4009, 24, 3017, 3329, 3715, 3335, 2185),
			B: sorted(2589, 2644, 3633, 3866, 4358, 4420, 4444, 4006, 4193, 4033, 4622, 1880, 4568, 4292, 3751, 4265, 3857, 3998, 1029),
			A: sorted(2340, 4601, 4633, 3063, 4176, 4381, 4639, 3619, 4192, 4680, 4368),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := parseSeed(t, tt.name)
			for _, st := range []knowledge.Stage{S, B, A, N} {
				if diff := cmp.Diff(tt.want[st], stageKEPs(c, st)); diff != "" {
					t.Errorf("KEPs at stage %q (-want +got):\n%s", st, diff)
				}
			}
		})
	}
}

// TestParseSeedListCountsMatchStated checks the stage lists against the
// counts the notes state where a note lists every KEP of a stage.
func TestParseSeedListCountsMatchStated(t *testing.T) {
	for _, tt := range []struct {
		name   string
		stages []knowledge.Stage
	}{
		{seed131, []knowledge.Stage{knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha}},
		{seed130, []knowledge.Stage{knowledge.StageStable}},
		{seed132, []knowledge.Stage{knowledge.StageStable}},
	} {
		c := parseSeed(t, tt.name)
		counts := c.Releases[0].Enhancements
		stated := map[knowledge.Stage]int{knowledge.StageStable: counts.Stable, knowledge.StageBeta: counts.Beta, knowledge.StageAlpha: counts.Alpha}
		for _, st := range tt.stages {
			if got := len(stageKEPs(c, st)); got != stated[st] {
				t.Errorf("%s: %d KEPs at %s, the note states %d", tt.name, got, st, stated[st])
			}
		}
	}
}

// mentionAt finds the mention of kep (or the KEP-0 item at line) in c.
func mentionAt(t *testing.T, c *knowledge.Corpus, kep, line int) knowledge.Mention {
	t.Helper()
	for _, m := range c.Mentions {
		if (kep != 0 && m.KEP == kep) || (kep == 0 && m.KEP == 0 && m.Line == line) {
			return m
		}
	}
	t.Fatalf("no mention of KEP-%d (line %d)", kep, line)
	return knowledge.Mention{}
}

// headingAt returns the text of the Markdown heading on a 1-based line.
func headingAt(t *testing.T, data []byte, line int) string {
	t.Helper()
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) || !strings.HasPrefix(lines[line-1], "#") {
		t.Fatalf("line %d is not a heading", line)
	}
	return strings.TrimSpace(strings.TrimLeft(lines[line-1], "#"))
}

func TestParseSeedMentionDetails(t *testing.T) {
	S, B, A, N := knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha, knowledge.StageNone
	tests := []struct {
		doc         string
		kep, line   int // line: the mention's line (required for KEP 0)
		stage       knowledge.Stage
		sig         string
		gates       []string
		sectionLine int // the line of the heading it stood under
		link        string
	}{
		{seed129, 3866, 18, A, "sig-network", []string{"NFTablesProxyMode"}, 16, ""},
		{seed129, 2495, 35, S, "sig-storage", nil, 16, ""},
		{seed129, 3299, 63, S, "sig-auth", []string{"KMSv2", "KMSv2KDF", "KMSv1"}, 16, ""},
		{seed129, 753, 72, B, "sig-node", []string{"SidecarContainers"}, 16, ""},
		// [Auth/Apps]: the first tag is the SIG.
		{seed129, 2799, 80, B, "sig-auth", []string{"LegacyServiceAccountTokenCleanUp"}, 16, ""},
		{seed129, 1287, 104, A, "sig-windows", nil, 16, ""},
		{seed129, 1880, 108, A, "sig-network", []string{"MultiCIDRServiceAllocator"}, 16, ""},
		{seed129, 3633, 136, A, "sig-scheduling", []string{"MatchLabelKeysInPodAffinity"}, 16, ""},
		{seed129, 4247, 174, B, "sig-scheduling", []string{"SchedulerQueueingHints"}, 16, ""},
		{seed129, 727, 187, S, "sig-instrumentation", nil, 16, ""},
		{seed129, 3466, 204, S, "sig-instrumentation", []string{"ComponentSLIs"}, 16, ""},
		{seed129, 3107, 240, S, "sig-storage", nil, 16, ""},
		{seed129, 3751, 245, A, "sig-storage", []string{"VolumeAttributesClass"}, 16, ""},
		{seed129, 3077, 257, A, "sig-instrumentation", []string{"ContextualLogging"}, 16, ""},
		{seed129, 127, 268, A, "sig-node", []string{"UserNamespacesPodSecurityStandards"}, 16, ""},
		{seed129, 4191, 275, A, "sig-node", []string{"KubeletSeparateDiskGC"}, 16, ""},
		{seed129, 4210, 280, A, "sig-node", []string{"ImageMaximumGCAge"}, 16, ""},
		{seed129, 4193, 285, A, "sig-auth", []string{"ServiceAccountTokenJTI", "ServiceAccountTokenPodNodeInfo", "ServiceAccountTokenNodeBinding", "ServiceAccountTokenNodeBindingValidation"}, 16, ""},
		{seed129, 3850, 311, B, "sig-apps", nil, 300, ""},
		// Items without a number in "other features": stage from the words.
		{seed129, 0, 302, A, "sig-node", []string{"RuntimeClassInImageCriApi"}, 300, ""},
		{seed129, 0, 306, N, "sig-auth", nil, 300, ""},
		{seed129, 0, 308, A, "sig-api-machinery", nil, 300, ""}, // "Alpha2"
		{seed129, 0, 310, B, "sig-node", nil, 300, ""},
		{seed129, 0, 312, S, "sig-network", nil, 300, ""},
		{seed129, 0, 314, S, "sig-api-machinery", []string{"APIPriorityAndFairness"}, 300, ""},
		{seed129, 0, 316, A, "sig-cli", []string{"TranslateStreamCloseWebsocketRequests"}, 300, ""},
		{seed129, 0, 318, B, "sig-storage", []string{"PersistentVolumeLastPhaseTransitionTime"}, 300, ""},
		{seed129, 0, 324, A, "sig-network", []string{"LoadBalancerIPMode"}, 300, ""},
		{seed129, 0, 326, B, "sig-apps", nil, 300, ""}, // the "Bata" typo, and "跳过 Alpha" is not a stage
		{seed129, 0, 343, B, "sig-network", nil, 330, ""},
		{seed129, 0, 344, N, "sig-cluster-lifecycle", nil, 330, ""},

		{seed132, 1769, 30, S, "", nil, 19, "https://kep.k8s.io/1769"},
		{seed132, 4292, 29, S, "", nil, 19, "https://kep.k8s.io/4292"},
		// The detail heading is richer than the list entry and keeps its place.
		{seed132, 1790, 55, B, "", nil, 37, "https://kep.k8s.io/1790"},
		{seed132, 2837, 130, A, "", nil, 61, "https://kep.k8s.io/2837"},
		// Listed again under the DRA heading: one mention, at its first place.
		{seed132, 4680, 70, A, "", nil, 61, "https://kep.k8s.io/4680"},

		{seed130, 3458, 43, S, "", nil, 37, "https://kep.k8s.io/3458"},
		{seed130, 3756, 62, S, "sig-storage", nil, 37, "https://github.com/kubernetes/enhancements/issues/3756"},
		{seed130, 3141, 68, S, "sig-storage", nil, 37, "https://github.com/kubernetes/enhancements/issues/3141"},
		{seed130, 2681, 76, S, "sig-network", nil, 37, "https://github.com/kubernetes/enhancements/issues/2681"},
		{seed130, 3521, 82, S, "sig-scheduling", nil, 37, "https://github.com/kubernetes/enhancements/issues/3521"},
		{seed130, 3895, 94, S, "sig-cli", nil, 37, "https://github.com/kubernetes/enhancements/issues/3895"},
		{seed130, 1610, 107, S, "sig-autoscaling", nil, 37, "https://github.com/kubernetes/enhancements/issues/1610"},
		{seed130, 3488, 115, S, "sig-auth", nil, 37, "https://github.com/kubernetes/enhancements/issues/3488"},
		{seed130, 2258, 132, B, "sig-node", []string{"NodeLogQuery"}, 130, "https://github.com/kubernetes/enhancements/issues/2258"},
		{seed130, 4008, 147, B, "sig-api-machinery", []string{"CRDValidationRatcheting"}, 130, "https://github.com/kubernetes/enhancements/issues/4008"},
		{seed130, 0, 152, B, "sig-instrumentation", nil, 130, ""},
		{seed130, 0, 158, B, "sig-network", []string{"LoadBalancerIPMode"}, 130, ""},
		{seed130, 1710, 164, A, "sig-storage", nil, 162, "https://github.com/kubernetes/enhancements/issues/1710"},
		{seed130, 3857, 165, A, "sig-node", nil, 162, "https://github.com/kubernetes/enhancements/issues/3857"},
		{seed130, 3998, 166, A, "sig-apps", nil, 162, "https://github.com/kubernetes/enhancements/issues/3998"},
		{seed130, 4444, 167, A, "", nil, 162, "https://github.com/kubernetes/enhancements/issues/4444"},

		{seed127, 0, 13, N, "", nil, 11, ""},
		{seed127, 1847, 18, B, "", nil, 11, ""},
		{seed127, 3453, 26, B, "", []string{"MinimizeIPTablesRestore"}, 11, ""},
		{seed127, 2831, 35, B, "", nil, 11, ""},
		{seed127, 647, 35, B, "", nil, 11, ""},
		{seed127, 3838, 83, B, "", []string{"PodSchedulingReadiness"}, 11, ""},
		{seed127, 3521, 83, B, "", []string{"PodSchedulingReadiness"}, 11, ""},
		{seed127, 3476, 74, A, "", nil, 11, ""},
		{seed127, 2258, 116, A, "", []string{"NodeLogQuery"}, 11, ""},
		{seed127, 3659, 136, A, "", nil, 11, ""},
		// Named again under the **API:** pseudo-heading, which gives the SIG.
		{seed127, 2876, 104, N, "sig-api-machinery", nil, 11, ""},
		{seed127, 0, 153, B, "sig-scheduling", nil, 148, ""},
		{seed127, 0, 156, N, "sig-cluster-lifecycle", []string{"EtcdLearnerMode"}, 148, ""},
		{seed127, 0, 162, S, "sig-cli", nil, 148, ""},
		{seed127, 0, 184, B, "sig-apps", []string{"StatefulSetStartOrdinal"}, 175, ""},
		{seed127, 0, 219, N, "sig-network", []string{"ServiceNodePortStaticSubrange"}, 175, ""},
		{seed127, 0, 225, B, "sig-autoscaling", nil, 175, ""},
		{seed127, 0, 229, N, "sig-node", []string{"DynamicResourceAllocation"}, 175, ""},
		{seed127, 0, 234, S, "sig-node", nil, 175, ""}, // English: "... to GA."
		{seed127, 0, 249, N, "", nil, 175, ""},         // "Lease:" is no SIG
		{seed127, 0, 265, B, "sig-storage", nil, 175, ""},

		// The highlight heading joins the list entry: its gate, the list's stage.
		{seed131, 4639, 26, A, "", []string{"ImageVolume"}, 24, "https://kep.k8s.io/4639"},
		{seed131, 4622, 63, B, "", nil, 24, "https://kep.k8s.io/4622"},
		{seed131, 24, 137, S, "", nil, 129, "https://kep.k8s.io/24"},
		// UserNamespacesSupport is a gate 4265 depends on, not its own.
		{seed131, 4265, 163, B, "", nil, 144, "https://kep.k8s.io/4265"},
	}
	cache := map[string]*knowledge.Corpus{}
	for _, tt := range tests {
		c := cache[tt.doc]
		if c == nil {
			c = parseSeed(t, tt.doc)
			cache[tt.doc] = c
		}
		m := mentionAt(t, c, tt.kep, tt.line)
		got := []any{m.Line, m.Stage, m.SIG, m.FeatureGates, m.Section, m.Link, m.Source, m.Release}
		want := []any{tt.line, tt.stage, tt.sig, tt.gates, headingAt(t, readSeed(t, tt.doc), tt.sectionLine), tt.link, tt.doc, c.Releases[0].Version}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s KEP-%d line %d: (line, stage, sig, gates, section, link, source, release) (-want +got):\n%s", tt.doc, tt.kep, tt.line, diff)
		}
		if m.Title == "" || m.Text == "" {
			t.Errorf("%s KEP-%d line %d: empty title or text", tt.doc, tt.kep, tt.line)
		}
	}
}

// TestParseSeed130GAFromLinksOnly checks that 1.30's GA list, whose lines
// carry no KEP number in their text, gets its numbers from the links.
func TestParseSeed130GAFromLinksOnly(t *testing.T) {
	data := readSeed(t, seed130)
	c := parseSeed(t, seed130)
	lines := strings.Split(string(data), "\n")
	listed := 0
	for i := 41; i < 58; i++ { // lines 42-58: the GA list
		l := lines[i]
		if !strings.HasPrefix(l, "- ") {
			continue
		}
		listed++
		if strings.Contains(strings.ToUpper(l), "KEP-") {
			t.Fatalf("line %d names a KEP in its text; this test expects links only", i+1)
		}
		n := kepFromURL(l)
		found := false
		for _, m := range c.Mentions {
			found = found || (m.KEP == n && m.Stage == knowledge.StageStable && strings.HasSuffix(m.Link, "/"+strconv.Itoa(n)))
		}
		if n == 0 || !found {
			t.Errorf("line %d: KEP %d from its link is not a stable mention with that link", i+1, n)
		}
	}
	if listed != 17 {
		t.Errorf("the GA list has %d entries, want 17", listed)
	}
}
