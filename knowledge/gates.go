package knowledge

import (
	"sort"
	"strings"
)

// SourceFeatureGates is what one release's code declares about its feature
// gates: the files of k8s.io/kubernetes and its staging modules at the
// release's tag that declare them.
const SourceFeatureGates SourceKind = "feature-gates"

// KubernetesTagSource reports the release whose k8s.io/kubernetes tag
// source s is: a feature-gates source read from that module's v1.N.0
// ("feature-gates/1.37", or "feature-gates/1.38/kubernetes" from its zip),
// whose as-of day is the tag's time from the Go module proxy, the day the
// release came out. Not a staging module's source (its tag is its own).
func KubernetesTagSource(s Source) (Version, bool) {
	if s.Kind != SourceFeatureGates {
		return Version{}, false
	}
	rest, ok := strings.CutPrefix(s.ID, string(SourceFeatureGates)+"/")
	if !ok {
		return Version{}, false
	}
	rel, module, several := strings.Cut(rest, "/")
	if several && module != "kubernetes" {
		return Version{}, false
	}
	v, err := ParseVersion(rel)
	if err != nil || v.IsZero() {
		return Version{}, false
	}
	return v, true
}

// GateStage is a feature gate's stage as a release's code declares it:
// Alpha, Beta, GA or Deprecated (featuregate.PreRelease).
type GateStage string

// The stages a release's code declares.
const (
	GateAlpha      GateStage = "alpha"
	GateBeta       GateStage = "beta"
	GateGA         GateStage = "ga"
	GateDeprecated GateStage = "deprecated"
)

// ParseGateStage reads a featuregate.PreRelease as the code writes it
// (Alpha, Beta, GA, Deprecated, in any case; "" is GA, as in
// k8s.io/component-base, where GA is the empty prerelease). ok is false for
// anything else (PreAlpha: not available in the release).
func ParseGateStage(s string) (GateStage, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "alpha":
		return GateAlpha, true
	case "beta":
		return GateBeta, true
	case "ga", "":
		return GateGA, true
	case "deprecated":
		return GateDeprecated, true
	}
	return "", false
}

// Label is how answers write the stage: alpha, beta, GA, deprecated.
func (s GateStage) Label() string {
	if s == GateGA {
		return "GA"
	}
	return string(s)
}

// Rank orders the graduation stages: alpha 1, beta 2, GA 3; 0 for
// deprecated, which is no graduation.
func (s GateStage) Rank() int {
	switch s {
	case GateAlpha:
		return 1
	case GateBeta:
		return 2
	case GateGA:
		return 3
	}
	return 0
}

// Stage is the KEP stage s stands for: alpha, beta, stable, deprecated.
func (s GateStage) Stage() Stage {
	switch s {
	case GateAlpha:
		return StageAlpha
	case GateBeta:
		return StageBeta
	case GateGA:
		return StageStable
	case GateDeprecated:
		return StageDeprecated
	}
	return StageNone
}

// ComponentKubeadm is the component of kubeadm's own feature gates
// (ClusterConfiguration.featureGates, cmd/kubeadm/app/features): kept
// apart from the gates of the Kubernetes components, though a name may be
// both (IPv6DualStack was).
const ComponentKubeadm = "kubeadm"

// GateSpec is what a release's code says of one gate: its stage, whether
// it is on by default, and whether it is locked to that default (setting
// it otherwise stops the component).
type GateSpec struct {
	Stage   GateStage `json:"stage"`
	Default bool      `json:"default"`
	Locked  bool      `json:"locked"`
}

// GateDecl is one feature gate a release's code declares.
type GateDecl struct {
	// Name is the name users set (the Go constant's string value).
	Name string `json:"name"`
	// Constant is the Go constant that names it, where that is not its
	// name (CPUCFSQuotaPeriod declares CustomCPUCFSQuotaPeriod, and the
	// generated list writes the constant).
	Constant string `json:"constant,omitempty"`
	// Component is the Go module whose code declares it
	// (k8s.io/kubernetes, k8s.io/apiserver, ...), ComponentKubeadm for
	// kubeadm's own gates, "" when the files read do not say.
	Component string `json:"component,omitempty"`
	// Modules are every module whose files declare it in the release, by
	// path: the module of each map that has an entry for it (its own
	// constant or another's relisted: k8s.io/kubernetes relists
	// genericfeatures.X), and for the generated list (1.32 on), which names
	// no module, those maps, else the module of its constant. Nil for
	// kubeadm's own gates and when the files do not say.
	Modules []string `json:"modules,omitempty"`
	GateSpec
}

// Kubeadm reports whether d is one of kubeadm's own gates.
func (d GateDecl) Kubeadm() bool { return d.Component == ComponentKubeadm }

// GateTable is what one source says one release's code declares: every
// feature gate of the components it read. Several tables of one release
// (the modules fetched apart) join.
type GateTable struct {
	Release Version `json:"release"`
	Source  string  `json:"source"` // Source.ID
	// Components are the modules read (and ComponentKubeadm when
	// kubeadm's gates were): a gate of a component not read is neither
	// declared nor removed as far as this table says.
	Components []string `json:"components,omitempty"`
	// Listed is true when the server gates come from the generated list
	// (1.32 on), which names every server gate and no module: a module
	// whose own files do not declare a gate the list names may declare it
	// in a file not read.
	Listed bool       `json:"listed,omitempty"`
	Gates  []GateDecl `json:"gates,omitempty"`
}

// GateRelease is one feature gate's declaration in one release.
type GateRelease struct {
	Release Version `json:"release"`
	GateSpec
	// Spelling is the name the release's code gives the gate, where it is
	// not the gate's Name (names are matched in any case, but a component
	// takes only its own spelling: 1.23 declared csiMigrationRBD, 1.24
	// CSIMigrationRBD).
	Spelling string `json:"spelling,omitempty"`
	// Modules are the modules whose files declare it in Release (see
	// GateDecl.Modules); kubeadm's own gates name none.
	Modules []string `json:"modules,omitempty"`
}

// GateModule is what one module's code declares of a gate across the
// releases read: the releases whose files of Module declare it and when it
// left them.
type GateModule struct {
	Module string `json:"module"`
	// Releases are the releases read whose code of Module declares the
	// gate, oldest first.
	Releases []Version `json:"releases"`
	// RemovedIn is the release after the last one of Releases, when a
	// release after it was read (of any module): the first release Module
	// may no longer declare it. Zero while the newest release read
	// declares it.
	RemovedIn Version `json:"removed_in,omitzero"`
	// RemovedBy is the first release read of Module after its last
	// declaration (which no longer declares it): RemovedIn itself when
	// Module was read there, a later release when its module of RemovedIn
	// was not read (k8s.io/controller-manager v0.27.0 is not on the
	// proxy), zero when Module was not read after it.
	RemovedBy Version `json:"removed_by,omitzero"`
}

// Last is the newest release whose code of m's module declares the gate.
func (m GateModule) Last() Version {
	if len(m.Releases) == 0 {
		return Version{}
	}
	return m.Releases[len(m.Releases)-1]
}

// Uncertain reports whether the release m's module stopped declaring the
// gate is not known: RemovedIn was not read of it.
func (m GateModule) Uncertain() bool { return !m.RemovedIn.IsZero() && m.RemovedBy != m.RemovedIn }

// FeatureGate is one feature gate across every release whose code was read.
type FeatureGate struct {
	Name string `json:"name"`
	// Kubeadm is true for kubeadm's own gate (ComponentKubeadm).
	Kubeadm bool `json:"kubeadm,omitempty"`
	// Constants are the Go constants that name it where they are not its
	// name (GateDecl.Constant): a name users may take for the gate's, and
	// that no component accepts.
	Constants []string `json:"constants,omitempty"`
	// Components are the modules that declare it, as the newest release
	// declaring it says first.
	Components []string `json:"components,omitempty"`
	// Releases are every release read that declares it, oldest first.
	Releases []GateRelease `json:"releases"`
	// Introduced is the first release that declares it; zero when the
	// oldest release read already does (it may be older).
	Introduced Version `json:"introduced,omitzero"`
	// Modules are what each module's code declares of it, by module path
	// (kubeadm's own gates: ComponentKubeadm).
	Modules []GateModule `json:"modules,omitempty"`
	// RemovedIn is the release after its last declaration (setting it
	// there stops a component: "unrecognized feature gate"): the first
	// release no module may declare it in. RemovedBy is the first release
	// read from which no module that declared it does, every one read
	// (see GateModule.RemovedBy): RemovedIn itself when known, a later
	// release when a module of RemovedIn was not read (IPv6DualStack:
	// k8s.io/controller-manager declares it through 1.26 and its 1.27
	// module was not read, so removed in 1.27 or 1.28), zero when not
	// known. Both zero while the newest release read declares it.
	RemovedIn Version `json:"removed_in,omitzero"`
	RemovedBy Version `json:"removed_by,omitzero"`
	// KEPs are the KEPs whose kep.yaml names it, by number.
	KEPs []int `json:"keps,omitempty"`
}

// RemovalUncertain reports whether the release g stopped being declared
// in is not known: a module that declared it was not read there.
func (g *FeatureGate) RemovalUncertain() bool {
	return !g.RemovedIn.IsZero() && g.RemovedBy != g.RemovedIn
}

// At returns g's declaration in release v, and whether v declares it.
func (g *FeatureGate) At(v Version) (GateRelease, bool) {
	i := sort.Search(len(g.Releases), func(i int) bool { return !g.Releases[i].Release.Less(v) }) // oldest first
	if i < len(g.Releases) && g.Releases[i].Release == v {
		return g.Releases[i], true
	}
	return GateRelease{}, false
}

// First returns the first release that declares g at stage s (zero when
// none does).
func (g *FeatureGate) First(s GateStage) Version {
	for _, r := range g.Releases {
		if r.Stage == s {
			return r.Release
		}
	}
	return Version{}
}

// Last returns g's declaration in the newest release that declares it.
func (g *FeatureGate) Last() GateRelease {
	if len(g.Releases) == 0 {
		return GateRelease{}
	}
	return g.Releases[len(g.Releases)-1]
}

// IsGatePlaceholder reports whether a kep.yaml feature gate name is a
// placeholder for "none": None, NA, N/A, TBD, TODO, "-" and the like are
// not gates.
func IsGatePlaceholder(name string) bool {
	n := strings.ToLower(strings.Trim(strings.TrimSpace(name), "\"'`<>()[]"))
	switch n {
	case "", "-", "--", "none", "na", "n/a", "tbd", "todo", "nil", "null", "no", "n.a.", "tba", "unknown", "?":
		return true
	}
	return strings.Trim(n, "-_ .") == ""
}

// realGates returns a copy of names without placeholders (see
// IsGatePlaceholder).
func realGates(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !IsGatePlaceholder(n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
