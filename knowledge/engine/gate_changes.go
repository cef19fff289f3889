package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// answerGateChanges answers `VERSION gates`: every feature gate whose
// declaration in v's code differs from the release read before it, each
// counted once (knowledge.ClassifyGateChange), grouped on the card by
// change. A gate whose module one of the two releases did not read is left
// out (neither added nor removed as far as the code says). It fails with
// ENOTFOUND when v's code was not read, and EBADINPUT for the oldest
// release read (nothing before it to compare with).
func (e *Engine) answerGateChanges(ctx context.Context, v knowledge.Version) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	reads := c.gates.Reads()
	if len(reads) == 0 {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I hold no release's feature gates: ingest ../shared/data/feature-gates, or sync.")
	}
	i := slices.IndexFunc(reads, func(r knowledge.GatesRead) bool { return r.Release == v })
	switch {
	case i < 0:
		near := reads[len(reads)-1].Release
		return nil, &knowledge.Error{Code: knowledge.ENOTFOUND, Suggestions: []string{near.String() + " gates"},
			Message: fmt.Sprintf("I have not read the code of Kubernetes %s; the releases I read are %s-%s.", v, reads[0].Release, near)}
	case i == 0:
		next := v.Next()
		if len(reads) > 1 {
			next = reads[1].Release
		}
		return nil, &knowledge.Error{Code: knowledge.EBADINPUT, Suggestions: []string{next.String() + " gates", "gate ImageVolume"},
			Message: fmt.Sprintf("%s is the oldest release whose code I read, so I have nothing to compare its gates with; ask %s gates.", v, next)}
	}
	prev, cur := reads[i-1], reads[i]
	changes := slices.Clip(c.gateChanges[v]) // shared: clipped, so appending copies
	a := &knowledge.Answer{Kind: knowledge.KindGateChanges, Title: fmt.Sprintf("Kubernetes %s: feature gates changed since %s", v, prev.Release), Changes: changes}
	a.Text = changesSummary(v, prev.Release, changes)
	if names := c.gateUnread[v]; len(names) > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("The code of %s of %s was not read, so whether %s keeps %s %s declared is not known: %s.",
			v, prose.JoinAnd(unreadModules(c.gates, names, v)), v, theseGates(len(names)), prev.Release, strings.Join(names, ", ")))
	}
	a.Sources = c.sourceRefs(append(append([]string(nil), cur.Sources...), prev.Sources...))
	return a, nil
}

// allGateChanges is gateChanges of each release read but the oldest, by
// release, and the gates each leaves unsettled.
func allGateChanges(t *knowledge.GateIndex) (map[knowledge.Version][]knowledge.GateChange, map[knowledge.Version][]string) {
	reads := t.Reads()
	out := make(map[knowledge.Version][]knowledge.GateChange, len(reads))
	unread := map[knowledge.Version][]string{}
	for i := 1; i < len(reads); i++ {
		v := reads[i].Release
		out[v], unread[v] = gateChanges(t, reads[i-1], reads[i])
	}
	return out, unread
}

// gateChanges lists the gates of t whose declaration differs between prev
// and cur, in the order of knowledge.GateChangeOrder, then by name. A gate
// no module declares on one side is added or removed only when every
// module that declared it was read there (GateIndex.Absent): one declared
// in prev whose module's code of cur was not read is unread (by name),
// and one removed by cur whose module's code of prev was not read is
// removed Since the release after its last declaration.
func gateChanges(t *knowledge.GateIndex, prev, cur knowledge.GatesRead) (out []knowledge.GateChange, unread []string) {
	gates := t.All()
	for i := range gates {
		g := &gates[i]
		from, fok := g.At(prev.Release)
		to, tok := g.At(cur.Release)
		since := ""
		switch {
		case fok && !tok && !t.Absent(g, cur.Release, nil):
			unread = append(unread, g.Spelling(from))
			continue
		case !fok && !tok && !t.Absent(g, prev.Release, nil) && t.Absent(g, cur.Release, nil) && g.Last().Release.Less(prev.Release):
			from, fok, since = g.Last(), true, g.RemovedIn.String() // gone by cur, in prev or cur
		case (!fok && !t.Absent(g, prev.Release, nil)) || (!tok && !t.Absent(g, cur.Release, nil)):
			continue // a module not read on one side: the code does not say
		}
		var f, t *knowledge.GateSpec
		if fok {
			f = &from.GateSpec
		}
		if tok {
			t = &to.GateSpec
		}
		if ch := knowledge.ClassifyGateChange(f, t); ch != "" {
			name := g.Name
			if tok {
				name = g.Spelling(to)
			} else if fok {
				name = g.Spelling(from)
			}
			out = append(out, knowledge.GateChange{Gate: name, Change: ch, From: f, To: t, Kubeadm: g.Kubeadm, Since: since})
		}
	}
	rank := func(ch string) int { return slices.Index(knowledge.GateChangeOrder, ch) }
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := rank(out[i].Change), rank(out[j].Change); a != b {
			return a < b
		}
		return strings.ToLower(out[i].Gate) < strings.ToLower(out[j].Gate)
	})
	slices.Sort(unread)
	return out, unread
}

// changeWords name each change in a summary, one and many.
var changeWords = map[string][2]string{
	knowledge.GateAdded: {"added", "added"}, knowledge.GateRemoved: {"removed", "removed"},
	knowledge.GateDeprecatedNow: {"deprecated", "deprecated"}, knowledge.GatePromoted: {"promoted", "promoted"},
	knowledge.GateDemoted: {"demoted", "demoted"}, knowledge.GateDefaultChanged: {"with a new default", "with a new default"},
	knowledge.GateLockedChange: {"locked to its default", "locked to their defaults"}, knowledge.GateUnlocked: {"unlocked", "unlocked"},
}

// changesSummary counts the changes by kind: "Kubernetes 1.34 changed 41
// feature gates from 1.33: 9 removed, 2 deprecated, 16 added, …".
func changesSummary(v, prev knowledge.Version, changes []knowledge.GateChange) string {
	if len(changes) == 0 {
		return fmt.Sprintf("Kubernetes %s declares its feature gates as %s did.", v, prev)
	}
	n := map[string]int{}
	for _, ch := range changes {
		n[ch.Change]++
	}
	var parts []string
	for _, k := range knowledge.GateChangeOrder {
		if n[k] > 0 {
			w := changeWords[k][0]
			if n[k] > 1 {
				w = changeWords[k][1]
			}
			parts = append(parts, fmt.Sprintf("%d %s", n[k], w))
		}
	}
	s := fmt.Sprintf("Kubernetes %s changed %s from %s: %s.", v, knowledge.Plural(len(changes), "feature gate", "feature gates"), prev, strings.Join(parts, ", "))
	if n[knowledge.GateRemoved] > 0 {
		s += " A component given a removed gate does not start (unrecognized feature gate)."
	}
	return s
}

// upgradeGates is what an upgrade from from to to does to the feature
// gates the code declares: every gate declared at from and gone by to
// (with the release it went in), and each default that flips in a release
// after from up to to. nil when the code of from was not read.
func (c *catalog) upgradeGates(from, to knowledge.Version) *knowledge.UpgradeGates {
	var span []knowledge.GatesRead
	for _, r := range c.gates.Reads() {
		if !r.Release.Less(from) && !to.Less(r.Release) {
			span = append(span, r)
		}
	}
	if len(span) < 2 || span[0].Release != from {
		return nil
	}
	out := &knowledge.UpgradeGates{Removed: []knowledge.GateRemoval{}, DefaultChanged: []knowledge.GateFlip{}}
	for i := range c.gates.All() {
		g := &c.gates.All()[i]
		if _, ok := g.At(from); !ok {
			continue
		}
		prev, _ := g.At(from)
		for _, r := range span[1:] {
			d, ok := g.At(r.Release)
			if !ok {
				if c.gates.Absent(g, r.Release, nil) {
					in, by := removedIn(g, r.Release)
					out.Removed = append(out.Removed, knowledge.GateRemoval{Gate: g.Spelling(prev), RemovedIn: in, RemovedBy: by, Kubeadm: g.Kubeadm})
					break
				}
				continue
			}
			if d.Default != prev.Default {
				out.DefaultChanged = append(out.DefaultChanged, knowledge.GateFlip{Gate: g.Spelling(d), Release: r.Release.String(), From: prev.Default, To: d.Default, Stage: d.Stage, Kubeadm: g.Kubeadm})
			}
			prev = d
		}
	}
	sort.SliceStable(out.Removed, func(i, j int) bool {
		a, b := out.Removed[i], out.Removed[j]
		if a.RemovedIn != b.RemovedIn {
			return knowledge.MustVersion(a.RemovedIn).Less(knowledge.MustVersion(b.RemovedIn))
		}
		return strings.ToLower(a.Gate) < strings.ToLower(b.Gate)
	})
	sort.SliceStable(out.DefaultChanged, func(i, j int) bool {
		a, b := out.DefaultChanged[i], out.DefaultChanged[j]
		if a.Release != b.Release {
			return knowledge.MustVersion(a.Release).Less(knowledge.MustVersion(b.Release))
		}
		return strings.ToLower(a.Gate) < strings.ToLower(b.Gate)
	})
	return out
}

// upgradeGatesSentence says what an upgrade does to the gates, for its
// summary: "Feature gates: 12 removed on the way (a component given one
// does not start), 20 defaults flip."
func upgradeGatesSentence(g *knowledge.UpgradeGates, to knowledge.Version) string {
	if g == nil || len(g.Removed)+len(g.DefaultChanged) == 0 {
		return ""
	}
	var parts []string
	if n := len(g.Removed); n > 0 {
		parts = append(parts, fmt.Sprintf("%s by %s (a component given one does not start: unrecognized feature gate)", knowledge.Plural(n, "gate is removed", "gates are removed"), to))
	}
	if n := len(g.DefaultChanged); n > 0 {
		parts = append(parts, knowledge.Plural(n, "default flips", "defaults flip")+" on the way")
	}
	return "Feature gates: " + strings.Join(parts, "; ") + "."
}

// removedIn says when g left, seen from release by, the first release read
// known not to declare it: in, the release after its last declaration,
// and by, "" when that is by itself, else by (a module of in was not read:
// removed in 1.27 or 1.28).
func removedIn(g *knowledge.FeatureGate, by knowledge.Version) (in, later string) {
	if g.RemovedIn.IsZero() || g.RemovedIn == by || by.Less(g.RemovedIn) {
		return by.String(), ""
	}
	return g.RemovedIn.String(), by.String()
}

// theseGates is "the gate" for one, "the N gates" for more.
func theseGates(n int) string {
	if n == 1 {
		return "the gate"
	}
	return fmt.Sprintf("the %d gates", n)
}

// unreadModules are the modules whose code of v was not read that leave
// the gates named unsettled there.
func unreadModules(t *knowledge.GateIndex, names []string, v knowledge.Version) []string {
	var out []string
	for _, n := range names {
		g, ok := t.Lookup(n, false)
		if !ok {
			continue
		}
		for _, m := range t.Unread(g, v, nil) {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	slices.Sort(out)
	return out
}
