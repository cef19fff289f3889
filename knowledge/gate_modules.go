package knowledge

// Which modules declare a gate, release by release, and when it left each:
// a gate two modules declare (IPv6DualStack: k8s.io/kubernetes 1.19-1.24,
// k8s.io/controller-manager 1.21-1.26) leaves each on its own, and a
// module whose next release was not read leaves it in a range of releases.

import "slices"

// declModules are the modules of declaration d: its Modules, else its
// Component (k8s.io/kubernetes when the files do not say); ComponentKubeadm
// for kubeadm's own gates.
func declModules(d GateDecl) []string {
	switch {
	case d.Kubeadm():
		return []string{ComponentKubeadm}
	case len(d.Modules) > 0:
		return d.Modules
	case d.Component != "":
		return []string{d.Component}
	}
	return []string{kubernetesModule}
}

// kubernetesModule is the module whose pkg/features the components built
// from k8s.io/kubernetes register; a gate of no known module counts as its.
const kubernetesModule = "k8s.io/kubernetes"

// gateModules is what each module's code declares of g: the releases, and
// when it left the module (GateModule.RemovedIn, RemovedBy), by module.
func gateModules(g *FeatureGate, reads []GatesRead) []GateModule {
	by := map[string]*GateModule{}
	var order []string
	for _, r := range g.Releases {
		for _, m := range r.Modules {
			gm := by[m]
			if gm == nil {
				gm = &GateModule{Module: m}
				by[m] = gm
				order = append(order, m)
			}
			gm.Releases = append(gm.Releases, r.Release)
		}
	}
	slices.Sort(order)
	out := make([]GateModule, 0, len(order))
	for _, m := range order {
		gm := by[m]
		last := gm.Last()
		for _, r := range reads {
			if !last.Less(r.Release) {
				continue
			}
			if gm.RemovedIn.IsZero() {
				gm.RemovedIn = last.Next()
			}
			if _, named := g.At(r.Release); named && r.Listed && m != "k8s.io/client-go" && m != ComponentKubeadm {
				continue // the list names it, and no module: m may declare it in a file not read
			}
			if r.Reads(m) {
				gm.RemovedBy = r.Release
				break
			}
		}
		out = append(out, *gm)
	}
	return out
}

// removal is when the modules mods stopped declaring a gate, all of them:
// in, the release after the newest declaration of any (zero while the
// newest release read declares it, or no release after it was read); by,
// the first release from which every one is known gone (each module's
// RemovedBy; zero when one's is not known).
func removal(mods []GateModule, reads []GatesRead) (in, by Version) {
	var last Version
	for _, m := range mods {
		if l := m.Last(); last.Less(l) {
			last = l
		}
	}
	if last.IsZero() || len(reads) == 0 || !last.Less(reads[len(reads)-1].Release) {
		return Version{}, Version{}
	}
	in = last.Next()
	for _, m := range mods {
		if m.RemovedBy.IsZero() {
			return in, Version{}
		}
		if by.Less(m.RemovedBy) {
			by = m.RemovedBy
		}
	}
	return in, by
}
