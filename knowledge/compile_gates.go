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
	// Listed: the server gates come from the generated list (GateTable.Listed).
	Listed bool `json:"listed,omitempty"`
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
		r.Listed = r.Listed || t.Listed
		for _, d := range t.Gates {
			k := GateKey(d.Name, d.Kubeadm())
			if d.Name == "" {
				continue
			}
			d.Modules = declModules(d)
			if prev, dup := decls[t.Release][k]; dup {
				for _, m := range d.Modules { // the first read wins; the modules join
					if !slices.Contains(prev.Modules, m) {
						prev.Modules = append(slices.Clone(prev.Modules), m)
					}
				}
				slices.Sort(prev.Modules)
				decls[t.Release][k] = prev
				continue
			}
			decls[t.Release][k] = d
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
			if d.Constant != "" && !slices.Contains(g.Constants, d.Constant) {
				g.Constants = append(g.Constants, d.Constant)
			}
			g.Releases = append(g.Releases, GateRelease{Release: r.Release, GateSpec: d.GateSpec, Spelling: d.Name, Modules: d.Modules})
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
		if first := g.Releases[0].Release; first != reads[0].Release {
			g.Introduced = first
		}
		g.Modules = gateModules(g, reads)
		g.RemovedIn, g.RemovedBy = removal(g.Modules, reads)
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

// GateIndex holds the compiled feature gates for lookups by name.
type GateIndex struct {
	gates      []FeatureGate
	byKey      map[string]int
	byConstant map[string]int
	reads      []GatesRead
}

// NewGateTable indexes gates (as Compile gives them) and the releases read.
func NewGateTable(gates []FeatureGate, reads []GatesRead) *GateIndex {
	t := &GateIndex{gates: gates, reads: reads, byKey: make(map[string]int, len(gates)), byConstant: map[string]int{}}
	for i := range gates {
		t.byKey[GateKey(gates[i].Name, gates[i].Kubeadm)] = i
		for _, c := range gates[i].Constants {
			t.byConstant[strings.ToLower(c)] = i
		}
	}
	return t
}

// ByConstant returns the components' gate whose Go constant is name (any
// case), where that is not a gate's name: CPUCFSQuotaPeriod gives
// CustomCPUCFSQuotaPeriod.
func (t *GateIndex) ByConstant(name string) (*FeatureGate, bool) {
	if t == nil {
		return nil, false
	}
	k := strings.ToLower(strings.TrimSpace(name))
	if _, isName := t.byKey[k]; isName {
		return nil, false
	}
	i, ok := t.byConstant[k]
	if !ok {
		return nil, false
	}
	return &t.gates[i], true
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
// case (kubeadm's own gates too: kep.yaml does not tell them apart); for
// a gate no kep.yaml names, the one KEP the release notes tie it to.
func gateKEPs(gates []FeatureGate, keps map[int]*KEP, changes []Change) {
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
	noteKEPs(gates, keps, changes)
}

// noteKEPs gives a gate no kep.yaml names the KEP the release notes tie
// it to: every entry that names the gate (as the code spells it) and links
// a KEP links the same one (PR 111090 "feature gate:
// UserNamespacesStatelessPodsSupport", linked to KEP-127: a gate renamed
// since). An entry that links several KEPs, entries that disagree, or a
// KEP one of whose own gates is declared beside this one (a note loosely
// naming another gate of its area, not a rename), tie it to none.
func noteKEPs(gates []FeatureGate, keps map[int]*KEP, changes []Change) {
	want := map[string]bool{}
	for i := range gates {
		if len(gates[i].KEPs) == 0 {
			want[gates[i].Name] = true
		}
	}
	by := map[string]int{} // gate name → its one KEP; -1 when the notes disagree
	for i := range changes {
		ch := &changes[i]
		named := map[string]bool{}
		for _, n := range ch.Names {
			named[n] = want[n]
		}
		for _, w := range strings.FieldsFunc(ch.Text, notNameRune) { // the words, where the notes' text is kept
			named[w] = named[w] || want[w]
		}
		for n, ok := range named {
			if !ok {
				continue
			}
			switch k, seen := by[n]; {
			case len(ch.KEPs) == 0: // links none: no say
			case len(ch.KEPs) > 1:
				by[n] = -1
			case !seen:
				by[n] = ch.KEPs[0]
			case k != ch.KEPs[0]:
				by[n] = -1
			}
		}
	}
	index := map[string]*FeatureGate{}
	for i := range gates {
		index[strings.ToLower(gates[i].Name)] = &gates[i]
	}
	for i := range gates {
		g := &gates[i]
		kp := keps[by[g.Name]]
		if !want[g.Name] || kp == nil {
			continue
		}
		// a renamed gate: none of the KEP's own gates is declared in a
		// release that declares this one (a note loosely naming another
		// gate of the same area is not a rename)
		overlaps := false
		for _, name := range kp.FeatureGates {
			if o := index[strings.ToLower(name)]; o != nil && o != g && declaredTogether(o, g) {
				overlaps = true
			}
		}
		if !overlaps {
			g.KEPs = []int{kp.Number}
		}
	}
}

// declaredTogether reports whether a release declares both a and b.
func declaredTogether(a, b *FeatureGate) bool {
	for _, r := range a.Releases {
		if _, ok := b.At(r.Release); ok {
			return true
		}
	}
	return false
}

// notNameRune reports whether r cannot be part of a gate's name.
func notNameRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
}
