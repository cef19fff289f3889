package featuregates

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

func loadShared(t testing.TB) *knowledge.Corpus {
	t.Helper()
	c, err := LoadDir(sharedtest.Path(t, "data", "feature-gates"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCountsPerRelease checks how many gates each release declares
// against counts measured on the raw files apart from this parser: up to
// 1.31, the distinct keys of the map[featuregate.Feature]featuregate.FeatureSpec
// literals of every module (relisted keys such as genericfeatures.X counted
// once); from 1.32, the gates of versioned_feature_list.yaml (with the
// three of 1.32's unversioned list) plus client-go's known_features.go;
// kubeadm's InitFeatureGates apart.
func TestCountsPerRelease(t *testing.T) {
	c := loadShared(t)
	want := map[string][2]int{ // release: components' gates, kubeadm's
		"1.19": {105, 2}, "1.20": {117, 2}, "1.21": {124, 2}, "1.22": {127, 3}, "1.23": {138, 4},
		"1.24": {138, 3}, "1.25": {140, 3}, "1.26": {145, 2}, "1.27": {145, 3}, "1.28": {149, 4},
		"1.29": {158, 4}, "1.30": {164, 5}, "1.31": {164, 5},
		"1.32": {169 + 3 + 4, 6}, "1.33": {184 + 5, 5}, "1.34": {200 + 5, 5}, "1.35": {210 + 6, 4},
		"1.36": {230 + 10, 3}, "1.37": {242 + 10, 1},
	}
	if len(c.Skipped) != 0 {
		t.Errorf("skipped %v; want every file read", c.Skipped)
	}
	if len(c.GateTables) != len(want) || len(c.Sources) != len(want) {
		t.Fatalf("%d tables, %d sources; want one each for the %d releases 1.19-1.37", len(c.GateTables), len(c.Sources), len(want))
	}
	for i, tb := range c.GateTables {
		n, k := 0, 0
		for _, g := range tb.Gates {
			if g.Kubeadm() {
				k++
			} else {
				n++
			}
		}
		if got := [2]int{n, k}; got != want[tb.Release.String()] {
			t.Errorf("%s: %d gates and %d of kubeadm; want %v", tb.Release, n, k, want[tb.Release.String()])
		}
		if c.Sources[i].ID != tb.Source || tb.Source != "feature-gates/"+tb.Release.String() {
			t.Errorf("%s: source %q, table's %q", tb.Release, c.Sources[i].ID, tb.Source)
		}
	}
	// dated by k8s.io/kubernetes' tag of the release in VERSIONS.tsv
	for _, tc := range []struct {
		i         int
		day, name string
	}{
		{0, "2020-08-26", "Kubernetes 1.19 code: feature gates (k8s.io/kubernetes v1.19.0)"},
		{15, "2025-08-27", "Kubernetes 1.34 code: feature gates (k8s.io/kubernetes v1.34.0)"},
		{18, "2026-08-26", "Kubernetes 1.37 code: feature gates (k8s.io/kubernetes v1.37.0)"},
	} {
		if s := c.Sources[tc.i]; s.AsOf != tc.day || s.Name != tc.name || s.Kind != knowledge.SourceFeatureGates {
			t.Errorf("source %d: %+v; want %s as of %s", tc.i, s, tc.name, tc.day)
		}
	}
	// controller-manager v0.27.0 is not on the proxy, so 1.27 read it not;
	// client-go has a features package from 1.30, and was read from 1.19.
	if comps := strings.Join(c.GateTables[8].Components, " "); strings.Contains(comps, ControllerMgrModule) || !strings.Contains(comps, ClientGoModule) {
		t.Errorf("1.27 components %s; want client-go and no controller-manager", comps)
	}
}

// TestTwentyGates checks twenty gates release by release against the raw
// files, each row read by hand from the Go maps and the generated lists
// (releases not named do not declare the gate).
func TestTwentyGates(t *testing.T) {
	c := loadShared(t)
	for _, tc := range []struct{ name, component, want string }{
		{"UserNamespacesSupport", KubernetesModule, "1.28-1.29 alpha off; 1.30-1.32 beta off; 1.33-1.35 beta on; 1.36-1.37 GA on locked"},
		{"UserNamespacesStatelessPodsSupport", KubernetesModule, "1.25-1.27 alpha off"},
		{"ImageVolume", KubernetesModule, "1.31-1.32 alpha off; 1.33-1.34 beta off; 1.35 beta on; 1.36-1.37 GA on locked"},
		// a default that flips inside beta
		{"WatchList", APIServerModule, "1.27-1.31 alpha off; 1.32 beta on; 1.33 beta off; 1.34-1.37 beta on"},
		{"SidecarContainers", KubernetesModule, "1.28 alpha off; 1.29-1.32 beta on; 1.33-1.36 GA on locked"},
		{"InPlacePodVerticalScalingAllocatedStatus", KubernetesModule, "1.32 alpha off; 1.33-1.35 deprecated off"},
		// the generated list names it by its Go constant, CPUCFSQuotaPeriod
		{"CustomCPUCFSQuotaPeriod", KubernetesModule, "1.19-1.35 alpha off; 1.36-1.37 GA on"},
		{"RuntimeClassInImageCriApi", KubernetesModule, "1.29-1.37 alpha off"},
		// two 1.37 specs: the second needs --min-compatibility-version 1.37
		{"DRAFractionalCapacityRange", KubernetesModule, "1.37 beta off"},
		// 1.31's code says beta, on; 1.32's list later says 1.31 was deprecated: what shipped wins
		{"DisableNodeKubeProxyVersion", KubernetesModule, "1.29-1.30 alpha off; 1.31 beta on; 1.32 deprecated off; 1.33-1.35 deprecated on; 1.36-1.37 deprecated on locked"},
		// a default written as a constant (contextualLoggingDefault)
		{"ContextualLogging", ComponentBaseModule, "1.24-1.29 alpha off; 1.30-1.37 beta on"},
		{"IPv6DualStack", ControllerMgrModule, "1.19-1.20 alpha off; 1.21-1.22 beta on; 1.23-1.26 GA on locked"},
		{"IPv6DualStack", knowledge.ComponentKubeadm, "1.19-1.20 alpha off; 1.21-1.22 beta on; 1.23 GA on locked"},
		{"RootlessControlPlane", knowledge.ComponentKubeadm, "1.22-1.37 alpha off"},
		{"WatchListClient", ClientGoModule, "1.30-1.34 beta off; 1.35-1.37 beta on"},
		{"CloudControllerManagerWebhook", ControllerMgrModule, "1.27-1.37 alpha off"},
		{"CRDValidationRatcheting", APIExtensionsModule, "1.28-1.29 alpha off; 1.30-1.32 beta on; 1.33-1.37 GA on locked"},
		{"AppArmor", KubernetesModule, "1.19-1.30 beta on; 1.31-1.32 GA on locked"},
		{"ComponentFlagz", ComponentBaseModule, "1.32-1.35 alpha off; 1.36-1.37 beta on"},
		{"DynamicResourceAllocation", KubernetesModule, "1.26-1.31 alpha off; 1.32-1.33 beta off; 1.34 GA on; 1.35-1.37 GA on locked"},
		// a gate born deprecated; the 1.33 list's synthetic "1.0 GA" spec
		// comes before it
		{"KMSv1", APIServerModule, "1.28 deprecated on; 1.29-1.37 deprecated off"},
	} {
		got, comp := spans(c, tc.name, tc.component == knowledge.ComponentKubeadm)
		if got != tc.want {
			t.Errorf("%s (%s):\n got %s\nwant %s", tc.name, tc.component, got, tc.want)
		}
		if comp != tc.component {
			t.Errorf("%s: declared by %s in its newest release; want %s", tc.name, comp, tc.component)
		}
	}
}

// spans writes a gate's declarations release by release, runs of equal
// ones joined: "1.28-1.29 alpha off; 1.30 beta on locked"; and the
// component its newest declaration names.
func spans(c *knowledge.Corpus, name string, kubeadm bool) (string, string) {
	var parts []string
	var from, last knowledge.Version
	var cur string
	comp := ""
	flush := func() {
		if cur == "" {
			return
		}
		r := from.String()
		if last != from {
			r += "-" + last.String()
		}
		parts = append(parts, r+" "+cur)
	}
	for _, tb := range c.GateTables {
		var d *knowledge.GateDecl
		for i := range tb.Gates {
			if tb.Gates[i].Name == name && tb.Gates[i].Kubeadm() == kubeadm {
				d = &tb.Gates[i]
			}
		}
		if d == nil {
			flush()
			cur = ""
			continue
		}
		if d.Component != "" {
			comp = d.Component
		}
		w := d.Stage.Label() + map[bool]string{true: " on", false: " off"}[d.Default]
		if d.Locked {
			w += " locked"
		}
		if w != cur || tb.Release != last.Next() {
			flush()
			from, cur = tb.Release, w
		}
		last = tb.Release
	}
	flush()
	return strings.Join(parts, "; "), comp
}

// TestGeneratedListAgreesWithGoMaps reads 1.33-1.37, whose Go code holds
// every server gate's versioned specs too, once from the generated list and
// once from the Go maps alone: the two must declare the same gates the same
// way.
func TestGeneratedListAgreesWithGoMaps(t *testing.T) {
	root := sharedtest.Path(t, "data", "feature-gates")
	for minor := 33; minor <= 37; minor++ {
		v := knowledge.Version{Major: 1, Minor: minor}
		files := releaseFiles(t, root, v)
		fromList, s1 := build(v, "list", nil, files, true)
		fromGo, s2 := build(v, "go", nil, files, false)
		if len(s1)+len(s2) > 0 {
			t.Errorf("%s: skipped %v %v", v, s1, s2)
		}
		a, b := map[string]knowledge.GateDecl{}, map[string]knowledge.GateDecl{}
		for _, d := range fromList.Gates {
			a[key(d)] = d
		}
		for _, d := range fromGo.Gates {
			b[key(d)] = d
		}
		if len(a) != len(b) {
			t.Errorf("%s: %d gates from the list, %d from the Go maps", v, len(a), len(b))
		}
		for k, d := range a {
			if g, ok := b[k]; !ok || g.GateSpec != d.GateSpec {
				t.Errorf("%s: %s is %+v in the list, %+v (declared: %t) in the Go maps", v, d.Name, d.GateSpec, g.GateSpec, ok)
			}
		}
	}
}

func releaseFiles(t *testing.T, root string, v knowledge.Version) []File {
	t.Helper()
	var files []File
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		module := moduleOfDir(d.Name())
		if module == "" {
			continue
		}
		base := filepath.Join(root, d.Name(), "release-"+v.String())
		_ = filepath.WalkDir(base, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(base, p)
			rel = filepath.ToSlash(rel)
			if Wanted(module, rel) {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, File{Module: module, Path: rel, Data: data})
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Fatalf("no files of %s under %s", v, root)
	}
	return files
}

func ExampleSourceID() {
	fmt.Println(SourceID(knowledge.MustVersion("1.34")))
	// Output: feature-gates/1.34
}
