package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// answerGateDefault answers `is NAME on by default in VERSION`: yes or no
// first (Answer.Verdict too), with the stage and lock the code of that
// release declares; for a release that does not declare the gate, whether
// it is not declared yet or was removed (a component given it then does
// not start), and what a removed gate's last declaration meant. A release
// whose code was not read is "unknown". It fails with ENOTFOUND when no
// release read declares the gate and no KEP names it.
func (e *Engine) answerGateDefault(ctx context.Context, name string, v knowledge.Version) (*knowledge.Answer, error) {
	if knowledge.IsGatePlaceholder(name) {
		return e.answerGate(ctx, name) // says it is no gate
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	g := c.codeGate(name)
	if g == nil {
		if _, err := e.answerGate(ctx, name); err != nil {
			return nil, err // unknown anywhere: "did you mean"
		}
		a := &knowledge.Answer{Kind: knowledge.KindGate, Title: "Feature gate " + knowledge.Echo(name) + " in " + v.String(), Verdict: knowledge.VerdictUnknown,
			Text:    fmt.Sprintf("I can't say: no release whose code I read declares %s; ask gate %s for what the documents say of it.", knowledge.Echo(name), knowledge.Echo(name)),
			Suggest: []string{"gate " + name}}
		return a, nil
	}
	a := &knowledge.Answer{Kind: knowledge.KindGate, Title: fmt.Sprintf("Feature gate %s in %s", g.Name, v), Gate: c.gateFacts(g)}
	a.Text = c.defaultVerdict(g, v)
	a.Verdict = verdictOf(a.Text)
	var ids []string
	if r, ok := c.gates.Read(v); ok {
		ids = r.Sources
	} else {
		ids = gateSources(c, g)
	}
	a.Sources = c.sourceRefs(ids)
	a.Suggest = []string{"gate " + g.Name}
	return a, nil
}

// defaultVerdict says whether g is on by default in v, starting "Yes — ",
// "No — " or "I can't say".
func (c *catalog) defaultVerdict(g *knowledge.FeatureGate, v knowledge.Version) string {
	reads := c.gates.Reads()
	_, read := c.gates.Read(v)
	if !read {
		return fmt.Sprintf("I can't say: I have not read the code of %s; the releases I read are %s-%s. Ask gate %s for them.",
			v, reads[0].Release, c.gates.Newest(), g.Name)
	}
	where := ""
	if g.Kubeadm {
		where = " (kubeadm's own gate, set in ClusterConfiguration.featureGates)"
	}
	if d, ok := g.At(v); ok {
		w := fmt.Sprintf("in %s %s%s is %s and %s by default", v, g.Spelling(d), where, d.Stage.Label(), onOff(d.Default))
		switch {
		case d.Locked:
			w += fmt.Sprintf(", locked: it cannot be turned %s (setting it to %t stops the component)", onOff(!d.Default), !d.Default)
		case d.Default:
			w += fmt.Sprintf("; --feature-gates=%s=false turns it off", g.Spelling(d))
		default:
			w += fmt.Sprintf("; --feature-gates=%s=true turns it on", g.Spelling(d))
		}
		if d.Stage == knowledge.GateDeprecated {
			w += ". It is deprecated and will be removed"
		}
		if d.Default {
			return "Yes — " + w + "."
		}
		return "No — " + w + "."
	}
	if !c.gates.Absent(g, v, nil) {
		return "I can't say: " + unreadWords(g, c.gates.Unread(g, v, nil), v) + "."
	}
	first := g.Releases[0]
	refused := fmt.Sprintf("A %s component given it does not start (unrecognized feature gate)", v)
	gone := "a component given it does not start: unrecognized feature gate"
	if g.Kubeadm {
		refused = fmt.Sprintf("It is not among kubeadm %s's feature gates (its --feature-gates flag refuses such a key)", v)
		gone = "no longer among kubeadm's feature gates"
	}
	if v.Less(first.Release) {
		return fmt.Sprintf("No — %s does not declare %s yet: it is first declared in %s (%s, %s). %s.",
			v, g.Name, first.Release, first.Stage.Label(), knowledge.SpecWords(first.GateSpec), refused)
	}
	last := g.Last()
	if last.Release.Less(v) {
		removed := knowledge.RemovedWords(g.RemovedIn, g.RemovedBy)
		if g.RemovedIn.IsZero() {
			removed = v.String()
		}
		gone := fmt.Sprintf("%s no longer declares %s: it was removed in %s (%s); in %s it was %s and %s",
			v, g.Name, removed, gone, last.Release, last.Stage.Label(), knowledge.SpecWords(last.GateSpec))
		switch {
		case last.Locked && last.Default:
			return "Yes — " + gone + ", so what it turned on is on for good."
		case last.Locked:
			return "No — " + gone + ", so what it turned on is off for good."
		}
		return "I can't say: " + gone + "; what it guarded is not declared any more."
	}
	return fmt.Sprintf("I can't say: %s does not declare %s, though releases before and after it do.", v, g.Name)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// unreadWords says why whether release v declares g is not known: "the
// code of k8s.io/controller-manager 1.27 was not read (it declares
// IPv6DualStack up to 1.26); k8s.io/kubernetes removed it in 1.25".
func unreadWords(g *knowledge.FeatureGate, unread []string, v knowledge.Version) string {
	var parts []string
	for _, m := range g.Modules {
		last := knowledge.Version{}
		for _, r := range m.Releases {
			if r.Less(v) {
				last = r
			}
		}
		switch {
		case slices.Contains(unread, m.Module) && !last.IsZero():
			parts = append([]string{fmt.Sprintf("the code of %s %s was not read (it declares %s up to %s)", m.Module, v, g.Name, last)}, parts...)
		case slices.Contains(unread, m.Module):
			parts = append([]string{fmt.Sprintf("the code of %s %s was not read", m.Module, v)}, parts...)
		case !m.RemovedIn.IsZero() && !v.Less(m.RemovedBy) && !m.RemovedBy.IsZero():
			parts = append(parts, fmt.Sprintf("%s removed it in %s", m.Module, knowledge.RemovedWords(m.RemovedIn, m.RemovedBy)))
		}
	}
	return strings.Join(parts, "; ")
}
