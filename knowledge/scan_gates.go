package knowledge

import (
	"fmt"
	"slices"
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
	// Invalid is the value as written when it is not one the component
	// reads as true or false (enabled, the string "true" in featureGates,
	// yes in --feature-gates, GateNoValue); Value is then false and means
	// nothing.
	Invalid string `json:"invalid_value,omitempty"`
	Kubeadm bool   `json:"-"` // kubeadm's own gate
}

// GateNoValue is GateSetting.Invalid of a gate given no value
// (--feature-gates=X, featureGates: {X: }).
const GateNoValue = "no value"

// invalidWords is an invalid value fit to repeat: SafeValue's characters
// and the spaces and double quotes of `the string "true"`, at most 60.
func invalidWords(s string) string { return keepSafe(s, ` "`, 60) }

// invalidText says how an invalid setting of gate (a phrase) is wrong.
func invalidText(what, value string) string {
	if value == GateNoValue {
		return what + " is given no value (true or false)"
	}
	return fmt.Sprintf("%s is set to %s, which is not true or false to it", what, invalidWords(value))
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
	// GateScanInvalidValue: set to a value the component does not read
	// as true or false.
	GateScanInvalidValue GateScanStatus = "invalid_value"
	// GateScanLocked: set to the value it is locked to: no effect, and
	// such gates are removed a few releases on.
	GateScanLocked GateScanStatus = "locked"
	// GateScanDeprecated: declared deprecated in the target.
	GateScanDeprecated GateScanStatus = "deprecated"
	// GateScanUncertain: the files read do not say whether the component
	// accepts it at the target: only a module it may register declares it
	// there (k8s.io/controller-manager for kube-controller-manager), or the
	// module that declared it was not read there (k8s.io/controller-manager
	// v0.27.0). A warning: check it.
	GateScanUncertain GateScanStatus = "uncertain"
)

// Breaks reports whether a gate of status s stops its component
// (uncertain is a warning: the files do not say).
func (s GateScanStatus) Breaks() bool {
	return s == GateScanRemoved || s == GateScanNotYet || s == GateScanLockedConflict || s == GateScanUnknown || s == GateScanInvalidValue
}

// GateFinding is one gate setting that breaks or warns at the target.
type GateFinding struct {
	GateSetting
	Status GateScanStatus `json:"status"`
	// RemovedIn is the release the component's modules no longer declare
	// it in (GateScanRemoved; GateScanUncertain when that was not read);
	// RemovedBy the first release known not to, a later one when a module
	// of RemovedIn was not read ("removed in 1.27 or 1.28"). Zero
	// otherwise.
	RemovedIn Version `json:"removed_in,omitzero"`
	RemovedBy Version `json:"removed_by,omitzero"`
	// Modules are the modules whose code declares it at the target that
	// the component does not register, or only may (GateScanUncertain):
	// k8s.io/controller-manager's IPv6DualStack in 1.25-1.26.
	Modules []string `json:"modules,omitempty"`
	// From is the module the component registers that declared it last
	// (GateScanRemoved, GateScanUncertain): k8s.io/kubernetes.
	From string `json:"from,omitempty"`
	// Unread are the modules that declared it whose code of the target
	// was not read (GateScanUncertain).
	Unread []string `json:"unread,omitempty"`
	// Spec is its declaration in the target, when declared there.
	Spec *GateSpec `json:"spec,omitempty"`
	// FirstIn is the first release that declares it (GateScanNotYet).
	FirstIn Version `json:"first_in,omitzero"`
	// Spelled is how the target spells a gate set in another case
	// (GateScanUnknown): components match gate names case and all.
	Spelled string `json:"spelled,omitempty"`
	// ConstantOf is the gate whose Go constant the name set is
	// (GateScanUnknown): CustomCPUCFSQuotaPeriod for CPUCFSQuotaPeriod.
	ConstantOf string `json:"constant_of,omitempty"`
}

// CheckGates checks the gate settings against what the code of release
// to declares for the component each names (see ComponentModules: a
// kube-apiserver takes the gates of k8s.io/kubernetes' pkg/features and of
// the libraries it registers, not k8s.io/controller-manager's): a gate no
// longer declared for it (removed, in the first release after the last
// declaration by one of its modules), not declared yet, set against its
// lock, unknown to every release read, set to its locked value,
// deprecated, or one the files cannot settle (uncertain). A setting fine
// in to gives no finding. The names are matched as the components match
// them, case and all: a gate to declares in another case is unknown there
// (Spelled says how to spells it). Nothing is checked when the code of to
// was not read (ok false).
func CheckGates(settings []GateSetting, t *GateIndex, to Version) (out []GateFinding, ok bool) {
	if _, known := t.Read(to); !known {
		return nil, false
	}
	for _, s := range settings {
		g, found := t.Lookup(s.Gate, s.Kubeadm)
		f := GateFinding{GateSetting: s}
		if s.Invalid != "" {
			// whatever the gate, the component refuses the value first
			f.Status = GateScanInvalidValue
			out = append(out, f)
			continue
		}
		if !found {
			f.Status = GateScanUnknown
			if c, ok := t.ByConstant(s.Gate); ok && !s.Kubeadm {
				f.ConstantOf = c.Name // CPUCFSQuotaPeriod: set CustomCPUCFSQuotaPeriod
			}
			out = append(out, f)
			continue
		}
		component := s.Component
		if s.Kubeadm {
			component = ComponentKubeadm
		}
		if !checkGate(&f, g, t, component, to) {
			continue // fine
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

// checkGate sets f's status for setting gate g on component at release to;
// false when the setting is fine there.
func checkGate(f *GateFinding, g *FeatureGate, t *GateIndex, component string, to Version) bool {
	sure, unsure := ComponentModules(component)
	all := append(slices.Clone(sure), unsure...)
	d, declared := g.DeclaredBy(to, sure)
	if !declared && len(unsure) > 0 {
		if u, ok := g.DeclaredBy(to, unsure); ok {
			d, declared = u, true
			f.Status, f.Modules = GateScanUncertain, modulesAt(u, unsure)
			f.From = lastFrom(g, sure)
			f.RemovedIn, f.RemovedBy = t.Removal(g, sure)
		}
	}
	if declared {
		spec := d.GateSpec
		f.Spec = &spec
	}
	switch {
	case declared && g.Spelling(d) != f.Gate:
		// a component matches gate names case and all
		f.Status, f.Spelled, f.Spec = GateScanUnknown, g.Spelling(d), nil
		f.Modules, f.From, f.RemovedIn, f.RemovedBy = nil, "", Version{}, Version{}
	case f.Status == GateScanUncertain:
	case declared && d.Locked && f.Value != d.Default:
		f.Status = GateScanLockedConflict
	case declared && d.Locked:
		f.Status = GateScanLocked
	case declared && d.Stage == GateDeprecated:
		f.Status = GateScanDeprecated
	case declared:
		return false
	case g.FirstBy(all).IsZero():
		// only modules the component does not register declare it
		f.Status, f.Modules = GateScanUnknown, moduleNames(g.Modules)
	case !t.Absent(g, to, all):
		// a module that declared it was not read in to (k8s.io/controller-manager v0.27.0)
		f.Status, f.Unread = GateScanUncertain, moduleNames(t.unsettled(g, to, all))
		if t.Absent(g, to, sure) && !g.FirstBy(sure).IsZero() && g.FirstBy(sure).Less(to) {
			f.From = lastFrom(g, sure)
			f.RemovedIn, f.RemovedBy = t.Removal(g, sure)
		}
	case to.Less(g.FirstBy(all)):
		f.Status, f.FirstIn = GateScanNotYet, g.FirstBy(all)
	default:
		f.Status = GateScanRemoved
		f.From = lastFrom(g, all)
		f.RemovedIn, f.RemovedBy = t.Removal(g, all)
		if at, ok := g.At(to); ok {
			f.Modules = moduleNames(g.modulesIn(at.Modules)) // declared there by modules the component does not register
		}
	}
	return true
}

// modulesAt are the modules of d among mods.
func modulesAt(d GateRelease, mods []string) []string {
	var out []string
	for _, m := range d.Modules {
		if slices.Contains(mods, m) {
			out = append(out, m)
		}
	}
	return out
}

// moduleNames are the modules' paths.
func moduleNames(ms []GateModule) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Module)
	}
	return out
}

// lastFrom is the module among mods that declared g last (the first such,
// by path, when several did); "" when every module of g declared it last in
// one release (the text needs no module then: they left together).
func lastFrom(g *FeatureGate, mods []string) string {
	together := true
	for _, m := range g.Modules {
		together = together && m.Last() == g.Modules[0].Last()
	}
	if together {
		return ""
	}
	best, at := "", Version{}
	for _, m := range g.modulesIn(mods) {
		if at.Less(m.Last()) {
			best, at = m.Module, m.Last()
		}
	}
	return best
}

// RemovedWords writes when a gate left, from its RemovedIn and RemovedBy:
// "1.25", "1.27 or 1.28" (a module of 1.27 was not read), "1.27 or later
// (its module was not read since)".
func RemovedWords(in, by Version) string {
	switch {
	case by.IsZero():
		return in.String() + " or later (its module was not read since)"
	case by != in:
		return in.String() + " or " + by.String()
	}
	return in.String()
}

// GateFindingText says what a component does with a gate finding at
// release to: "kube-apiserver 1.33 will not start: feature gate X was
// removed in 1.33".
func GateFindingText(f GateFinding, to Version) string {
	who := f.Component + " " + to.String()
	what := "feature gate " + f.Gate
	if f.Kubeadm {
		return kubeadmFindingText(f, to)
	}
	switch f.Status {
	case GateScanRemoved:
		w := fmt.Sprintf("%s will not start: %s was removed in %s", who, what, RemovedWords(f.RemovedIn, f.RemovedBy))
		if f.From != "" && !f.Kubeadm {
			w += " from " + f.From
		}
		if len(f.Modules) > 0 {
			w += fmt.Sprintf(" (%s declares it there, and %s does not register its gates)", strings.Join(f.Modules, ", "), f.Component)
		}
		return w
	case GateScanUncertain:
		if len(f.Modules) > 0 {
			w := fmt.Sprintf("%s may not start: %s is declared there only by %s", who, what, strings.Join(f.Modules, ", "))
			if f.From != "" && !f.RemovedIn.IsZero() {
				w += fmt.Sprintf(" (%s removed it in %s)", f.From, RemovedWords(f.RemovedIn, f.RemovedBy))
			}
			return w + fmt.Sprintf(", and the files I read do not say whether %s registers that module's gates", f.Component)
		}
		w := fmt.Sprintf("%s may not start: %s was declared by %s before %s, and its code of %s was not read", who, what, strings.Join(f.Unread, ", "), to, to)
		if f.From != "" && !f.RemovedIn.IsZero() {
			w += fmt.Sprintf(" (%s removed it in %s)", f.From, RemovedWords(f.RemovedIn, f.RemovedBy))
		}
		return w
	case GateScanNotYet:
		return fmt.Sprintf("%s will not start: %s is declared only from %s", who, what, f.FirstIn)
	case GateScanUnknown:
		if f.Spelled != "" {
			return fmt.Sprintf("%s will not start: %s is not declared; %s declares %s (gate names are matched case and all)", who, what, to, f.Spelled)
		}
		if len(f.Modules) > 0 {
			return fmt.Sprintf("%s will not start: no release I read declares %s for it (only %s does, whose gates %s does not register)", who, what, strings.Join(f.Modules, ", "), f.Component)
		}
		if f.ConstantOf != "" {
			return fmt.Sprintf("%s will not start: %s is the Go constant of feature gate %s, whose name is what components take", who, f.Gate, f.ConstantOf)
		}
		return fmt.Sprintf("%s will not start: no release I read declares %s", who, what)
	case GateScanLockedConflict:
		return fmt.Sprintf("%s will not start: %s is locked to %t there, and is set to %t", who, what, !f.Value, f.Value)
	case GateScanInvalidValue:
		return who + " will not start: " + invalidText(what, f.Invalid)
	case GateScanLocked:
		return fmt.Sprintf("%s ignores %s=%t: it is locked to that (%s), and locked gates are removed a few releases on", who, f.Gate, f.Value, f.Spec.Stage.Label())
	case GateScanDeprecated:
		return fmt.Sprintf("%s warns: %s is deprecated and will be removed", who, what)
	}
	return who + ": " + what
}

// kubeadmFindingText says what a finding of kubeadm's own gate
// (ClusterConfiguration.featureGates) is at release to. kubeadm's
// features.go refuses an unknown key of its --feature-gates flag
// (NewFeatureGate: "unrecognized feature-gate key") and warns of a
// deprecated one, but what it does with ClusterConfiguration.featureGates
// is not in that file: a gate it does not declare is said to be not among
// its gates, not that kubeadm refuses the file.
func kubeadmFindingText(f GateFinding, to Version) string {
	who := "kubeadm " + to.String()
	switch f.Status {
	case GateScanRemoved:
		return fmt.Sprintf("%s: %s is not among kubeadm's feature gates there (removed in %s; kubeadm's --feature-gates flag refuses such a key)", who, f.Gate, RemovedWords(f.RemovedIn, f.RemovedBy))
	case GateScanNotYet:
		return fmt.Sprintf("%s: %s is not among kubeadm's feature gates there (declared only from %s; kubeadm's --feature-gates flag refuses such a key)", who, f.Gate, f.FirstIn)
	case GateScanUnknown:
		if f.Spelled != "" {
			return fmt.Sprintf("%s: %s is not among kubeadm's feature gates; %s declares %s (gate names are matched case and all)", who, f.Gate, to, f.Spelled)
		}
		return fmt.Sprintf("%s: no release I read has %s among kubeadm's feature gates", who, f.Gate)
	case GateScanUncertain:
		return fmt.Sprintf("%s: whether %s is among kubeadm's feature gates there is not known (its code of %s was not read)", who, f.Gate, to)
	case GateScanLockedConflict:
		return fmt.Sprintf("%s: kubeadm's feature gate %s is locked to %t there, and is set to %t", who, f.Gate, !f.Value, f.Value)
	case GateScanInvalidValue:
		return who + ": " + invalidText("kubeadm's feature gate "+f.Gate, f.Invalid)
	case GateScanLocked:
		return fmt.Sprintf("%s ignores kubeadm's feature gate %s=%t: it is locked to that (%s), and locked gates are removed a few releases on", who, f.Gate, f.Value, f.Spec.Stage.Label())
	case GateScanDeprecated:
		return fmt.Sprintf("%s warns: kubeadm's feature gate %s is deprecated and will be removed", who, f.Gate)
	}
	return who + ": kubeadm's feature gate " + f.Gate
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
