package knowledge

import "slices"

// Which modules' feature gates a component registers, as far as the files
// of the feature-gate data say:
//
//   - k8s.io/kubernetes's pkg/features registers its map in its init
//     (utilfeature.DefaultMutableFeatureGate.Add), and that map relists the
//     gates of k8s.io/apiserver and k8s.io/apiextensions-apiserver (and,
//     from 1.33, k8s.io/controller-manager's: kcmfeatures.X); it imports
//     k8s.io/apiserver/pkg/features, whose init registers that module's
//     whole map, and from 1.30 adds k8s.io/client-go's gates to the same
//     gate (clientAdapter). Every component built from k8s.io/kubernetes
//     (kube-apiserver, kube-controller-manager, kube-scheduler, kubelet,
//     kube-proxy) takes its --feature-gates on that gate.
//   - k8s.io/component-base's logging and metrics gates are registered by
//     AddFeatureGates, whose callers are not in those files: taken as every
//     component's (each takes the logging flags).
//   - k8s.io/controller-manager's gates are registered by
//     SetupCurrentKubernetesSpecificFeatureGates, whose callers are not in
//     those files either: not kube-apiserver's, kubelet's, kube-scheduler's
//     or kube-proxy's (the 1.25 notes, PR 109435, removed IPv6DualStack
//     from them while that module kept it; the 1.27 notes, PR 116255, say
//     it then went "for external cloud providers"), and for
//     kube-controller-manager not known: a gate only that module declares
//     is said to be uncertain there, never fine nor removed.

// componentModules are the modules whose gates every component built from
// k8s.io/kubernetes registers.
var componentModules = []string{kubernetesModule, "k8s.io/apiserver", "k8s.io/apiextensions-apiserver", "k8s.io/component-base", "k8s.io/client-go"}

// controllerManagerModule declares the gates kube-controller-manager may
// register (see above).
const controllerManagerModule = "k8s.io/controller-manager"

// ComponentModules returns the modules whose feature gates component
// registers (sure) and those it may (unsure: the files do not say):
// kubeadm's own gates for kubeadm; k8s.io/controller-manager's unsure for
// kube-controller-manager; every module for a component not named ("").
func ComponentModules(component string) (sure, unsure []string) {
	switch component {
	case ComponentKubeadm:
		return []string{ComponentKubeadm}, nil
	case "kube-controller-manager", "cloud-controller-manager":
		return componentModules, []string{controllerManagerModule}
	case "":
		return append(slices.Clone(componentModules), controllerManagerModule), nil
	}
	return componentModules, nil
}

// modulesIn are g's modules among mods (all of them for nil mods).
func (g *FeatureGate) modulesIn(mods []string) []GateModule {
	if mods == nil {
		return g.Modules
	}
	var out []GateModule
	for _, m := range g.Modules {
		if slices.Contains(mods, m.Module) {
			out = append(out, m)
		}
	}
	return out
}

// DeclaredBy returns g's declaration in release v by one of the modules
// mods (any module for nil mods), and whether one of them declares it.
func (g *FeatureGate) DeclaredBy(v Version, mods []string) (GateRelease, bool) {
	d, ok := g.At(v)
	if !ok || mods == nil {
		return d, ok
	}
	for _, m := range d.Modules {
		if slices.Contains(mods, m) {
			return d, true
		}
	}
	return GateRelease{}, false
}

// Absent reports whether it is known that none of the modules mods (every
// module for nil) declares g in release v: each module of g among them was
// read in v, or v is before its first declaration and it was read in v or
// later before that, or v is at or after its RemovedBy. A module not read
// in v (k8s.io/controller-manager's 1.27) leaves it unknown.
func (t *GateIndex) Absent(g *FeatureGate, v Version, mods []string) bool {
	if _, ok := g.DeclaredBy(v, mods); ok {
		return false
	}
	return len(t.unsettled(g, v, mods)) == 0
}

// unsettled are the modules of g among mods whose code of release v is not
// known not to declare g (see Absent).
func (t *GateIndex) unsettled(g *FeatureGate, v Version, mods []string) []GateModule {
	var out []GateModule
	for _, m := range g.modulesIn(mods) {
		first, last := m.Releases[0], m.Last()
		switch {
		case v.Less(first):
			if !t.readBetween(m.Module, v, first) {
				out = append(out, m)
			}
		case last.Less(v):
			if m.RemovedBy.IsZero() || v.Less(m.RemovedBy) {
				out = append(out, m)
			}
		default:
			if r, ok := t.Read(v); !ok || !r.Reads(m.Module) || r.Listed && g.named(v) {
				out = append(out, m)
			}
		}
	}
	return out
}

// Unread are the modules of g among mods (every module for nil) whose code
// of release v was not read though it may declare g there: what leaves
// Absent unknown.
func (t *GateIndex) Unread(g *FeatureGate, v Version, mods []string) []string {
	return moduleNames(t.unsettled(g, v, mods))
}

// named reports whether some module declares g in release v.
func (g *FeatureGate) named(v Version) bool {
	_, ok := g.At(v)
	return ok
}

// readBetween reports whether module was read in a release from v up to
// (not including) before.
func (t *GateIndex) readBetween(module string, v, before Version) bool {
	for _, r := range t.Reads() {
		if !r.Release.Less(v) && r.Release.Less(before) && r.Reads(module) {
			return true
		}
	}
	return false
}

// Removal is when the modules mods (every module for nil) stopped
// declaring g: as FeatureGate.RemovedIn and RemovedBy, over those modules.
func (t *GateIndex) Removal(g *FeatureGate, mods []string) (in, by Version) {
	return removal(g.modulesIn(mods), t.Reads())
}

// FirstBy is the first release one of the modules mods (every module for
// nil) declares g in; zero when none does.
func (g *FeatureGate) FirstBy(mods []string) Version {
	for _, r := range g.Releases {
		if _, ok := g.DeclaredBy(r.Release, mods); ok {
			return r.Release
		}
	}
	return Version{}
}
