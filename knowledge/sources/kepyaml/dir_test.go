package kepyaml

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// The shared snapshot of kubernetes/enhancements read once per test binary.
var (
	sharedOnce sync.Once
	sharedRes  *Result
	sharedErr  error
)

func enhancements(t testing.TB) string {
	t.Helper()
	return sharedtest.Path(t, "data", "enhancements")
}

func loadShared(t testing.TB) *Result {
	t.Helper()
	dir := enhancements(t)
	sharedOnce.Do(func() { sharedRes, sharedErr = LoadDir(dir, Limits{}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedRes
}

func kepByNumber(t *testing.T, c *knowledge.Corpus, n int) knowledge.KEP {
	t.Helper()
	var found []knowledge.KEP
	for _, k := range c.KEPs {
		if k.Number == n {
			found = append(found, k)
		}
	}
	if len(found) != 1 {
		t.Fatalf("KEP-%d is in the corpus %d times; want once", n, len(found))
	}
	return found[0]
}

func TestReadDirCounts(t *testing.T) {
	res := loadShared(t)
	r := res.Report
	if r.Files != 656 || r.KEPs != 650 || len(res.Corpus.KEPs) != 650 {
		t.Errorf("files %d, KEPs %d (%d in corpus); want 656 files read into 650 KEPs", r.Files, r.KEPs, len(res.Corpus.KEPs))
	}
	wantSkips := map[string]int{KindDuplicate: 1, KindNoNumber: 1, KindPlaceholder: 4}
	if d := cmp.Diff(wantSkips, r.Skipped); d != "" {
		t.Errorf("skips by kind (-want +got):\n%s", d)
	}
	got := map[string]string{}
	for _, s := range res.Corpus.Skipped {
		got[s.Path] = strings.SplitN(s.Reason, ":", 2)[0]
	}
	want := map[string]string{
		"keps/NNNN-kep-template/kep.yaml":                                         KindNoNumber,
		"keps/sig-architecture/0000-kep-process/kep.yaml":                         KindPlaceholder,
		"keps/sig-cloud-provider/providers/0000-cloud-provider-template/kep.yaml": KindPlaceholder,
		"keps/sig-contributor-experience/0000-community-forum/kep.yaml":           KindPlaceholder,
		"keps/sig-release/0000-anago-to-krel-migration/kep.yaml":                  KindPlaceholder,
		"keps/sig-cloud-provider/2133-out-of-tree-credential-provider/kep.yaml":   KindDuplicate,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("skipped files (-want +got):\n%s", d)
	}
	m := r.Milestones
	if m.Read < 1100 || m.Placeholder == 0 || m.Empty == 0 || m.Multiple != 1 || m.NotAStage != 1 {
		t.Errorf("milestone stats %+v; want over 1100 read, some placeholders and empties, one with two releases, one disabled key", m)
	}
	t.Logf("%s", r)
}

func TestReadDirFacts(t *testing.T) {
	res := loadShared(t)
	c := res.Corpus
	for _, tc := range []knowledge.KEP{
		{Number: 4639, Title: "OCI images as VolumeSource", SIG: "sig-node", Status: "implemented", Stage: knowledge.StageStable,
			Milestones:   map[string]knowledge.Version{"alpha": v("1.31"), "beta": v("1.34"), "stable": v("1.36")},
			FeatureGates: []string{"ImageVolume"}, Path: "keps/sig-node/4639-oci-volume-source"},
		{Number: 3866, Title: "Add an nftables-based kube-proxy backend", SIG: "sig-network", Status: "implemented", Stage: knowledge.StageStable,
			Milestones:   map[string]knowledge.Version{"alpha": v("1.29"), "beta": v("1.31"), "stable": v("1.33")},
			FeatureGates: []string{"NFTablesProxyMode"}, Path: "keps/sig-network/3866-nftables-proxy"},
		// Cluster API: a provisional sig-cluster-lifecycle KEP one folder deeper, with no stage, milestone or gate.
		{Number: 2495, Title: "Kubernetes Cluster Management API", SIG: "sig-cluster-lifecycle", Status: "provisional",
			Path: "keps/sig-cluster-lifecycle/clusterapi/2495-Kubernetes-Cluster-Management-API"},
		// 2133 twice: the sig-node KEP is kept, the replaced sig-cloud-provider one skipped.
		{Number: 2133, Title: "Kubelet Credential Providers", SIG: "sig-node", Status: "implemented", Stage: knowledge.StageStable,
			Milestones:   map[string]knowledge.Version{"alpha": v("1.20"), "beta": v("1.24"), "stable": v("1.26")},
			FeatureGates: []string{"KubeletCredentialProviders"}, Path: "keps/sig-node/2133-kubelet-credential-providers"},
		// kep-number says 1884; the folder (the tracking issue) says 2043.
		{Number: 2043, Title: "Kubelet endpoint for pod resource assignment", SIG: "sig-node", Status: "implementable", Stage: knowledge.StageStable,
			Milestones:   map[string]knowledge.Version{"alpha": v("1.13"), "beta": v("1.15"), "stable": v("1.21")},
			FeatureGates: []string{"KubeletPodResources"}, Path: "keps/sig-node/2043-pod-resource-concrete-assigments"},
		// alpha "v1.21, v1.37": the earliest is taken.
		{Number: 1432, Title: "Volume Health Monitor", SIG: "sig-storage", Status: "implementable", Stage: knowledge.StageAlpha,
			Milestones:   map[string]knowledge.Version{"alpha": v("1.21"), "beta": v("1.39"), "stable": v("1.41")},
			FeatureGates: []string{"CSIVolumeHealth"}, Path: "keps/sig-storage/1432-volume-health-monitor"},
		// stable "never": no stable milestone; removed stage.
		{Number: 281, Title: "Dynamic Kubelet Configuration", SIG: "sig-node", Status: "removed", Stage: knowledge.StageRemoved,
			Milestones:   map[string]knowledge.Version{"alpha": v("1.8"), "beta": v("1.11"), "deprecated": v("1.22"), "removed": v("1.24")},
			FeatureGates: []string{"DynamicKubeletConfig"}, Path: "keps/sig-node/281-dynamic-kubelet-configuration"},
	} {
		tc.Source = SourceID
		if d := cmp.Diff(tc, kepByNumber(t, c, tc.Number)); d != "" {
			t.Errorf("KEP-%d (-want +got):\n%s", tc.Number, d)
		}
	}
	for _, n := range []int{0, 1884} {
		for _, k := range c.KEPs {
			if k.Number == n {
				t.Errorf("KEP-%d is in the corpus (%s); want it left out", n, k.Path)
			}
		}
	}
	if got := res.LatestMilestones[4639]; got != v("1.36") {
		t.Errorf("latest milestone of KEP-4639 = %v; want 1.36", got)
	}
	if _, ok := res.LatestMilestones[1152]; ok {
		t.Errorf("KEP-1152's latest-milestone '0.0' was read as a release")
	}
}

// TestReadDirInvariants checks what every KEP of the corpus must hold.
func TestReadDirInvariants(t *testing.T) {
	c := loadShared(t).Corpus
	seen := map[int]bool{}
	for _, k := range c.KEPs {
		if k.Number <= 0 || seen[k.Number] {
			t.Errorf("KEP number %d (%s) is not positive or not unique", k.Number, k.Path)
		}
		seen[k.Number] = true
		if k.Source != SourceID || !strings.HasPrefix(k.Path, "keps/") || k.Title == "" || k.SIG == "" {
			t.Errorf("KEP-%d: source %q, path %q, title %q, sig %q", k.Number, k.Source, k.Path, k.Title, k.SIG)
		}
		for name, ver := range k.Milestones {
			if st, err := knowledge.ParseStage(name); err != nil || st.String() != name || ver.IsZero() {
				t.Errorf("KEP-%d: milestone %q = %v", k.Number, name, ver)
			}
		}
	}
}

// TestReadDirSource: the checkout's date is its commit's, as its SOURCE.md
// says, whatever the files' modification times.
func TestReadDirSource(t *testing.T) {
	dir := enhancements(t)
	c := loadShared(t).Corpus
	want := []knowledge.Source{{ID: SourceID, Name: "kubernetes/enhancements kep.yaml", Kind: knowledge.SourceKEPYAML,
		AsOf: "2026-07-24", Commit: "64765b4b02389318f2113119dd9e491479f978a0", Path: dir, URL: "https://github.com/kubernetes/enhancements"}}
	if d := cmp.Diff(want, c.Sources); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
}

// TestReadDirStampWithoutSourceMD: a git checkout names its commit in
// .git/HEAD (directly, through a loose ref or a packed one); its date is
// unknown, and file times, however new, never stand in for it.
func TestReadDirStampWithoutSourceMD(t *testing.T) {
	const sha = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"detached head", map[string]string{".git/HEAD": sha + "\n"}, sha},
		{"loose ref", map[string]string{".git/HEAD": "ref: refs/heads/master\n", ".git/refs/heads/master": sha + "\n"}, sha},
		{"packed ref", map[string]string{".git/HEAD": "ref: refs/heads/master\n", ".git/packed-refs": "# pack-refs with: peeled\n" + sha + " refs/heads/master\n"}, sha},
		{"a ref climbing out", map[string]string{".git/HEAD": "ref: refs/../../../etc/passwd\n"}, ""},
		{"no git", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"keps/sig-node/10-a/kep.yaml": "title: A\nkep-number: 10\nowning-sig: sig-node\n"}
			for k, v := range tt.files {
				files[k] = v
			}
			future := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
			for name, body := range files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, future, future); err != nil {
					t.Fatal(err)
				}
			}
			res, err := LoadDir(dir, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if src := res.Corpus.Sources[0]; src.Commit != tt.want || src.AsOf != "" {
				t.Errorf("commit %q as of %q; want %q and no date", src.Commit, src.AsOf, tt.want)
			}
		})
	}
}

// TestReadDirKepsFolder reads the keps folder itself: the same KEPs.
func TestReadDirKepsFolder(t *testing.T) {
	c, err := ReadDir(filepath.Join(enhancements(t), "keps"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(loadShared(t).Corpus.KEPs, c.KEPs); d != "" {
		t.Errorf("KEPs differ (-root +keps):\n%s", d)
	}
}

// TestReadDirCompiles feeds the corpus to knowledge.Compile.
func TestReadDirCompiles(t *testing.T) {
	k := knowledge.Compile(loadShared(t).Corpus)
	if len(k.KEPs) != 650 || len(k.Skipped) != 6 {
		t.Errorf("compiled %d KEPs, %d skips; want 650 and 6", len(k.KEPs), len(k.Skipped))
	}
}

// writeFile creates a file under dir, making its folders.
func writeFile(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadDirHostile builds a folder at test time (no kep.yaml is ever
// committed): a symlinked kep.yaml, a 100 MB sparse one, one outside keps/,
// one in .git, a broken one and a good one.
func TestReadDirHostile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "keps/sig-node/10-good/kep.yaml", doc("stage: beta\n"))
	writeFile(t, dir, "keps/sig-node/11-broken/kep.yaml", "title: [unclosed\n")
	writeFile(t, dir, "pkg/testdata/12-fixture/kep.yaml", doc(""))
	writeFile(t, dir, ".git/keps/sig-x/13-hidden/kep.yaml", doc(""))
	if err := os.MkdirAll(filepath.Join(dir, "keps/sig-node/14-link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "keps/sig-node/14-link/kep.yaml")); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "keps/sig-node/15-big/kep.yaml")
	writeFile(t, dir, "keps/sig-node/15-big/kep.yaml", "")
	if err := os.Truncate(big, 100<<20); err != nil { // sparse: 100 MB without the disk
		t.Fatal(err)
	}
	res, err := LoadDir(dir, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Corpus.KEPs) != 1 || res.Corpus.KEPs[0].Number != 10 {
		t.Errorf("KEPs %+v; want KEP-10 alone", res.Corpus.KEPs)
	}
	got := map[string]string{}
	for _, s := range res.Corpus.Skipped {
		got[s.Path] = s.Reason
	}
	for path, says := range map[string]string{
		"keps/sig-node/11-broken/kep.yaml": KindNotYAML + ": ",
		"pkg/testdata/12-fixture/kep.yaml": KindOutside + ": ",
		"keps/sig-node/14-link/kep.yaml":   KindLink + ": a symlink",
		"keps/sig-node/15-big/kep.yaml":    KindTooLarge + ": 104857600 bytes, over the limit of 262144; not read",
	} {
		if !strings.HasPrefix(got[path], says) {
			t.Errorf("skip of %s = %q; want it to start %q", path, got[path], says)
		}
	}
	if len(got) != 4 || res.Report.Files != 5 {
		t.Errorf("skips %v of %d files; want 4 of 5", got, res.Report.Files)
	}
}

func TestReadDirRefusals(t *testing.T) {
	empty := t.TempDir()
	writeFile(t, empty, "README.md", "not a KEP")
	for name, tc := range map[string]struct {
		dir  string
		lim  Limits
		says string
	}{
		"missing":      {filepath.Join(empty, "nope"), Limits{}, "no such file"},
		"no kep.yaml":  {empty, Limits{}, "found no keps/**/kep.yaml"},
		"many entries": {enhancements(t), Limits{MaxEntries: 100}, "more than 100 entries"},
		"many bytes":   {enhancements(t), Limits{MaxTotalBytes: 10_000}, "over the limit of 10000"},
	} {
		_, err := LoadDir(tc.dir, tc.lim)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err = %v; want one saying %q", name, err, tc.says)
		}
	}
	if _, err := LoadDir(filepath.Join(empty, "nope"), Limits{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing folder: %v does not wrap fs.ErrNotExist", err)
	}
}

func BenchmarkReadDir(b *testing.B) {
	dir := enhancements(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadDir(dir); err != nil {
			b.Fatal(err)
		}
	}
}
