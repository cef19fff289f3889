package knowledge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
		{"old", FeatureGate{Name: "Old", Components: []string{kube}, Releases: []GateRelease{r("1.23", spec(GateBeta, true, false))}, RemovedIn: MustVersion("1.24")}},
		// one gate in any case; each release's own spelling kept where it differs
		{"csithing", FeatureGate{Name: "CSIThing", Components: []string{kube}, Releases: []GateRelease{
			{Release: MustVersion("1.23"), GateSpec: spec(GateAlpha, false, false), Spelling: "csiThing"}, r("1.24", spec(GateBeta, true, false))},
			RemovedIn: MustVersion("1.25")}},
		{"both", FeatureGate{Name: "Both", Components: []string{kube}, Releases: []GateRelease{r("1.23", spec(GateGA, true, true))}, RemovedIn: MustVersion("1.24")}},
		{"kubeadm:both", FeatureGate{Name: "Both", Kubeadm: true, Components: []string{ComponentKubeadm}, Releases: []GateRelease{r("1.23", spec(GateGA, true, true)), r("1.24", spec(GateGA, true, true))}, RemovedIn: MustVersion("1.25")}},
		// 1.24 did not read k8s.io/controller-manager: gone by 1.25
		{"cm", FeatureGate{Name: "CM", Components: []string{cm}, Releases: []GateRelease{r("1.23", spec(GateGA, true, true))}, RemovedIn: MustVersion("1.25")}},
		{"new", FeatureGate{Name: "New", Components: []string{kube}, Releases: []GateRelease{r("1.24", spec(GateAlpha, false, false)), r("1.25", spec(GateBeta, false, false))}, Introduced: MustVersion("1.24")}},
	} {
		if d := cmp.Diff(tc.want, byName[tc.key]); d != "" {
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
