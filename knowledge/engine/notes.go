package engine

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// maxDisagreementNotes is how many lines on disagreeing documents a KEP
// answer shows before "and N more".
const maxDisagreementNotes = 3

// kepNotes says where documents disagree about k: a line for each claim of
// k.Disagreements (Compile finds them; what shipped is trusted for stages,
// then kep.yaml, and kep.yaml for names), documents making the same claim
// sharing a line; where what shipped and kep.yaml date a stage otherwise,
// the summary says both (KEPFacts.Disputed), not a note. For a KEP no
// kep.yaml knows, it also says where documents give one release different
// stages and where the KEP stepped back. At most maxDisagreementNotes lines,
// then one saying how many more there are. byID names the sources.
func kepNotes(k *knowledge.KEP, byID map[string]knowledge.Source) []string {
	name := func(id string, first bool) string {
		n := id
		if s, ok := byID[id]; ok {
			n = knowledge.SourceName(s)
		}
		switch {
		case strings.HasPrefix(n, "Kubernetes ") && first:
			return "The " + n
		case strings.HasPrefix(n, "Kubernetes "):
			return "the " + n
		case first:
			return capitalize(n)
		}
		return n
	}
	var lines []string
	for _, g := range groupDisagreements(k.Disagreements) {
		if g[0].Kind == knowledge.DisagreeShipped {
			continue // the summary says both, stage by stage (KEPFacts.Disputed)
		}
		who := name(g[0].Source, true)
		for i, d := range g[1:] {
			sep := ", "
			if i == len(g)-2 {
				sep = " and "
			}
			who += sep + name(d.Source, false)
		}
		lines = append(lines, disagreementLine(k, g[0], who, len(g) > 1))
	}
	if !k.HasYAML() {
		lines = append(lines, noteConflicts(k, func(id string) string { return name(id, false) })...)
	}
	if n := len(k.Changes); n > maxChangeLinks {
		lines = append(lines, fmt.Sprintf("%d release-note entries link to it; the links show the first %d (--json lists all).", n, maxChangeLinks))
	}
	if len(lines) > maxDisagreementNotes+1 {
		more := len(lines) - maxDisagreementNotes
		lines = append(lines[:maxDisagreementNotes:maxDisagreementNotes], fmt.Sprintf("And %d more (bot check lists all).", more))
	}
	return lines
}

// groupDisagreements puts disagreements that make the same claim (kind,
// release, stage, likely KEP) together, in first-seen order.
func groupDisagreements(ds []knowledge.Disagreement) [][]knowledge.Disagreement {
	type key struct {
		kind    knowledge.DisagreementKind
		release knowledge.Version
		stage   knowledge.Stage
		likely  int
	}
	at := map[key]int{}
	var out [][]knowledge.Disagreement
	for _, d := range ds {
		kk := key{d.Kind, d.Release, d.Stage, d.Likely}
		if d.Kind == knowledge.DisagreeGATwice || d.Kind == knowledge.DisagreeStageTwice {
			kk.release = knowledge.Version{} // one line for the whole story
		}
		i, ok := at[kk]
		if !ok {
			at[kk] = len(out)
			out = append(out, nil)
			i = len(out) - 1
		}
		out[i] = append(out[i], d)
	}
	return out
}

// disagreementLine writes one claim and what the trusted record says.
// who names the documents making it; many says there are several.
func disagreementLine(k *knowledge.KEP, d knowledge.Disagreement, who string, many bool) string {
	verb := func(one, several string) string {
		if many {
			return several
		}
		return one
	}
	switch d.Kind {
	case knowledge.DisagreeName:
		title := ""
		for _, m := range k.History {
			if m.Source == d.Source && m.Release == d.Release && m.Stage == d.Stage {
				title = m.Title
				break
			}
		}
		if title == "" {
			break
		}
		return fmt.Sprintf("%s %s this KEP '%s'; kep.yaml names it '%s' — it likely means KEP-%d.", who, verb("calls", "call"), title, k.Title, d.Likely)
	case knowledge.DisagreeRelease:
		said := fmt.Sprintf("%s %s %s in %s", who, verb("says", "say"), d.Stage.Label(), d.Release)
		if sh, ok := k.ShippedAt(d.Stage); ok {
			return fmt.Sprintf("%s; %s in %s by %s — I go by what shipped.", said, d.Stage.Label(), sh.Release, sh.Evidence())
		}
		if v, ok := k.Reached()[d.Stage]; ok {
			return fmt.Sprintf("%s; kep.yaml says %s in %s — I go by kep.yaml.", said, d.Stage.Label(), v)
		}
		at := "at no stage yet"
		if k.Stage != knowledge.StageNone {
			at = "at " + k.Stage.Label()
		}
		if t := k.Milestones[d.Stage.String()]; !t.IsZero() {
			return fmt.Sprintf("%s; kep.yaml has it %s, with %s planned for %s — I go by kep.yaml.", said, at, d.Stage.Label(), t)
		}
		return fmt.Sprintf("%s; kep.yaml has it %s — I go by kep.yaml.", said, at)
	case knowledge.DisagreeGATwice:
		return fmt.Sprintf("It is %s; %s.", d.Claim, d.Trusted)
	case knowledge.DisagreeStageTwice:
		return fmt.Sprintf("%s — the notes disagree; %s.", capitalize(d.Claim), d.Trusted)
	case knowledge.DisagreeShipped:
		// what shipped first: "Beta in 1.30 by the code of 1.30 (X) and PR #1; kep.yaml says beta in 1.35."
		return fmt.Sprintf("%s; %s.", capitalize(d.Trusted), d.Claim)
	}
	return fmt.Sprintf("%s; %s.", capitalize(d.Claim), d.Trusted)
}

// noteConflicts says, for a KEP only documents know, where two documents
// give one release different stages and where it stepped back.
func noteConflicts(k *knowledge.KEP, name func(string) string) []string {
	var out []string
	add := func(format string, args ...any) {
		n := fmt.Sprintf(format, args...)
		for _, o := range out {
			if o == n {
				return
			}
		}
		out = append(out, n)
	}
	for i, a := range k.History {
		for _, b := range k.History[i+1:] {
			if a.Release == b.Release && a.Stage != b.Stage && a.Stage.IsGraduation() && b.Stage.IsGraduation() && a.Source != b.Source {
				add("Sources differ on %s: %s says %s, %s says %s.", a.Release, name(a.Source), a.Stage.Label(), name(b.Source), b.Stage.Label())
			}
		}
	}
	prev := knowledge.StageNone
	for _, st := range k.Timeline() {
		if st.Back {
			add("It stepped back from %s to %s in %s.", prev.Label(), st.Stage.Label(), st.Release)
		}
		if st.Stage.IsGraduation() {
			prev = st.Stage
		}
	}
	return out
}
