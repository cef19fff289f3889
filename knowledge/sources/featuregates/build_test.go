package featuregates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

var v = knowledge.MustVersion

const kubeGo = `package features

import (
	genericfeatures "k8s.io/apiserver/pkg/features"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/component-base/featuregate"
)

const (
	Plain featuregate.Feature = "Plain"
	Renamed featuregate.Feature = "RenamedGate"
	Untyped = "Untyped"
	Called = featuregate.Feature("Called")
	onByDefault = true
)

var defaultKubernetesFeatureGates = map[featuregate.Feature]featuregate.FeatureSpec{
	Plain:    {Default: false, PreRelease: featuregate.Alpha},
	Renamed:  {Default: onByDefault, PreRelease: featuregate.Beta},
	Untyped:  {Default: true, PreRelease: featuregate.GA, LockToDefault: true},
	Called:   {Default: true}, // no PreRelease: GA
	genericfeatures.Shared: {Default: true, PreRelease: featuregate.Beta},
}

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	Later: {
		{Version: version.MustParse("1.30"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.31"), Default: true, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.31"), Default: false, PreRelease: featuregate.Beta},
	},
	Compat: {
		{Version: version.MustParse("1.31"), Default: false, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.31"), Default: true, PreRelease: featuregate.Beta, MinCompatibilityVersion: version.MustParse("1.31")},
	},
	Future: {
		{Version: version.MustParse("1.40"), Default: false, PreRelease: featuregate.Alpha},
	},
}

var dependencies = map[featuregate.Feature][]featuregate.Feature{
	Plain: {Later},
}
`

const apiserverGo = `package features

import "k8s.io/component-base/featuregate"

const Shared featuregate.Feature = "Shared"

var defaultKubernetesFeatureGates = map[featuregate.Feature]featuregate.FeatureSpec{
	Shared: {Default: true, PreRelease: featuregate.Beta},
}
`

const kubeadmGo = `package features

import "k8s.io/component-base/featuregate"

const (
	Plain = "Plain"
)

var InitFeatureGates = FeatureList{
	Plain: {FeatureSpec: featuregate.FeatureSpec{Default: true, PreRelease: featuregate.Deprecated}, DeprecationMessage: "gone soon"},
}
`

func TestBuildGo(t *testing.T) {
	files := []File{
		{Module: KubernetesModule, Path: "pkg/features/kube_features.go", Data: []byte(kubeGo)},
		{Module: APIServerModule, Path: "pkg/features/kube_features.go", Data: []byte(apiserverGo)},
		{Module: KubernetesModule, Path: "cmd/kubeadm/app/features/features.go", Data: []byte(kubeadmGo)},
	}
	tb, skips := Build(v("1.31"), "s", []string{KubernetesModule, APIServerModule}, files)
	if len(skips) != 0 {
		t.Errorf("skips %v", skips)
	}
	spec := func(s knowledge.GateStage, def, locked bool) knowledge.GateSpec {
		return knowledge.GateSpec{Stage: s, Default: def, Locked: locked}
	}
	kube := []string{KubernetesModule}
	want := []knowledge.GateDecl{
		{Name: "Called", Component: KubernetesModule, Modules: kube, GateSpec: spec(knowledge.GateGA, true, false)},
		// its MinCompatibilityVersion spec needs --min-compatibility-version 1.31
		{Name: "Compat", Component: KubernetesModule, Modules: kube, GateSpec: spec(knowledge.GateBeta, false, false)},
		// of two 1.31 specs the later listed holds; Future (1.40) is not available
		{Name: "Later", Component: KubernetesModule, Modules: kube, GateSpec: spec(knowledge.GateBeta, false, false)},
		{Name: "Plain", Component: KubernetesModule, Modules: kube, GateSpec: spec(knowledge.GateAlpha, false, false)},
		{Name: "Plain", Component: knowledge.ComponentKubeadm, GateSpec: spec(knowledge.GateDeprecated, true, false)},
		{Name: "RenamedGate", Constant: "Renamed", Component: KubernetesModule, Modules: kube, GateSpec: spec(knowledge.GateBeta, true, false)},
		// relisted by k8s.io/kubernetes, declared by k8s.io/apiserver: both declare it
		{Name: "Shared", Component: APIServerModule, Modules: []string{APIServerModule, KubernetesModule}, GateSpec: spec(knowledge.GateBeta, true, false)},
		{Name: "Untyped", Component: KubernetesModule, Modules: kube, GateSpec: spec(knowledge.GateGA, true, true)},
	}
	if d := cmp.Diff(want, tb.Gates); d != "" {
		t.Errorf("gates (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{APIServerModule, KubernetesModule, knowledge.ComponentKubeadm}, tb.Components); d != "" {
		t.Errorf("components (-want +got):\n%s", d)
	}
	tb, _ = Build(v("1.30"), "s", nil, files[:1])
	for _, g := range tb.Gates {
		if g.Name == "Later" && g.Stage != knowledge.GateAlpha || g.Name == "Compat" {
			t.Errorf("1.30: %+v; want Later alpha and no Compat", g)
		}
	}
}

const list = `- name: CPUCFSQuotaPeriod
  versionedSpecs:
  - default: false
    lockToDefault: false
    preRelease: Alpha
    version: "1.12"
- name: Flips
  versionedSpecs:
  - default: false
    lockToDefault: false
    preRelease: Alpha
    version: "1.27"
  - default: true
    lockToDefault: false
    preRelease: Beta
    version: "1.32"
  - default: false
    lockToDefault: false
    preRelease: Beta
    version: "1.33"
- name: Retired
  versionedSpecs:
  - default: true
    lockToDefault: false
    preRelease: GA
    version: "1.0"
  - default: false
    lockToDefault: false
    preRelease: Deprecated
    version: "1.29"
`

const constantsGo = `package features

import "k8s.io/component-base/featuregate"

const (
	CPUCFSQuotaPeriod featuregate.Feature = "CustomCPUCFSQuotaPeriod"
	Flips featuregate.Feature = "Flips"
)
`

const clientGo = `package features

const ClientThing Feature = "ClientThing"

var defaultKubernetesFeatureGates = map[Feature]FeatureSpec{
	ClientThing: {Default: false, PreRelease: Beta},
}
`

func TestBuildList(t *testing.T) {
	files := []File{
		{Module: KubernetesModule, Path: "pkg/features/kube_features.go", Data: []byte(constantsGo)},
		{Module: KubernetesModule, Path: "test/compatibility_lifecycle/reference/versioned_feature_list.yaml", Data: []byte(list)},
		{Module: KubernetesModule, Path: "test/compatibility_lifecycle/reference/unversioned_feature_list.yaml", Data: []byte("[]\n")},
		{Module: ClientGoModule, Path: "features/known_features.go", Data: []byte(clientGo)},
	}
	tb, skips := Build(v("1.33"), "s", []string{KubernetesModule, ClientGoModule}, files)
	if len(skips) != 0 {
		t.Errorf("skips %v", skips)
	}
	var got []string
	for _, g := range tb.Gates {
		got = append(got, g.Name+" "+g.Component+" "+specWords(g.GateSpec))
	}
	want := []string{
		"ClientThing k8s.io/client-go beta, default false",
		// the list names it by its Go constant; users set the constant's string
		"CustomCPUCFSQuotaPeriod k8s.io/kubernetes alpha, default false",
		"Flips k8s.io/kubernetes beta, default false",
		// no constant in the files read: the module is not known
		"Retired  deprecated, default false",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("gates (-want +got):\n%s", d)
	}
	// the list covers the server modules, whether their folders were read or not
	if !strings.Contains(strings.Join(tb.Components, " "), ControllerMgrModule) {
		t.Errorf("components %v; want the modules the generated list covers", tb.Components)
	}
}

// TestBuildReadsAroundWhatItCannot: a file that is not Go, a list that is
// not a list, an entry whose spec is a variable or whose stage is unknown:
// each is a Skip naming the file, and the rest is read.
func TestBuildReadsAroundWhatItCannot(t *testing.T) {
	bad := `package features

import "k8s.io/component-base/featuregate"

const (
	Good featuregate.Feature = "Good"
	Odd featuregate.Feature = "Odd"
	Weird featuregate.Feature = "Weird"
)

var spec = featuregate.FeatureSpec{}

var gates = map[featuregate.Feature]featuregate.FeatureSpec{
	Good:  {Default: true, PreRelease: featuregate.Beta},
	Odd:   spec,
	Weird: {Default: maybe(), PreRelease: featuregate.Gamma},
}
`
	files := []File{
		{Module: KubernetesModule, Path: "pkg/features/kube_features.go", Data: []byte(bad)},
		{Module: APIServerModule, Path: "pkg/features/kube_features.go", Data: []byte("package features\nvar x = {")},
		{Module: KubernetesModule, Path: "test/compatibility_lifecycle/reference/versioned_feature_list.yaml", Data: []byte("name: [unclosed")},
		{Module: KubernetesModule, Path: "test/compatibility_lifecycle/reference/unversioned_feature_list.yaml", Data: []byte("- name: NoSpecs\n- versionedSpecs: []\n- name: BadStage\n  versionedSpecs:\n  - default: true\n    preRelease: Gamma\n    version: \"1.2\"\n")},
	}
	tb, skips := Build(v("1.30"), "s", nil, files)
	var reasons []string
	for _, s := range skips {
		if s.Source != "s" {
			t.Errorf("skip %+v names no source", s)
		}
		reasons = append(reasons, s.Path+": "+s.Reason)
	}
	all := strings.Join(reasons, "\n")
	for _, want := range []string{"gate Odd: its spec is not written out", "gate Weird: Default is not true, false", "k8s.io/apiserver/pkg/features/kube_features.go: not Go source",
		"versioned_feature_list.yaml: not a list of feature gates", "gate NoSpecs: no versioned spec", "gate 2 has no name", `preRelease "Gamma"`} {
		if !strings.Contains(all, want) {
			t.Errorf("skips do not say %q:\n%s", want, all)
		}
	}
	if len(tb.Gates) != 0 {
		t.Errorf("gates %+v; want none: a generated list was given (though unreadable), so the Go maps only name modules", tb.Gates)
	}
	// without the lists, the good entry of the Go map is read
	tb, _ = Build(v("1.30"), "s", nil, files[:2])
	if len(tb.Gates) != 1 || tb.Gates[0].Name != "Good" {
		t.Errorf("gates %+v; want Good alone", tb.Gates)
	}
}

func TestParseVersions(t *testing.T) {
	vs, skips := parseVersions([]byte("module\tversion\ttag_time\nk8s.io/kubernetes\tv1.34.0\t2025-08-27T10:09:04Z\nk8s.io/client-go\tv0.34.0\t2025-08-27T20:02:19Z\nbad line\nk8s.io/x\tvX\t2025-01-01T00:00:00Z\nk8s.io/y\tv0.1.0\tyesterday\n"))
	if got := vs[KubernetesModule][v("1.34")]; got != (tagged{version: "v1.34.0", day: "2025-08-27"}) {
		t.Errorf("kubernetes 1.34: %+v", got)
	}
	if got := vs[ClientGoModule][v("1.34")]; got.version != "v0.34.0" {
		t.Errorf("client-go 1.34: %+v", got)
	}
	if len(skips) != 3 {
		t.Errorf("skips %v; want the three bad rows", skips)
	}
}

func TestIsGatePlaceholder(t *testing.T) {
	for _, s := range []string{"None", "NA", "n/a", "TBD", "-", " none ", "\"TBD\""} {
		if !knowledge.IsGatePlaceholder(s) {
			t.Errorf("%q is a placeholder", s)
		}
	}
	for _, s := range []string{"ImageVolume", "NodeSwap", "NAT64", "Nonexistent"} {
		if knowledge.IsGatePlaceholder(s) {
			t.Errorf("%q is a gate name", s)
		}
	}
}
