package knowledge

import (
	"sort"
	"strings"
)

// SourceFeatureGates is what one release's code declares about its feature
// gates: the files of k8s.io/kubernetes and its staging modules at the
// release's tag that declare them.
const SourceFeatureGates SourceKind = "feature-gates"

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
	// Component is the Go module whose code declares it
	// (k8s.io/kubernetes, k8s.io/apiserver, ...), ComponentKubeadm for
	// kubeadm's own gates, "" when the files read do not say.
	Component string `json:"component,omitempty"`
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
	Components []string   `json:"components,omitempty"`
	Gates      []GateDecl `json:"gates,omitempty"`
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
}

// FeatureGate is one feature gate across every release whose code was read.
type FeatureGate struct {
	Name string `json:"name"`
	// Kubeadm is true for kubeadm's own gate (ComponentKubeadm).
	Kubeadm bool `json:"kubeadm,omitempty"`
	// Components are the modules that declare it, as the newest release
	// declaring it says first.
	Components []string `json:"components,omitempty"`
	// Releases are every release read that declares it, oldest first.
	Releases []GateRelease `json:"releases"`
	// Introduced is the first release that declares it; zero when the
	// oldest release read already does (it may be older).
	Introduced Version `json:"introduced,omitzero"`
	// RemovedIn is the first release read after its last declaration
	// whose code no longer declares it (setting it there stops the
	// component: "unrecognized feature gate"); zero while declared, or
	// when no later release of its component was read.
	RemovedIn Version `json:"removed_in,omitzero"`
	// KEPs are the KEPs whose kep.yaml names it, by number.
	KEPs []int `json:"keps,omitempty"`
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
