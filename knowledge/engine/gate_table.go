package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
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
	if !g.RemovedIn.IsZero() {
		s := g.RemovedIn.String()
		f.RemovedIn = &s
	}
	return f
}

// gateWho says whose gate g is: "kubeadm's own gate
// (ClusterConfiguration.featureGates)", "declared by k8s.io/apiserver".
func gateWho(g *knowledge.FeatureGate) string {
	if g.Kubeadm {
		return "kubeadm's own gate (ClusterConfiguration.featureGates), not the components'"
	}
	if len(g.Components) == 0 {
		return "declared by the generated list of k8s.io/kubernetes"
	}
	return "declared by " + g.Components[0]
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
	fmt.Fprintf(&b, "%s is %s: %s.", g.Name, gateWho(g), strings.Join(spans, ", "))
	last := g.Last()
	switch {
	case !g.RemovedIn.IsZero():
		fmt.Fprintf(&b, " It was removed in %s: a component given it there does not start (unrecognized feature gate); last declared in %s, %s and %s.",
			g.RemovedIn, last.Release, last.Stage.Label(), knowledge.SpecWords(last.GateSpec))
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
	for _, n := range notices {
		if n.Kind != knowledge.NoticeDeprecation && n.Kind != knowledge.NoticeRemoval || !c.noticeOfGate(n, gate) {
			continue
		}
		who := "The " + n.Release.String() + " release notes"
		if s, ok := c.sources[n.Source]; ok && s.Kind != knowledge.SourceReleaseNotesData {
			who = capitalize(knowledge.SourceName(s))
		}
		if n.PR > 0 {
			who += fmt.Sprintf(" (PR #%d)", n.PR)
		}
		verb := "deprecate it"
		if n.Kind == knowledge.NoticeRemoval {
			verb = "remove it"
		}
		if strings.Contains(strings.ToLower(n.Text), "no longer used") {
			verb += " and say it is no longer used"
		}
		return who + " " + verb + "."
	}
	return ""
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
