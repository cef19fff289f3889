package knowledge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestCompileGates(t *testing.T) {
	spec := func(s GateStage, def, locked bool) GateSpec { return GateSpec{Stage: s, Default: def, Locked: locked} }
	kube, cm := "k8s.io/kubernetes", "k8s.io/controller-manager"
	tables := []GateTable{
		{Release: MustVersion("1.23"), Source: "a", Components: []string{kube, cm, ComponentKubeadm}, Gates: []GateDecl{
			{Name: "Old", Component: kube, GateSpec: spec(GateBeta, true, false)},
			{Name: "csiThing", Component: kube, GateSpec: spec(GateAlpha, false, false)},
			{Name: "Both", Component: kube, GateSpec: spec(GateGA, true, true)},
			{Name: "Both", Component: ComponentKubeadm, GateSpec: spec(GateGA, true, true)},
			{Name: "CM", Component: cm, GateSpec: spec(GateGA, true, true)},
		}},
		{Release: MustVersion("1.24"), Source: "b", Components: []string{kube, ComponentKubeadm}, Gates: []GateDecl{
			{Name: "CSIThing", Component: kube, GateSpec: spec(GateBeta, true, false)},
			{Name: "Both", Component: ComponentKubeadm, GateSpec: spec(GateGA, true, true)},
			{Name: "New", Component: kube, GateSpec: spec(GateAlpha, false, false)},
		}},
		// 1.25's modules fetched apart: two tables join
		{Release: MustVersion("1.25"), Source: "c1", Components: []string{kube}, Gates: []GateDecl{
			{Name: "New", Component: kube, GateSpec: spec(GateBeta, false, false)},
		}},
		{Release: MustVersion("1.25"), Source: "c2", Components: []string{cm, ComponentKubeadm}},
	}
	gates, reads := compileGates(tables)
	if len(reads) != 3 || cmp.Diff([]string{cm, kube, ComponentKubeadm}, reads[2].Components) != "" || cmp.Diff([]string{"c1", "c2"}, reads[2].Sources) != "" {
		t.Errorf("reads %+v", reads)
	}
	byName := map[string]FeatureGate{}
	for _, g := range gates {
		byName[GateKey(g.Name, g.Kubeadm)] = g
	}
	r := func(v string, s GateSpec) GateRelease { return GateRelease{Release: MustVersion(v), GateSpec: s} }
	for _, tc := range []struct {
		key  string
		want FeatureGate
	}{
		// declared by the oldest release read: introduced unknown; gone in 1.24
		{"old", FeatureGate{Name: "Old", Components: []string{kube}, Releases: []GateRelease{r("1.23", spec(GateBeta, true, false))}, RemovedIn: MustVersion("1.24"), RemovedBy: MustVersion("1.24")}},
		// one gate in any case; each release's own spelling kept where it differs
		{"csithing", FeatureGate{Name: "CSIThing", Components: []string{kube}, Releases: []GateRelease{
			{Release: MustVersion("1.23"), GateSpec: spec(GateAlpha, false, false), Spelling: "csiThing"}, r("1.24", spec(GateBeta, true, false))},
			RemovedIn: MustVersion("1.25"), RemovedBy: MustVersion("1.25")}},
		{"both", FeatureGate{Name: "Both", Components: []string{kube}, Releases: []GateRelease{r("1.23", spec(GateGA, true, true))}, RemovedIn: MustVersion("1.24"), RemovedBy: MustVersion("1.24")}},
		{"kubeadm:both", FeatureGate{Name: "Both", Kubeadm: true, Components: []string{ComponentKubeadm}, Releases: []GateRelease{r("1.23", spec(GateGA, true, true)), r("1.24", spec(GateGA, true, true))}, RemovedIn: MustVersion("1.25"), RemovedBy: MustVersion("1.25")}},
		// 1.24 did not read k8s.io/controller-manager: removed in 1.24 or 1.25
		{"cm", FeatureGate{Name: "CM", Components: []string{cm}, Releases: []GateRelease{r("1.23", spec(GateGA, true, true))}, RemovedIn: MustVersion("1.24"), RemovedBy: MustVersion("1.25")}},
		{"new", FeatureGate{Name: "New", Components: []string{kube}, Releases: []GateRelease{r("1.24", spec(GateAlpha, false, false)), r("1.25", spec(GateBeta, false, false))}, Introduced: MustVersion("1.24")}},
	} {
		if d := cmp.Diff(tc.want, byName[tc.key], cmpopts.IgnoreFields(GateRelease{}, "Modules"), cmpopts.IgnoreFields(FeatureGate{}, "Modules")); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.key, d)
		}
	}
	if len(gates) != 6 {
		t.Errorf("%d gates; want 6", len(gates))
	}
}

// TestPlaceholdersAreNotGates: kep.yaml's None, NA, TBD and "-" name no gate.
func TestPlaceholdersAreNotGates(t *testing.T) {
	c := &Corpus{
		Sources: []Source{{ID: "y", Kind: SourceKEPYAML}},
		KEPs:    []KEP{{Number: 3314, Title: "KEP Template", Source: "y", FeatureGates: []string{"None"}}, {Number: 5304, Source: "y", FeatureGates: []string{"NA", "RealGate"}}},
	}
	k := Compile(c)
	if k.KEPs[0].FeatureGates != nil || cmp.Diff([]string{"RealGate"}, k.KEPs[1].FeatureGates) != "" {
		t.Errorf("gates %v and %v; want none and RealGate", k.KEPs[0].FeatureGates, k.KEPs[1].FeatureGates)
	}
}

// TestGateModules: a gate two modules declare is removed from each on its
// own; where a module's release after its last declaration was not read
// (k8s.io/controller-manager v0.27.0), that removal is a range, and so is
// the gate's; a component that does not register that module sees the
// other's removal alone. The generated list (Listed), which names no
// module, leaves a module that no longer declares a gate it names unknown.
func TestGateModules(t *testing.T) {
	kube, cm, api := "k8s.io/kubernetes", "k8s.io/controller-manager", "k8s.io/apiserver"
	ga := GateSpec{Stage: GateGA, Default: true, Locked: true}
	all := []string{kube, cm, api}
	tables := []GateTable{
		{Release: MustVersion("1.23"), Components: all, Gates: []GateDecl{
			{Name: "Dual", Component: cm, Modules: []string{cm, kube}, GateSpec: ga},
			{Name: "Moved", Component: api, Modules: []string{api, kube}, GateSpec: ga},
		}},
		{Release: MustVersion("1.24"), Components: all, Gates: []GateDecl{
			{Name: "Dual", Component: cm, Modules: []string{cm}, GateSpec: ga},
			{Name: "Moved", Component: api, Modules: []string{api}, GateSpec: ga},
			{Name: "Listed", Component: api, Modules: []string{api, kube}, GateSpec: ga},
		}},
		{Release: MustVersion("1.25"), Components: []string{kube, api}, Listed: true, Gates: []GateDecl{ // its k8s.io/controller-manager not read
			{Name: "Moved", Component: api, Modules: []string{api}, GateSpec: ga},
			{Name: "Listed", Component: api, Modules: []string{api}, GateSpec: ga},
		}},
		{Release: MustVersion("1.26"), Components: all, Listed: true},
	}
	gates, reads := compileGates(tables)
	ix := NewGateTable(gates, reads)
	dual, _ := ix.Lookup("Dual", false)
	want := []GateModule{
		{Module: cm, Releases: []Version{MustVersion("1.23"), MustVersion("1.24")}, RemovedIn: MustVersion("1.25"), RemovedBy: MustVersion("1.26")},
		{Module: kube, Releases: []Version{MustVersion("1.23")}, RemovedIn: MustVersion("1.24"), RemovedBy: MustVersion("1.24")},
	}
	if d := cmp.Diff(want, dual.Modules); d != "" {
		t.Errorf("Dual's modules (-want +got):\n%s", d)
	}
	if dual.RemovedIn != MustVersion("1.25") || dual.RemovedBy != MustVersion("1.26") || !dual.RemovalUncertain() {
		t.Errorf("Dual removed in %v by %v; want 1.25 or 1.26", dual.RemovedIn, dual.RemovedBy)
	}
	sure, _ := ComponentModules("kube-apiserver")
	for _, tc := range []struct {
		v    string
		mods []string
		want bool
	}{
		{"1.24", nil, false}, // declared (by k8s.io/controller-manager)
		{"1.24", sure, true}, // not by a module kube-apiserver registers
		{"1.25", nil, false}, // k8s.io/controller-manager's 1.25 was not read
		{"1.25", sure, true}, // k8s.io/kubernetes dropped it in 1.24
		{"1.26", nil, true},  // read again: gone
		{"1.22", nil, false}, // before the oldest release read
	} {
		if got := ix.Absent(dual, MustVersion(tc.v), tc.mods); got != tc.want {
			t.Errorf("Dual absent in %s for %v: %v", tc.v, tc.mods, got)
		}
	}
	moved, _ := ix.Lookup("Moved", false)
	// k8s.io/kubernetes does not declare it in 1.24; its removal is known
	// (1.24 read it, no list); the list of 1.25 names it and no module
	if m := moved.Modules[1]; m.Module != kube || m.RemovedIn != MustVersion("1.24") || m.RemovedBy != MustVersion("1.24") {
		t.Errorf("Moved from k8s.io/kubernetes: %+v", m)
	}
	if m := moved.Modules[0]; m.Module != api || m.RemovedIn != MustVersion("1.26") || m.RemovedBy != MustVersion("1.26") {
		t.Errorf("Moved from k8s.io/apiserver: %+v", m)
	}
	// the list of 1.25 names Listed: whether k8s.io/kubernetes still
	// declares it there is not known; 1.26's list does not name it
	listed, _ := ix.Lookup("Listed", false)
	if m := listed.Modules[1]; m.Module != kube || m.RemovedIn != MustVersion("1.25") || m.RemovedBy != MustVersion("1.26") {
		t.Errorf("Listed from k8s.io/kubernetes: %+v; want removed in 1.25 or 1.26", m)
	}
}

// TestKubernetesTagSource: the sources of k8s.io/kubernetes' v1.N.0 tag
// (the feature-gates data's, or its module zip's) name their release; a
// staging module's zip and other kinds do not.
func TestKubernetesTagSource(t *testing.T) {
	for id, want := range map[string]string{
		"feature-gates/1.37": "1.37", "feature-gates/1.38/kubernetes": "1.38",
		"feature-gates/1.38/client-go": "", "feature-gates/x": "", "feature-gates": "",
	} {
		v, ok := KubernetesTagSource(Source{ID: id, Kind: SourceFeatureGates})
		if got := map[bool]string{true: v.String()}[ok]; got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
	if _, ok := KubernetesTagSource(Source{ID: "feature-gates/1.37", Kind: SourceKEPYAML}); ok {
		t.Error("a kep.yaml source is no tag")
	}
}
