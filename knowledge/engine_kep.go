package knowledge

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// enhancementsTree is where KEP folders live on GitHub.
const enhancementsTree = "https://github.com/kubernetes/enhancements/tree/master/"

// answerKEP answers `kep N`: the KEP's facts, its timeline, what each
// document said of it, and where sources disagree.
func (e *Engine) answerKEP(ctx context.Context, n int) (*Answer, error) {
	k, err := e.kb.FindKEPByNumber(ctx, n)
	if err != nil {
		return nil, notFound(err, "find KEP-"+strconv.Itoa(n), "I don't know KEP-%d.", n)
	}
	refs, byID, err := e.sourceRefs(ctx, kepSourceIDs(k))
	if err != nil {
		return nil, err
	}
	f := kepFacts(k)
	a := &Answer{Kind: KindKEP, Title: kepTitle(f), KEP: f, Sources: refs}
	a.Text = kepSummary(f)
	a.Items = e.kepItems(k)
	a.Notes = kepNotes(k, byID)
	return a, nil
}

func kepTitle(f *KEPFacts) string {
	if f.Title == "" {
		return fmt.Sprintf("KEP-%d", f.Number)
	}
	return fmt.Sprintf("KEP-%d: %s", f.Number, f.Title)
}

// kepSourceIDs lists the sources that speak of k: kep.yaml first, then the
// documents in the order of its history.
func kepSourceIDs(k *KEP) []string {
	ids := []string{k.Source}
	for _, m := range k.History {
		ids = append(ids, m.Source)
	}
	return ids
}

// kepFacts gathers the KEP part of an answer. Milestones are the stages k
// reached (kep.yaml's when known, else the notes'), Targets the kep.yaml
// milestones it has not reached.
func kepFacts(k *KEP) *KEPFacts {
	f := &KEPFacts{
		Number: k.Number, Title: k.Title, SIG: k.SIG, Status: k.Status, Stage: k.CurrentStage(),
		Milestones: map[string]string{}, Targets: map[string]string{},
		FeatureGates: []string{}, Timeline: k.Timeline(),
	}
	for _, m := range k.History {
		if f.Title == "" {
			f.Title = m.Title
		}
		if f.SIG == "" {
			f.SIG = m.SIG
		}
	}
	for s, v := range k.Reached() {
		f.Milestones[s.String()] = v.String()
	}
	for s, v := range k.Targets() {
		f.Targets[s.String()] = v.String()
	}
	f.FeatureGates = kepGates(k)
	f.Links = []Link{{Title: fmt.Sprintf("KEP-%d", k.Number), URL: fmt.Sprintf("https://kep.k8s.io/%d", k.Number)}}
	if k.Path != "" {
		f.Links = append(f.Links, Link{Title: "enhancements folder", URL: enhancementsTree + strings.TrimPrefix(k.Path, "/")})
	}
	return f
}

// kepGates lists k's feature gates and those its history names, each once.
func kepGates(k *KEP) []string {
	out := []string{}
	add := func(gs []string) {
		for _, g := range gs {
			dup := g == ""
			for _, o := range out {
				dup = dup || strings.EqualFold(o, g)
			}
			if !dup {
				out = append(out, g)
			}
		}
	}
	add(k.FeatureGates)
	for _, m := range k.History {
		add(m.FeatureGates)
	}
	return out
}

// kepSummary is the one- or two-line text of a kep answer.
func kepSummary(f *KEPFacts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "KEP-%d", f.Number)
	if f.SIG != "" {
		fmt.Fprintf(&b, " (%s)", f.SIG)
	}
	if f.Stage == StageNone {
		b.WriteString(" has no stage stated in the documents I have.")
	} else {
		fmt.Fprintf(&b, " is %s", f.Stage.Label())
		if reached := reachedList(f.Milestones); reached != "" {
			b.WriteString(": " + reached)
		}
		b.WriteString(".")
	}
	if t := reachedList(f.Targets); t != "" {
		b.WriteString(" Planned: " + t + ".")
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

// reachedList writes a stage map as "alpha in 1.29, beta in 1.31", in stage order.
func reachedList(m map[string]string) string {
	var parts []string
	for _, s := range GraduationStages {
		if v, ok := m[s.String()]; ok {
			parts = append(parts, s.Label()+" in "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// kepItems lists what each document said of k, oldest release first.
func (e *Engine) kepItems(k *KEP) []Item {
	items := make([]Item, 0, len(k.History))
	for _, m := range k.History {
		items = append(items, Item{KEP: k.Number, Title: m.Title, Stage: m.Stage, Release: m.Release,
			Text: quote(m.Text, e.maxQuote), SIG: m.SIG, Source: m.Source})
	}
	return items
}

// kepNotes says where the sources disagree about k: two documents giving
// one release different stages, a document that kep.yaml contradicts, and a
// step back to an earlier stage.
func kepNotes(k *KEP, byID map[string]Source) []string {
	var notes []string
	add := func(format string, args ...any) {
		n := fmt.Sprintf(format, args...)
		for _, o := range notes {
			if o == n {
				return
			}
		}
		notes = append(notes, n)
	}
	name := func(id string) string {
		if s, ok := byID[id]; ok {
			return sourceName(s)
		}
		return id
	}
	// Documents that give one release different graduation stages.
	for i, a := range k.History {
		for _, b := range k.History[i+1:] {
			if a.Release == b.Release && a.Stage != b.Stage && a.Stage.IsGraduation() && b.Stage.IsGraduation() && a.Source != b.Source {
				add("Sources differ on %s: %s says %s, %s says %s.", a.Release, name(a.Source), a.Stage.Label(), name(b.Source), b.Stage.Label())
			}
		}
	}
	if k.HasYAML() {
		reached := k.Reached()
		for _, m := range k.History {
			if !m.Stage.IsGraduation() {
				continue
			}
			v, ok := reached[m.Stage]
			switch {
			case !ok:
				add("%s says %s in %s, but kep.yaml has it at %s; I go by kep.yaml.", name(m.Source), m.Stage.Label(), m.Release, k.Stage.Label())
			case v != m.Release:
				add("%s says %s in %s, but kep.yaml says %s in %s; I go by kep.yaml.", name(m.Source), m.Stage.Label(), m.Release, m.Stage.Label(), v)
			}
		}
		return notes
	}
	prev := StageNone
	for _, st := range k.Timeline() {
		if st.Back {
			add("It stepped back from %s to %s in %s.", prev.Label(), st.Stage.Label(), st.Release)
		}
		if st.Stage.IsGraduation() {
			prev = st.Stage
		}
	}
	return notes
}

// answerGate answers `gate NAME`: the KEP (or KEPs) that carry the feature
// gate, and the notices that name it. Case does not matter.
func (e *Engine) answerGate(ctx context.Context, name string) (*Answer, error) {
	nums, err := e.kb.ListKEPNumbers(ctx)
	if err != nil {
		return nil, fmt.Errorf("list KEPs: %w", err)
	}
	var matches []*KEP
	seen := map[string]bool{}
	var all []string // every gate known, for "did you mean"
	gate := name
	for _, n := range nums {
		k, err := e.kb.FindKEPByNumber(ctx, n)
		if err != nil {
			return nil, fmt.Errorf("find KEP-%d: %w", n, err)
		}
		hit := false
		for _, g := range kepGates(k) {
			if strings.EqualFold(g, name) {
				hit, gate = true, g
			}
			if !seen[strings.ToLower(g)] {
				seen[strings.ToLower(g)] = true
				all = append(all, g)
			}
		}
		if hit {
			matches = append(matches, k)
		}
	}
	notices, err := e.gateNotices(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 && len(notices) == 0 {
		return nil, &Error{Code: ENOTFOUND, Message: fmt.Sprintf("I don't know a feature gate named %s.", echo(name)),
			Suggestions: prefixAll("gate ", closestFold(name, all))}
	}
	a := &Answer{Kind: KindGate, Title: "Feature gate " + gate, Notices: notices}
	var ids []string
	for _, k := range matches {
		ids = append(ids, kepSourceIDs(k)...)
	}
	for _, n := range notices {
		ids = append(ids, n.Source)
	}
	refs, byID, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a.Sources = refs
	switch len(matches) {
	case 0:
		a.Text = fmt.Sprintf("%s belongs to no KEP I know; %s.", gate, plural(len(notices), "notice names it", "notices name it"))
	case 1:
		k := matches[0]
		a.KEP = kepFacts(k)
		a.Items = e.kepItems(k)
		a.Notes = kepNotes(k, byID)
		a.Text = fmt.Sprintf("%s is the feature gate of %s.", gate, kepTitle(a.KEP))
		if a.KEP.Stage != StageNone {
			a.Text += " It is " + a.KEP.Stage.Label()
			if r := reachedList(a.KEP.Milestones); r != "" {
				a.Text += ": " + r
			}
			a.Text += "."
		}
	default:
		for _, k := range matches {
			f := kepFacts(k)
			a.Items = append(a.Items, Item{KEP: k.Number, Title: f.Title, Stage: f.Stage, Release: lastRelease(k), SIG: f.SIG})
		}
		a.Text = fmt.Sprintf("%d KEPs name the feature gate %s.", len(matches), gate)
	}
	return a, nil
}

// gateNotices returns every notice of every release that names gate.
func (e *Engine) gateNotices(ctx context.Context, gate string) ([]Notice, error) {
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	var out []Notice
	for _, r := range rels {
		ns, err := e.kb.FindNotices(ctx, r.Version, "")
		if err != nil {
			return nil, fmt.Errorf("find notices of %s: %w", r.Version, err)
		}
		for _, n := range ns {
			for _, g := range n.FeatureGates {
				if strings.EqualFold(g, gate) {
					out = append(out, n)
					break
				}
			}
		}
	}
	return out, nil
}

// lastRelease is the release of the last step of k's timeline.
func lastRelease(k *KEP) Version {
	tl := k.Timeline()
	if len(tl) == 0 {
		return Version{}
	}
	return tl[len(tl)-1].Release
}

// closestFold is closest ignoring case, answering with vocab's spelling.
func closestFold(w string, vocab []string) []string {
	lower := make([]string, len(vocab))
	back := map[string]string{}
	for i, v := range vocab {
		lower[i] = strings.ToLower(v)
		back[lower[i]] = v
	}
	var out []string
	for _, c := range closest(strings.ToLower(w), lower) {
		out = append(out, back[c])
		if len(out) == maxSuggestions {
			break
		}
	}
	return out
}
