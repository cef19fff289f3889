package knowledge

import (
	"slices"
	"sort"
	"strings"
)

// GatesRead is one release whose code was read for its feature gates, and
// the components read: a gate of a component not read there is neither
// declared nor removed as far as the knowledge knows.
type GatesRead struct {
	Release    Version  `json:"release"`
	Components []string `json:"components,omitempty"`
	Sources    []string `json:"sources,omitempty"` // Source.IDs
}

// Reads reports whether r read component c; a gate of no known component
// counts as k8s.io/kubernetes'.
func (r GatesRead) Reads(c string) bool {
	if c == "" {
		c = "k8s.io/kubernetes"
	}
	return slices.Contains(r.Components, c)
}

// GateKey is how the knowledge tells gates apart: kubeadm's own gate of a
// name is not the components' gate of that name.
func GateKey(name string, kubeadm bool) string {
	k := strings.ToLower(name)
	if kubeadm {
		return ComponentKubeadm + ":" + k
	}
	return k
}

// compileGates joins the gate tables of every source into one FeatureGate
// a gate (kubeadm's apart), with the releases read, oldest first. Two
// tables of one release join (the modules fetched apart); where both
// declare a gate the first read wins.
func compileGates(tables []GateTable) ([]FeatureGate, []GatesRead) {
	if len(tables) == 0 {
		return nil, nil
	}
	byRel := map[Version]*GatesRead{}
	decls := map[Version]map[string]GateDecl{}
	for _, t := range tables {
		if t.Release.IsZero() {
			continue
		}
		r := byRel[t.Release]
		if r == nil {
			r = &GatesRead{Release: t.Release}
			byRel[t.Release] = r
			decls[t.Release] = map[string]GateDecl{}
		}
		for _, c := range t.Components {
			if !slices.Contains(r.Components, c) {
				r.Components = append(r.Components, c)
			}
		}
		r.Sources = append(r.Sources, t.Source)
		for _, d := range t.Gates {
			k := GateKey(d.Name, d.Kubeadm())
			if _, dup := decls[t.Release][k]; !dup && d.Name != "" {
				decls[t.Release][k] = d
			}
		}
	}
	var reads []GatesRead
	for _, r := range byRel {
		sort.Strings(r.Components)
		reads = append(reads, *r)
	}
	sort.Slice(reads, func(i, j int) bool { return reads[i].Release.Less(reads[j].Release) })

	gates := map[string]*FeatureGate{}
	for _, r := range reads {
		for k, d := range decls[r.Release] {
			g := gates[k]
			if g == nil {
				g = &FeatureGate{Name: d.Name, Kubeadm: d.Kubeadm()}
				gates[k] = g
			}
			g.Name = d.Name // the newest spelling
			g.Releases = append(g.Releases, GateRelease{Release: r.Release, GateSpec: d.GateSpec, Spelling: d.Name})
			if d.Component != "" {
				g.Components = slices.DeleteFunc(g.Components, func(c string) bool { return c == d.Component })
				g.Components = append([]string{d.Component}, g.Components...)
			}
		}
	}
	out := make([]FeatureGate, 0, len(gates))
	for _, g := range gates {
		for i := range g.Releases {
			if g.Releases[i].Spelling == g.Name {
				g.Releases[i].Spelling = ""
			}
		}
		first, last := g.Releases[0].Release, g.Last().Release
		if first != reads[0].Release {
			g.Introduced = first
		}
		for _, r := range reads {
			if !last.Less(r.Release) || !readsLast(r, g) {
				continue
			}
			g.RemovedIn = r.Release
			break
		}
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := strings.ToLower(out[i].Name), strings.ToLower(out[j].Name); a != b {
			return a < b
		}
		return !out[i].Kubeadm && out[j].Kubeadm
	})
	return out, reads
}

// ReadsGate reports whether r read a component of g: kubeadm for kubeadm's
// gates; else any module that declared it (k8s.io/kubernetes when none is
// known). Only then does r not declaring g say it is not declared.
func (r GatesRead) ReadsGate(g *FeatureGate) bool { return readsAny(r, g) }

// readsLast reports whether r read the module of g's newest declaration
// (kubeadm for kubeadm's gates; k8s.io/kubernetes when none is known): a
// gate k8s.io/controller-manager alone declared last is not known gone in
// a release that did not read it.
func readsLast(r GatesRead, g *FeatureGate) bool {
	if g.Kubeadm || len(g.Components) == 0 {
		return readsAny(r, g)
	}
	return r.Reads(g.Components[0])
}

// readsAny is GatesRead.ReadsGate.
func readsAny(r GatesRead, g *FeatureGate) bool {
	if g.Kubeadm {
		return r.Reads(ComponentKubeadm)
	}
	if len(g.Components) == 0 {
		return r.Reads("")
	}
	for _, c := range g.Components {
		if r.Reads(c) {
			return true
		}
	}
	return false
}

// GateIndex holds the compiled feature gates for lookups by name.
type GateIndex struct {
	gates []FeatureGate
	byKey map[string]int
	reads []GatesRead
}

// NewGateTable indexes gates (as Compile gives them) and the releases read.
func NewGateTable(gates []FeatureGate, reads []GatesRead) *GateIndex {
	t := &GateIndex{gates: gates, reads: reads, byKey: make(map[string]int, len(gates))}
	for i := range gates {
		t.byKey[GateKey(gates[i].Name, gates[i].Kubeadm)] = i
	}
	return t
}

// Known reports whether any release's gates were read.
func (t *GateIndex) Known() bool { return t != nil && len(t.reads) > 0 }

// All returns every gate, by name.
func (t *GateIndex) All() []FeatureGate {
	if t == nil {
		return nil
	}
	return t.gates
}

// Reads returns the releases read, oldest first.
func (t *GateIndex) Reads() []GatesRead {
	if t == nil {
		return nil
	}
	return t.reads
}

// Read returns what was read of release v.
func (t *GateIndex) Read(v Version) (GatesRead, bool) {
	if t == nil {
		return GatesRead{}, false
	}
	for _, r := range t.reads {
		if r.Release == v {
			return r, true
		}
	}
	return GatesRead{}, false
}

// Lookup returns the components' gate named name (any case), or
// kubeadm's own when kubeadm is true.
func (t *GateIndex) Lookup(name string, kubeadm bool) (*FeatureGate, bool) {
	if t == nil {
		return nil, false
	}
	i, ok := t.byKey[GateKey(strings.TrimSpace(name), kubeadm)]
	if !ok {
		return nil, false
	}
	return &t.gates[i], true
}

// Newest is the newest release read, zero when none was.
func (t *GateIndex) Newest() Version {
	if !t.Known() {
		return Version{}
	}
	return t.reads[len(t.reads)-1].Release
}

// gateKEPs sets each gate's KEPs: those whose kep.yaml names it, in any
// case (kubeadm's own gates too: kep.yaml does not tell them apart).
func gateKEPs(gates []FeatureGate, keps map[int]*KEP) {
	named := map[string][]int{}
	for n, kp := range keps {
		if !kp.HasYAML() {
			continue
		}
		for _, g := range kp.FeatureGates {
			k := strings.ToLower(g)
			if !slices.Contains(named[k], n) {
				named[k] = append(named[k], n)
			}
		}
	}
	for i := range gates {
		ns := slices.Clone(named[strings.ToLower(gates[i].Name)])
		slices.Sort(ns)
		gates[i].KEPs = ns
	}
}
