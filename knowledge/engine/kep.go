package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// enhancementsTree is where KEP folders live on GitHub.
const enhancementsTree = "https://github.com/kubernetes/enhancements/tree/master/"

// answerKEP answers `kep N`: the KEP's facts, its timeline, what each
// document said of it, and where sources disagree (kepAnswer), from the
// catalog's KEP once the catalog is loaded, else from the store's. It is
// built for each question, in tens of microseconds, not kept ahead for
// every KEP; a repeated question is answered from the answer cache.
func (e *Engine) answerKEP(ctx context.Context, n int) (*knowledge.Answer, error) {
	if c := e.cat.Load(); c != nil {
		if k, ok := c.byNum[n]; ok {
			return e.kepAnswer(k, c.sources), nil
		}
		return nil, unknownKEP(n, c.sources)
	}
	k, err := e.kb.FindKEPByNumber(ctx, n)
	if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
		byID, serr := e.sources(ctx)
		if serr != nil {
			return nil, serr
		}
		return nil, unknownKEP(n, byID)
	}
	if err != nil {
		return nil, notFound(err, "find KEP-"+strconv.Itoa(n), "I don't know KEP-%d.", n)
	}
	byID, err := e.sources(ctx)
	if err != nil {
		return nil, err
	}
	return e.kepAnswer(k, byID), nil
}

// unknownKEP says that no kep.yaml held has number n, as of when (a KEP
// filed since is not known before a sync), and how else to find a KEP.
func unknownKEP(n int, sources map[string]knowledge.Source) error {
	asOf := ""
	for _, s := range sources {
		if s.Kind == knowledge.SourceKEPYAML && s.AsOf > asOf {
			asOf = s.AsOf
		}
	}
	msg := fmt.Sprintf("I don't know KEP-%d. No kep.yaml I hold has that number", n)
	if asOf != "" {
		msg += " (kubernetes/enhancements as of " + asOf + ")"
	}
	msg += "; ask search WORDS to find a KEP by its name or gate."
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: msg, Suggestions: []string{"help search"}}
}

// kepAnswer is the kep answer of k: its facts, timeline, what each
// document said of it and where sources disagree; byID names the sources.
func (e *Engine) kepAnswer(k *knowledge.KEP, byID map[string]knowledge.Source) *knowledge.Answer {
	f := kepFacts(k)
	notes := kepNotes(k, byID)
	if n := sharedGatesNote(k); n != "" {
		notes = append(notes, n)
	}
	return &knowledge.Answer{Kind: knowledge.KindKEP, Title: kepTitle(f), Text: kepSummary(f), KEP: f, Items: e.kepItems(k),
		Notes: notes, Sources: refsOf(byID, kepSourceIDs(k))}
}

// sharedGatesNote says which other KEPs name k's feature gates, with
// their status, so that a KEP withdrawn for a successor and the successor
// point at each other; "" when no other KEP names them.
func sharedGatesNote(k *knowledge.KEP) string {
	var parts []string
	for i := 0; i < len(k.SharedGates); {
		g := k.SharedGates[i].Gate
		var others []string
		for ; i < len(k.SharedGates) && k.SharedGates[i].Gate == g; i++ {
			o := k.SharedGates[i]
			what := "KEP-" + strconv.Itoa(o.KEP)
			if o.Status != "" {
				what += " (" + o.Status + ")"
			}
			others = append(others, what)
		}
		parts = append(parts, g+" is also named by "+strings.Join(others, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Feature gates shared with other KEPs: " + strings.Join(parts, "; ") + "."
}

func kepTitle(f *knowledge.KEPFacts) string {
	if f.Title == "" {
		return "KEP-" + strconv.Itoa(f.Number)
	}
	return "KEP-" + strconv.Itoa(f.Number) + ": " + f.Title
}

// kepSourceIDs lists the sources that speak of k: kep.yaml first, then the
// documents in the order of its history.
func kepSourceIDs(k *knowledge.KEP) []string {
	ids := []string{k.Source}
	for _, m := range k.History {
		ids = append(ids, m.Source)
	}
	for _, ch := range k.Changes {
		ids = append(ids, ch.Source)
	}
	return ids
}

// kepFacts gathers the KEP part of an answer. Milestones are the stages k
// reached (kep.yaml's when known, else the notes'), Targets the kep.yaml
// milestones it has not reached.
func kepFacts(k *knowledge.KEP) *knowledge.KEPFacts {
	reached := k.Reached()
	f := &knowledge.KEPFacts{
		Number: k.Number, Title: k.Title, SIG: k.SIG, Status: k.Status, Stage: k.CurrentStage(),
		Milestones: make(map[string]string, len(reached)), Targets: map[string]string{},
		FeatureGates: k.Gates(), Timeline: k.Timeline(),
	}
	for _, m := range k.History {
		if f.Title == "" {
			f.Title = m.Title
		}
		if f.SIG == "" {
			f.SIG = m.SIG
		}
	}
	for s, v := range reached {
		f.Milestones[s.String()] = v.String()
	}
	if k.HasYAML() { // k.Targets, without reading Reached again
		for _, s := range knowledge.GraduationStages {
			if v := k.Milestones[s.String()]; !v.IsZero() {
				if _, ok := reached[s]; !ok {
					f.Targets[s.String()] = v.String()
					switch {
					case k.Released.IsZero() || k.Released.Less(v):
					case !k.YAMLThrough.IsZero() && k.YAMLThrough.Less(v):
						// out since kep.yaml was written: a plan nothing that shipped confirms
						f.Unconfirmed = setStage(f.Unconfirmed, s, v)
					default:
						f.Missed = setStage(f.Missed, s, v) // planned for a release that was out, not reached
					}
				}
			}
		}
		f.Disputed = disputed(k)
		if len(k.Shipped) > 0 {
			f.Shipped = k.Shipped
			f.KEPYAML = map[string]string{}
			for _, s := range knowledge.GraduationStages {
				if v := k.Milestones[s.String()]; !v.IsZero() {
					f.KEPYAML[s.String()] = v.String()
				}
			}
		}
	}
	f.Links = make([]knowledge.Link, 1, 2)
	f.Links[0] = kepLink(k.Number)
	if k.Path != "" {
		f.Links = append(f.Links, knowledge.Link{Title: "enhancements folder", URL: enhancementsTree + strings.TrimPrefix(k.Path, "/")})
	}
	for i, ch := range k.Changes {
		f.ReleaseNotes = append(f.ReleaseNotes, knowledge.ChangeRef{Release: ch.Release.String(), PR: ch.PR, Kinds: ch.Kinds, URL: ch.URL})
		if i < maxChangeLinks && ch.URL != "" {
			f.Links = append(f.Links, knowledge.Link{Title: changeLinkTitle(ch), URL: ch.URL})
		}
	}
	return f
}

// maxChangeLinks is how many release-note entries a KEP answer links to;
// KEPFacts.ReleaseNotes lists them all.
const maxChangeLinks = 6

// changeLinkTitle names a release-note entry in a KEP's links: "1.33
// feature, PR #128974: Added …".
func changeLinkTitle(ch knowledge.Change) string {
	t := ch.Release.String()
	if kinds := mainKinds(ch.Kinds); len(kinds) > 0 {
		t += " " + strings.Join(kinds, "/")
	}
	t += ", PR #" + strconv.Itoa(ch.PR)
	if s := strings.TrimRight(prose.FirstSentence(ch.Text), ".。"); s != "" {
		t += ": " + prose.ClipRunes(s, 80)
	}
	return t
}

// disputed says, for each stage what shipped and kep.yaml date
// otherwise (k's DisagreeShipped), both with their sources: what shipped
// first when it dates the stage ("by the code of 1.30 (X) and PR #1;
// kep.yaml says beta in 1.35"), kep.yaml first when its earlier date
// stands ("by kep.yaml; the code of 1.33 still declares X beta; every own
// gate is GA from 1.34"). Nil when they agree.
func disputed(k *knowledge.KEP) map[string]string {
	var out map[string]string
	for _, d := range k.Disagreements {
		if d.Kind != knowledge.DisagreeShipped || !d.Stage.IsGraduation() {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		w := ""
		if sh, ok := k.ShippedAt(d.Stage); ok {
			w = "by " + sh.Evidence() + "; " + d.Claim
		} else {
			w = "by kep.yaml; " + d.Claim
		}
		if prev := out[d.Stage.String()]; prev != "" {
			w = prev + "; " + d.Claim
		}
		out[d.Stage.String()] = w
	}
	return out
}

// kepSummary is the one- or two-line text of a kep answer.
func kepSummary(f *knowledge.KEPFacts) string { return kepSummarySaid(f, knowledge.StageNone) }

// kepSummarySaid is kepSummary for an answer whose verdict said already
// what the sources say of stage said.
func kepSummarySaid(f *knowledge.KEPFacts, said knowledge.Stage) string {
	var b strings.Builder
	b.WriteString("KEP-")
	b.WriteString(strconv.Itoa(f.Number))
	if f.SIG != "" {
		b.WriteString(" (" + f.SIG + ")")
	}
	switch {
	case f.Stage == knowledge.StageNone && f.Status != "":
		fmt.Fprintf(&b, " has reached no stage yet; its kep.yaml status is %s.", f.Status)
	case f.Stage == knowledge.StageNone:
		b.WriteString(" has no stage stated in the documents I have.")
	default:
		fmt.Fprintf(&b, " is %s", f.Stage.Label())
		if reached := knowledge.ReachedWithSources(f.Milestones, f.Disputed, said); reached != "" {
			b.WriteString(": " + reached)
		}
		b.WriteString(".")
	}
	if t := knowledge.ReachedList(knowledge.Without(knowledge.Without(f.Targets, f.Missed), f.Unconfirmed)); t != "" {
		b.WriteString(" Planned: " + t + ".")
	}
	if m := missedList(f.Missed); m != "" {
		b.WriteString(" " + m + ".")
	}
	if u := unconfirmedList(f.Unconfirmed); u != "" {
		b.WriteString(" " + u + ".")
	}
	for _, st := range f.Timeline {
		if st.Stage == knowledge.StageDeprecated || st.Stage == knowledge.StageRemoved {
			fmt.Fprintf(&b, " %s in %s.", capitalize(st.Stage.Label()), st.Release)
		}
	}
	switch len(f.FeatureGates) {
	case 0:
	case 1:
		b.WriteString(" Feature gate: " + f.FeatureGates[0] + ".")
	default:
		b.WriteString(" Feature gates: " + strings.Join(f.FeatureGates, ", ") + ".")
	}
	return b.String()
}

// kepItems lists what each document said of k, oldest release first.
func (e *Engine) kepItems(k *knowledge.KEP) []knowledge.Item {
	items := make([]knowledge.Item, 0, len(k.History))
	for _, m := range k.History {
		items = append(items, knowledge.Item{KEP: k.Number, Title: m.Title, Stage: m.Stage, Release: m.Release,
			Text: knowledge.Quote(m.Text, e.maxQuote), SIG: m.SIG, Source: m.Source})
	}
	return items
}

// kindOrder ranks the kinds of a release-note entry by what an upgrade
// cares about most.
var kindOrder = []string{"deprecation", "api-change", "feature", "bug", "regression", "cleanup", "documentation"}

// mainKinds returns at most two of kinds, the most telling first.
func mainKinds(kinds []string) []string {
	var out []string
	for _, k := range kindOrder {
		if len(out) < 2 && slices.Contains(kinds, k) {
			out = append(out, k)
		}
	}
	for _, k := range kinds {
		if len(out) < 2 && !slices.Contains(out, k) && !slices.Contains(kindOrder, k) {
			out = append(out, k)
		}
	}
	return out
}

// kepLink is a KEP's short link: "KEP-4639", https://kep.k8s.io/4639.
func kepLink(n int) knowledge.Link {
	num := strconv.Itoa(n)
	return knowledge.Link{Title: "KEP-" + num, URL: "https://kep.k8s.io/" + num}
}

// missedList says the stages planned for a release that is out and not
// reached: "GA was planned for 1.28, not reached", in stage order.
func missedList(m map[string]string) string {
	var parts []string
	for _, s := range knowledge.GraduationStages {
		if v, ok := m[s.String()]; ok {
			parts = append(parts, s.Label()+" was planned for "+v)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return capitalize(strings.Join(parts, ", ")) + ", not reached"
}

// unconfirmedList says the stages kep.yaml planned for a release that came
// out after it was written and that nothing that shipped confirms: "Beta
// was planned for 1.37, which is out; nothing that shipped confirms it".
func unconfirmedList(m map[string]string) string {
	var parts []string
	for _, s := range knowledge.GraduationStages {
		if v, ok := m[s.String()]; ok {
			parts = append(parts, s.Label()+" was planned for "+v)
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return capitalize(parts[0]) + ", which is out; nothing that shipped confirms it"
	}
	return capitalize(strings.Join(parts, ", ")) + ", which are out; nothing that shipped confirms them"
}

// setStage sets stage s to release v in m, making m when it is nil.
func setStage(m map[string]string, s knowledge.Stage, v knowledge.Version) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[s.String()] = v.String()
	return m
}
