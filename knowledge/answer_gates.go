package knowledge

import (
	"slices"
	"strconv"
	"strings"
)

// KindGateChanges is the answer to `1.34 gates`: every feature gate whose
// declaration differs from the release before.
const KindGateChanges Kind = "gate_changes"

// The verdicts of yes/no answers (Answer.Verdict).
const (
	VerdictYes     = "yes"
	VerdictNo      = "no"
	VerdictUnknown = "unknown"
)

// GateFacts is the gate part of a gate answer: what each release's code
// declares about the gate.
type GateFacts struct {
	Name string `json:"name"`
	// Releases are every release read that declares it, oldest first.
	Releases []GateReleaseFacts `json:"releases"`
	// Introduced is the first release that declares it, null when the
	// oldest release read already does.
	Introduced *string `json:"introduced"`
	// RemovedIn is the first release whose code no longer declares it (no
	// module declares it from then on), null while declared. Where a module
	// of that release was not read, it is the earliest it may be gone in:
	// RemovedInUncertain is true and RemovedBy the first release known not
	// to declare it ("removed in 1.27 or 1.28").
	RemovedIn          *string `json:"removed_in"`
	RemovedInUncertain bool    `json:"removed_in_uncertain,omitempty"`
	RemovedBy          *string `json:"removed_by,omitempty"`
	// KEPs are the KEPs that name it, by number.
	KEPs []int `json:"keps"`
	// Component is the module that declares it (k8s.io/kubernetes,
	// k8s.io/apiserver, ...), "kubeadm" for kubeadm's own gate.
	Component string `json:"component,omitempty"`
	Kubeadm   bool   `json:"kubeadm,omitempty"`
	// Modules are what each module's code declares of it: the releases
	// it declares it in and when it left that module.
	Modules []GateModuleFacts `json:"modules,omitempty"`
}

// GateModuleFacts is one module's part of a gate answer.
type GateModuleFacts struct {
	Module string `json:"module"`
	// Releases are the releases read whose code of Module declares it,
	// oldest first.
	Releases []string `json:"releases"`
	// RemovedIn is the release after its last declaration in Module, null
	// while it declares it in the newest release read; RemovedBy the first
	// release of Module read after it, set only where that is later
	// (RemovedIn's module was not read) or not known (null: "").
	RemovedIn          *string `json:"removed_in"`
	RemovedInUncertain bool    `json:"removed_in_uncertain,omitempty"`
	RemovedBy          *string `json:"removed_by,omitempty"`
	// Why says why RemovedIn is uncertain: "its 1.27 module was not
	// read", "1.32's generated list names it, and no module".
	Why string `json:"removed_why,omitempty"`
}

// Runs writes a release list as runs: "1.19-1.24", "1.19-1.31, 1.33-1.37".
func (m GateModuleFacts) Runs() string {
	var parts []string
	for i := 0; i < len(m.Releases); {
		j := i
		for j+1 < len(m.Releases) && nextOf(m.Releases[j]) == m.Releases[j+1] {
			j++
		}
		p := m.Releases[i]
		if j > i {
			p += "-" + m.Releases[j]
		}
		parts = append(parts, p)
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// RemovalWords says when the gate left m's module: "removed in 1.25",
// "removed in 1.27 or 1.28 (its 1.27 module was not read)"; "" while
// declared.
func (m GateModuleFacts) RemovalWords() string {
	switch {
	case m.RemovedIn == nil:
		return ""
	case !m.RemovedInUncertain:
		return "removed in " + *m.RemovedIn
	case m.RemovedBy == nil:
		return "removed in " + *m.RemovedIn + " or later (its module was not read since)"
	}
	why := m.Why
	if why == "" {
		why = "its " + *m.RemovedIn + " module was not read"
	}
	return "removed in " + *m.RemovedIn + " or " + *m.RemovedBy + " (" + why + ")"
}

// SameReleases reports whether every module of g declares it in the same
// releases (one line says them all).
func (g *GateFacts) SameReleases() bool {
	for _, m := range g.Modules[min(1, len(g.Modules)):] {
		if !slices.Equal(m.Releases, g.Modules[0].Releases) {
			return false
		}
	}
	return true
}

// GateReleaseFacts is a gate's declaration in one release.
type GateReleaseFacts struct {
	Release string    `json:"release"`
	Stage   GateStage `json:"stage"`
	Default bool      `json:"default"`
	Locked  bool      `json:"locked"`
}

// GateChange is one gate whose declaration differs between two releases:
// Change is added or removed (declared on one side only), else deprecated,
// promoted or demoted (the stage), else default_changed, else locked or
// unlocked. From and To are null on the side that does not declare it.
type GateChange struct {
	Gate    string    `json:"gate"`
	Change  string    `json:"change"`
	From    *GateSpec `json:"from"`
	To      *GateSpec `json:"to"`
	Kubeadm bool      `json:"kubeadm,omitempty"`
	// Since is set on a gate removed after a release whose code of its
	// module was not read: the release after its last declaration, which
	// From is of ("removed in 1.27 or 1.28").
	Since string `json:"since,omitempty"`
}

// The changes of GateChange, in the order a card groups them.
const (
	GateAdded          = "added"
	GatePromoted       = "promoted"
	GateDefaultChanged = "default_changed"
	GateLockedChange   = "locked"
	GateUnlocked       = "unlocked"
	GateDemoted        = "demoted"
	GateDeprecatedNow  = "deprecated"
	GateRemoved        = "removed"
)

// GateChangeOrder lists the changes in the order cards group them.
var GateChangeOrder = []string{GateRemoved, GateDeprecatedNow, GateAdded, GatePromoted, GateDemoted, GateDefaultChanged, GateLockedChange, GateUnlocked}

// ClassifyGateChange says how a gate changed from from to to (nil where a
// release does not declare it); "" when it did not.
func ClassifyGateChange(from, to *GateSpec) string {
	switch {
	case from == nil && to == nil:
		return ""
	case from == nil:
		return GateAdded
	case to == nil:
		return GateRemoved
	case from.Stage != to.Stage:
		switch {
		case to.Stage == GateDeprecated:
			return GateDeprecatedNow
		case from.Stage != GateDeprecated && to.Stage.Rank() > from.Stage.Rank():
			return GatePromoted
		}
		return GateDemoted
	case from.Default != to.Default:
		return GateDefaultChanged
	case from.Locked != to.Locked:
		if to.Locked {
			return GateLockedChange
		}
		return GateUnlocked
	}
	return ""
}

// UpgradeGates is what an upgrade from A to B does to the feature gates:
// every gate declared at A and gone at B (a component given it then does
// not start: "unrecognized feature gate"), and the defaults that flip on
// the way.
type UpgradeGates struct {
	Removed        []GateRemoval `json:"removed"`
	DefaultChanged []GateFlip    `json:"default_changed"`
}

// GateRemoval is a gate declared at the release upgraded from and gone by
// the one upgraded to.
type GateRemoval struct {
	Gate      string `json:"gate"`
	RemovedIn string `json:"removed_in"`
	// RemovedBy is set where the release it left in is not known (a
	// module of RemovedIn was not read): the first release known not to
	// declare it, removed in RemovedIn or RemovedBy.
	RemovedBy string `json:"removed_by,omitempty"`
	Kubeadm   bool   `json:"kubeadm,omitempty"`
}

// GateFlip is a gate whose default flips in Release, on the way.
type GateFlip struct {
	Gate    string    `json:"gate"`
	Release string    `json:"release"`
	From    bool      `json:"from"`
	To      bool      `json:"to"`
	Stage   GateStage `json:"stage"`
	Kubeadm bool      `json:"kubeadm,omitempty"`
}

// GateSpan is a run of releases that declare a gate alike.
type GateSpan struct {
	From, To string
	GateReleaseFacts
}

// Spans joins a gate's releases into runs declared alike: "beta 1.30-1.32,
// off".
func (g *GateFacts) Spans() []GateSpan {
	var out []GateSpan
	for _, r := range g.Releases {
		n := len(out)
		if n > 0 && out[n-1].Stage == r.Stage && out[n-1].Default == r.Default && out[n-1].Locked == r.Locked && nextOf(out[n-1].To) == r.Release {
			out[n-1].To = r.Release
			continue
		}
		out = append(out, GateSpan{From: r.Release, To: r.Release, GateReleaseFacts: r})
	}
	return out
}

// String writes a run: "beta 1.30-1.32 (off)", "GA 1.36-1.37 (on, locked)".
func (s GateSpan) String() string {
	r := s.From
	if s.To != s.From {
		r += "-" + s.To
	}
	return s.Stage.Label() + " " + r + " (" + SpecWords(GateSpec{Stage: s.Stage, Default: s.Default, Locked: s.Locked}) + ")"
}

// SpecWords writes a declaration's default and lock: "on", "off, locked".
func SpecWords(s GateSpec) string {
	w := "off"
	if s.Default {
		w = "on"
	}
	if s.Locked {
		w += ", locked"
	}
	return w
}

// nextOf is the release after v ("1.31" → "1.32"), "" for a malformed one.
func nextOf(v string) string {
	maj, min, ok := strings.Cut(v, ".")
	n, err := strconv.Atoi(min)
	if !ok || err != nil {
		return ""
	}
	return maj + "." + strconv.Itoa(n+1)
}

// GateSection is a titled list of lines an answer's feature gate facts
// make, for every platform to draw alike.
type GateSection struct {
	Title string
	Lines []string
}

// changeTitles head each kind of change on a card.
var changeTitles = map[string]string{
	GateRemoved: "Removed (a component given one does not start)", GateDeprecatedNow: "Deprecated", GateAdded: "Added",
	GatePromoted: "Promoted", GateDemoted: "Demoted", GateDefaultChanged: "Default changed",
	GateLockedChange: "Locked to their default", GateUnlocked: "Unlocked",
}

// GateSections writes a's feature gate facts as sections, what breaks
// first: a gate's declarations release by release; the gates that changed
// in a release, by kind of change; an upgrade's gates removed on the way
// and defaults that flip. None for an answer without them.
func (a *Answer) GateSections() []GateSection {
	var out []GateSection
	if g := a.Gate; g != nil && len(g.Releases) > 0 {
		s := GateSection{Title: "What the code declares"}
		switch {
		case len(g.Modules) > 0 && g.SameReleases() && !g.Kubeadm:
			var mods []string
			for _, m := range g.Modules {
				mods = append(mods, m.Module)
			}
			s.Title += " (" + strings.Join(mods, ", ") + ")"
		case len(g.Modules) == 0 && g.Component != "":
			s.Title += " (" + g.Component + ")"
		}
		for _, sp := range g.Spans() {
			s.Lines = append(s.Lines, sp.String())
		}
		if len(g.Modules) > 1 && !g.SameReleases() {
			for _, m := range g.Modules {
				l := m.Module + ": " + m.Runs()
				if w := m.RemovalWords(); w != "" {
					l += ", " + w
				}
				s.Lines = append(s.Lines, l)
			}
		}
		if g.RemovedIn != nil {
			w := "removed in " + *g.RemovedIn
			if g.RemovedInUncertain && g.RemovedBy != nil {
				w += " or " + *g.RemovedBy
			}
			if g.Kubeadm {
				s.Lines = append(s.Lines, w+": no longer among kubeadm's feature gates")
			} else {
				s.Lines = append(s.Lines, w+": a component given it does not start")
			}
		}
		out = append(out, s)
	}
	if len(a.Changes) > 0 {
		for _, kind := range GateChangeOrder {
			var lines []string
			for _, ch := range a.Changes {
				if ch.Change == kind {
					lines = append(lines, changeLine(ch))
				}
			}
			if len(lines) > 0 {
				out = append(out, GateSection{Title: changeTitles[kind] + " (" + strconv.Itoa(len(lines)) + ")", Lines: lines})
			}
		}
	}
	if u := a.Gates; u != nil {
		if len(u.Removed) > 0 {
			s := GateSection{Title: "Feature gates removed on the way (a component given one does not start)"}
			for _, r := range u.Removed {
				w := gateName(r.Gate, r.Kubeadm) + ": removed in " + r.RemovedIn
				if r.RemovedBy != "" {
					w += " or " + r.RemovedBy + " (a module of " + r.RemovedIn + " was not read)"
				}
				s.Lines = append(s.Lines, w)
			}
			out = append(out, s)
		}
		if len(u.DefaultChanged) > 0 {
			s := GateSection{Title: "Feature gate defaults that flip on the way"}
			for _, f := range u.DefaultChanged {
				s.Lines = append(s.Lines, gateName(f.Gate, f.Kubeadm)+": "+onOffWord(f.From)+" → "+onOffWord(f.To)+" in "+f.Release+" ("+f.Stage.Label()+")")
			}
			out = append(out, s)
		}
	}
	return out
}

// changeLine writes one change: "WatchList: beta, off → on",
// "ImageVolume: beta (on) → GA (on, locked)", "X (kubeadm): alpha (off)".
func changeLine(ch GateChange) string {
	name := gateName(ch.Gate, ch.Kubeadm)
	switch {
	case ch.From == nil && ch.To != nil:
		return name + ": " + ch.To.Stage.Label() + " (" + SpecWords(*ch.To) + ")"
	case ch.To == nil && ch.From != nil && ch.Since != "":
		return name + " (was " + ch.From.Stage.Label() + ", " + SpecWords(*ch.From) + "; removed in " + ch.Since + " or this release: its module's code of " + ch.Since + " was not read)"
	case ch.To == nil && ch.From != nil:
		return name + " (was " + ch.From.Stage.Label() + ", " + SpecWords(*ch.From) + ")"
	case ch.From == nil || ch.To == nil:
		return name
	case ch.Change == GateDefaultChanged:
		return name + ": " + ch.To.Stage.Label() + ", " + onOffWord(ch.From.Default) + " → " + onOffWord(ch.To.Default)
	}
	return name + ": " + ch.From.Stage.Label() + " (" + SpecWords(*ch.From) + ") → " + ch.To.Stage.Label() + " (" + SpecWords(*ch.To) + ")"
}

func gateName(name string, kubeadm bool) string {
	if kubeadm {
		return name + " (kubeadm)"
	}
	return name
}

func onOffWord(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
