package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// readGates reads the feature gates each release's code declares into the
// catalog's index (empty when the knowledge holds none).
func readGates(ctx context.Context, kb knowledge.KnowledgeStore) (*knowledge.GateIndex, error) {
	gates, reads, err := kb.ListFeatureGates(ctx)
	if err != nil {
		return nil, fmt.Errorf("list feature gates: %w", err)
	}
	return knowledge.NewGateTable(gates, reads), nil
}

// codeGate is the gate named name (any case) the code declares: the
// components' gate of that name, else kubeadm's own; nil when no release
// read declares it.
func (c *catalog) codeGate(name string) *knowledge.FeatureGate {
	if g, ok := c.gates.Lookup(name, false); ok {
		return g
	}
	if g, ok := c.gates.Lookup(name, true); ok {
		return g
	}
	return nil
}

// gateFacts is the gate part of an answer for g, its KEPs those its
// kep.yaml names and those the documents tie to it.
func (c *catalog) gateFacts(g *knowledge.FeatureGate) *knowledge.GateFacts {
	f := &knowledge.GateFacts{Name: g.Name, KEPs: append([]int{}, g.KEPs...), Kubeadm: g.Kubeadm}
	if len(g.Components) > 0 {
		f.Component = g.Components[0]
	}
	for _, k := range c.gateKEPs[strings.ToLower(g.Name)] {
		if !slices.Contains(f.KEPs, k.Number) {
			f.KEPs = append(f.KEPs, k.Number)
		}
	}
	slices.Sort(f.KEPs)
	for _, r := range g.Releases {
		f.Releases = append(f.Releases, knowledge.GateReleaseFacts{Release: r.Release.String(), Stage: r.Stage, Default: r.Default, Locked: r.Locked})
	}
	if !g.Introduced.IsZero() {
		s := g.Introduced.String()
		f.Introduced = &s
	}
	f.RemovedIn, f.RemovedInUncertain, f.RemovedBy = removalFacts(g.RemovedIn, g.RemovedBy)
	if !g.Kubeadm {
		for _, m := range g.Modules {
			mf := knowledge.GateModuleFacts{Module: m.Module}
			for _, v := range m.Releases {
				mf.Releases = append(mf.Releases, v.String())
			}
			mf.RemovedIn, mf.RemovedInUncertain, mf.RemovedBy = removalFacts(m.RemovedIn, m.RemovedBy)
			if r, ok := c.gates.Read(m.RemovedIn); mf.RemovedInUncertain && ok && r.Reads(m.Module) && r.Listed {
				mf.Why = m.RemovedIn.String() + "'s generated list names it, and no module, while this module's own files do not"
			}
			f.Modules = append(f.Modules, mf)
		}
		f.Modules = byFirst(f.Modules)
	}
	return f
}

// removalFacts writes a removal (in, by: see knowledge.GateModule) for an
// answer: removed_in, null while declared; uncertain and removed_by where
// by is not in (null when not known).
func removalFacts(in, by knowledge.Version) (*string, bool, *string) {
	if in.IsZero() {
		return nil, false, nil
	}
	s := in.String()
	if by == in {
		return &s, false, nil
	}
	if by.IsZero() {
		return &s, true, nil
	}
	b := by.String()
	return &s, true, &b
}

// gateWho says whose gate g is: "kubeadm's own gate
// (ClusterConfiguration.featureGates)", "declared by k8s.io/apiserver and
// k8s.io/kubernetes" (every module that declares it in the same releases);
// "" when its modules declare it in different releases (the card says each).
func gateWho(g *knowledge.FeatureGate, f *knowledge.GateFacts) string {
	if g.Kubeadm {
		return "kubeadm's own gate (ClusterConfiguration.featureGates), not the components'"
	}
	if len(f.Modules) == 0 {
		if len(g.Components) == 0 {
			return "declared by the generated list of k8s.io/kubernetes"
		}
		return "declared by " + g.Components[0]
	}
	if !f.SameReleases() {
		return ""
	}
	var mods []string
	for _, m := range f.Modules {
		mods = append(mods, m.Module)
	}
	return "declared by " + prose.JoinAnd(mods)
}

// gateCodeText says what the code declares of g, release by release: its
// runs, then where it stands in the newest release read (or when it was
// removed).
func (c *catalog) gateCodeText(g *knowledge.FeatureGate, f *knowledge.GateFacts) string {
	var spans []string
	for _, s := range f.Spans() {
		spans = append(spans, s.String())
	}
	var b strings.Builder
	if who := gateWho(g, f); who != "" {
		fmt.Fprintf(&b, "%s is %s: %s.", g.Name, who, strings.Join(spans, ", "))
	} else {
		// modules that declare it in different releases: each its own
		fmt.Fprintf(&b, "%s: %s.", g.Name, strings.Join(spans, ", "))
		var mods []string
		for _, m := range f.Modules {
			w := m.Module + " declares it in " + m.Runs()
			if r := m.RemovalWords(); r != "" {
				w += " and " + strings.Replace(r, "removed in", "removed it in", 1)
			}
			mods = append(mods, w)
		}
		b.WriteString(" By module: " + strings.Join(mods, "; ") + ".")
	}
	last := g.Last()
	refused := "a component given it then does not start (unrecognized feature gate)"
	if g.Kubeadm {
		refused = "it is then no longer among kubeadm's feature gates (kubeadm's --feature-gates flag refuses such a key)"
	}
	switch {
	case g.RemovalUncertain() && !g.RemovedBy.IsZero():
		fmt.Fprintf(&b, " No module declares it from %s: it was removed in %s or %s (a module of %s was not read), and %s; last declared in %s, %s and %s.",
			g.RemovedBy, g.RemovedIn, g.RemovedBy, g.RemovedIn, refused, last.Release, last.Stage.Label(), knowledge.SpecWords(last.GateSpec))
	case g.RemovalUncertain():
		fmt.Fprintf(&b, " The newest release I read that declares it is %s; a module of %s was not read since, so whether it was removed then is not known.", last.Release, g.Name)
	case !g.RemovedIn.IsZero():
		fmt.Fprintf(&b, " It was removed in %s: %s; last declared in %s, %s and %s.",
			g.RemovedIn, strings.Replace(refused, " then ", " there ", 1), last.Release, last.Stage.Label(), knowledge.SpecWords(last.GateSpec))
	case last.Release != c.gates.Newest():
		fmt.Fprintf(&b, " The newest release I read that declares it is %s.", last.Release)
	default:
		fmt.Fprintf(&b, " In %s, the newest release I read, it is %s and %s.", last.Release, last.Stage.Label(), knowledge.SpecWords(last.GateSpec))
		if last.Stage == knowledge.GateDeprecated {
			b.WriteString(" Deprecated: it will be removed.")
		}
	}
	if !g.Introduced.IsZero() {
		fmt.Fprintf(&b, " First declared in %s.", g.Introduced)
	} else if reads := c.gates.Reads(); len(reads) > 0 {
		fmt.Fprintf(&b, " Already declared in %s, the oldest release I read.", reads[0].Release)
	}
	return b.String()
}

// unusedWords says what the release notes say of a gate that is
// deprecated or no longer used: "The 1.33 release notes (PR #130880)
// deprecate it and say it is no longer used."; "" when none do.
func (c *catalog) unusedWords(notices []knowledge.Notice, gate string) string {
	var verbs []string            // in first-seen order
	whos := map[string][]string{} // verb → who says it
	for _, n := range notices {
		if n.Kind != knowledge.NoticeDeprecation && n.Kind != knowledge.NoticeRemoval || !c.noticeOfGate(n, gate) {
			continue
		}
		who := "the " + n.Release.String() + " release notes"
		if s, ok := c.sources[n.Source]; ok && s.Kind != knowledge.SourceReleaseNotesData {
			who = "the " + knowledge.SourceName(s)
		}
		if n.PR > 0 {
			who += fmt.Sprintf(" (PR #%d)", n.PR)
		}
		verb := "deprecate"
		if n.Kind == knowledge.NoticeRemoval {
			verb = "remove"
		}
		if strings.Contains(strings.ToLower(n.Text), "no longer used") {
			verb += "+unused"
		}
		if !slices.Contains(verbs, verb) {
			verbs = append(verbs, verb)
		}
		if !slices.Contains(whos[verb], who) {
			whos[verb] = append(whos[verb], who)
		}
	}
	var says []string
	for _, verb := range verbs {
		ws := whos[verb]
		base, unused := strings.CutSuffix(verb, "+unused")
		one := len(ws) == 1 && !strings.Contains(ws[0], "notes")
		w := prose.JoinAnd(ws) + " " + base
		if one {
			w += "s"
		}
		w += " it"
		if unused {
			w += " and say"
			if one {
				w += "s"
			}
			w += " it is no longer used"
		}
		says = append(says, w)
	}
	if len(says) == 0 {
		return ""
	}
	return capitalize(strings.Join(says, "; ")) + "."
}

// verdictOf reads the verdict of a yes/no answer's text: "Yes — ..." is
// yes, "No — ..." and "Not yet — ..." no, anything else unknown.
func verdictOf(text string) string {
	switch {
	case strings.HasPrefix(text, "Yes"):
		return knowledge.VerdictYes
	case strings.HasPrefix(text, "No"):
		return knowledge.VerdictNo
	}
	return knowledge.VerdictUnknown
}

// noticeOfGate reports whether notice n deprecates or removes gate itself,
// not another gate it names beside it (PR 124997 deprecates kubeadm's
// RootlessControlPlane because UserNamespacesSupport went beta): its
// release-note entry's typed changes say so, or, without them, it names
// that gate alone.
func (c *catalog) noticeOfGate(n knowledge.Notice, gate string) bool {
	if n.PR > 0 {
		for _, ch := range c.changes[n.Release] {
			if ch.PR != n.PR || len(ch.Effects) == 0 {
				continue
			}
			for _, e := range ch.Effects {
				if (e.What == knowledge.EffectGate || e.What == knowledge.EffectFeature) && strings.EqualFold(e.Name, gate) &&
					(e.Action == knowledge.EffectDeprecated || e.Action == knowledge.EffectRemoved) {
					return true
				}
			}
			return false
		}
	}
	return len(n.FeatureGates) == 1 && strings.EqualFold(n.FeatureGates[0], gate)
}

// CodeGates returns the name of every feature gate the releases' code
// declares, from the Engine's catalog (question.CodeGateSource). The slice
// is new each call. It fails with a wrapped store error.
func (e *Engine) CodeGates(ctx context.Context) ([]string, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	all := c.gates.All()
	out := make([]string, 0, len(all))
	for _, g := range all {
		out = append(out, g.Name)
	}
	return out, nil
}

// byFirst orders modules by the first release that declares the gate in
// each, then by path.
func byFirst(ms []knowledge.GateModuleFacts) []knowledge.GateModuleFacts {
	out := slices.Clone(ms)
	slices.SortStableFunc(out, func(a, b knowledge.GateModuleFacts) int {
		if a.Releases[0] != b.Releases[0] {
			return knowledge.MustVersion(a.Releases[0]).Compare(knowledge.MustVersion(b.Releases[0]))
		}
		return strings.Compare(a.Module, b.Module)
	})
	return out
}
