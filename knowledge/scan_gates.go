package knowledge

import (
	"fmt"
	"sort"
	"strings"
)

// GateSetting is one feature gate a configuration sets: a
// KubeletConfiguration's or KubeProxyConfiguration's featureGates,
// kubeadm's ClusterConfiguration featureGates (kubeadm's own gates) or the
// --feature-gates its extra args give a component, or --feature-gates in
// the command of a component's container.
type GateSetting struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Kind     string `json:"kind"`
	Name     string `json:"name"` // the object's metadata.name, "" when it has none
	// Component is what reads the gate: kubelet, kube-proxy,
	// kube-apiserver, kube-controller-manager, kube-scheduler, kubeadm.
	Component string `json:"component"`
	Gate      string `json:"gate"`
	Value     bool   `json:"value"`
	Kubeadm   bool   `json:"-"` // kubeadm's own gate
}

// GateScanStatus is what a scan found of a gate a configuration sets, at
// the target release.
type GateScanStatus string

// The statuses of a gate finding. Removed, not yet declared, set against
// its lock and unknown stop the component (exit 5, as a removed API);
// locked and deprecated are warnings (exit 4).
const (
	// GateScanRemoved: declared before the target, no longer in it.
	GateScanRemoved GateScanStatus = "removed"
	// GateScanNotYet: declared only by releases after the target.
	GateScanNotYet GateScanStatus = "not_yet_declared"
	// GateScanLockedConflict: set against the value it is locked to.
	GateScanLockedConflict GateScanStatus = "locked_conflict"
	// GateScanUnknown: no release read declares it (under that name).
	GateScanUnknown GateScanStatus = "unknown"
	// GateScanLocked: set to the value it is locked to: no effect, and
	// such gates are removed a few releases on.
	GateScanLocked GateScanStatus = "locked"
	// GateScanDeprecated: declared deprecated in the target.
	GateScanDeprecated GateScanStatus = "deprecated"
)

// Breaks reports whether a gate of status s stops its component.
func (s GateScanStatus) Breaks() bool {
	return s == GateScanRemoved || s == GateScanNotYet || s == GateScanLockedConflict || s == GateScanUnknown
}

// GateFinding is one gate setting that breaks or warns at the target.
type GateFinding struct {
	GateSetting
	Status GateScanStatus `json:"status"`
	// RemovedIn is the release that no longer declares it (GateScanRemoved);
	// zero otherwise.
	RemovedIn Version `json:"removed_in,omitzero"`
	// Spec is its declaration in the target, when declared there.
	Spec *GateSpec `json:"spec,omitempty"`
	// FirstIn is the first release that declares it (GateScanNotYet).
	FirstIn Version `json:"first_in,omitzero"`
	// Spelled is how the target spells a gate set in another case
	// (GateScanUnknown): components match gate names case and all.
	Spelled string `json:"spelled,omitempty"`
}

// CheckGates checks the gate settings against what the code of release
// to declares: a gate no longer declared (removed, in the first release
// read of its module after its last declaration), not declared yet, set
// against its lock, unknown to every release read, set to its locked
// value, or deprecated. A setting fine in to gives no finding. The names
// are matched as the components match them, case and all: a gate to
// declares in another case is unknown there (Spelled says how to spells
// it). Nothing is checked when the code of to was not read (ok false).
func CheckGates(settings []GateSetting, t *GateIndex, to Version) (out []GateFinding, ok bool) {
	read, known := t.Read(to)
	if !known {
		return nil, false
	}
	for _, s := range settings {
		g, found := t.Lookup(s.Gate, s.Kubeadm)
		f := GateFinding{GateSetting: s}
		switch {
		case !found:
			f.Status = GateScanUnknown
		default:
			d, declared := g.At(to)
			switch {
			case declared && g.Spelling(d) != s.Gate:
				// a component matches gate names case and all
				f.Status, f.Spelled, declared = GateScanUnknown, g.Spelling(d), false
			case declared && d.Locked && s.Value != d.Default:
				f.Status = GateScanLockedConflict
			case declared && d.Locked:
				f.Status = GateScanLocked
			case declared && d.Stage == GateDeprecated:
				f.Status = GateScanDeprecated
			case declared:
				continue // fine
			case !read.ReadsGate(g):
				continue // its module was not read in to: nothing known
			case to.Less(g.Releases[0].Release):
				f.Status, f.FirstIn = GateScanNotYet, g.Releases[0].Release
			default:
				f.Status = GateScanRemoved
				f.RemovedIn = removedBy(g, t.Reads(), to)
			}
			if declared {
				spec := d.GateSpec
				f.Spec = &spec
			}
		}
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Document != b.Document {
			return a.Document < b.Document
		}
		return a.Line < b.Line
	})
	return out, true
}

// removedBy is the first release read, at or before to, that does not
// declare g after a release that does.
func removedBy(g *FeatureGate, reads []GatesRead, to Version) Version {
	declared := false
	for _, r := range reads {
		if to.Less(r.Release) {
			break
		}
		_, ok := g.At(r.Release)
		switch {
		case ok:
			declared = true
		case declared && readsLast(r, g):
			return r.Release
		}
	}
	return to
}

// GateFindingText says what a component does with a gate finding at
// release to: "kube-apiserver 1.33 will not start: feature gate X was
// removed in 1.33".
func GateFindingText(f GateFinding, to Version) string {
	who := f.Component + " " + to.String()
	what := "feature gate " + f.Gate
	if f.Kubeadm {
		who = "kubeadm " + to.String()
		what = "kubeadm's feature gate " + f.Gate
	}
	switch f.Status {
	case GateScanRemoved:
		return fmt.Sprintf("%s will not start: %s was removed in %s", who, what, f.RemovedIn)
	case GateScanNotYet:
		return fmt.Sprintf("%s will not start: %s is declared only from %s", who, what, f.FirstIn)
	case GateScanUnknown:
		if f.Spelled != "" {
			return fmt.Sprintf("%s will not start: %s is not declared; %s declares %s (gate names are matched case and all)", who, what, to, f.Spelled)
		}
		return fmt.Sprintf("%s will not start: no release I read declares %s", who, what)
	case GateScanLockedConflict:
		return fmt.Sprintf("%s will not start: %s is locked to %t there, and is set to %t", who, what, !f.Value, f.Value)
	case GateScanLocked:
		return fmt.Sprintf("%s ignores %s=%t: it is locked to that (%s), and locked gates are removed a few releases on", who, f.Gate, f.Value, f.Spec.Stage.Label())
	case GateScanDeprecated:
		return fmt.Sprintf("%s warns: %s is deprecated and will be removed", who, what)
	}
	return who + ": " + what
}

// GateFindingsSummary counts gate findings: "2 feature gates stop their
// component, 1 warns".
func GateFindingsSummary(fs []GateFinding) string {
	stop, warn := 0, 0
	for _, f := range fs {
		if f.Status.Breaks() {
			stop++
		} else {
			warn++
		}
	}
	var parts []string
	if stop > 0 {
		parts = append(parts, Plural(stop, "feature gate setting stops its component", "feature gate settings stop their components"))
	}
	if warn > 0 {
		parts = append(parts, Plural(warn, "feature gate setting warns", "feature gate settings warn"))
	}
	return strings.Join(parts, ", ")
}

// GatesBreak reports whether a gate setting stops its component at the
// target (exit 5, as a removed API).
func (r *ScanReport) GatesBreak() bool {
	for _, f := range r.Gates {
		if f.Status.Breaks() {
			return true
		}
	}
	return false
}

// GatesWarn reports whether a gate setting warns at the target (locked,
// deprecated: exit 4, as a deprecated API).
func (r *ScanReport) GatesWarn() bool {
	for _, f := range r.Gates {
		if !f.Status.Breaks() {
			return true
		}
	}
	return false
}

// componentConfig says why an object of group is not an API a server
// serves when the group is a component's configuration (a
// KubeletConfiguration, kubeadm's ClusterConfiguration): the component
// reads the file itself; the feature gates it sets are checked apart
// (CheckGates).
func componentConfig(group string) (string, bool) {
	if group != "kubeadm.k8s.io" && !strings.HasSuffix(group, ".config.k8s.io") {
		return "", false
	}
	return SafeValue(group) + " is a component's configuration, read from a file by the component, not an API the server serves (the feature gates it sets are checked on their own)", true
}
