package question

import (
	"context"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The arguments of a question — a feature gate, a SIG, an API kind — read
// against the names the reader knows. The grammar reads them as they are
// written; a gate or a SIG it does not know that is one or two edits from
// exactly one known name is read as that name, and the answer says so
// (read as: gate InPlacePodVerticalScaling); near several, they are
// offered. A name the reader knows, or one near none, is left as written:
// the engine answers it, or says it does not know it and offers its own
// closest. An API kind misspelt in chat is offered, as the engine offers
// it in the grammar (api Ingres: did you mean api Ingress).

// NoticeGateSource gives the feature gates the knowledge names outside
// kep.yaml (release-note notices name some no kep.yaml lists, and spell
// others their own way: GenericEphemeralVolume): names the reader must
// answer as typed, not read as a KEP's gate spelt near them. A KEPSource
// that is one is asked; *engine.Engine is one with Engine.NoticeGates.
type NoticeGateSource interface {
	NoticeGates(ctx context.Context) ([]string, error)
}

// noticeGate reports whether the source names gate in a notice.
func (r *Reader) noticeGate(ctx context.Context, gate string) bool {
	if r == nil {
		return false
	}
	src, ok := r.src.(NoticeGateSource)
	if !ok {
		return false
	}
	gates, err := src.NoticeGates(ctx)
	if err != nil {
		return true // unsure: as typed
	}
	return slices.ContainsFunc(gates, func(g string) bool { return strings.EqualFold(g, gate) })
}

// mended returns q with its argument read against v and the source's API
// kinds: unchanged, read as the one name near it (Free set), or an
// EBADINPUT error offering the names near it.
func (r *Reader) mended(ctx context.Context, q knowledge.Question, v *Vocabulary) (reply, error) {
	switch q.Kind {
	case knowledge.AskGate, knowledge.AskGateDefault:
		if v == nil || len(v.gateList) == 0 {
			break
		}
		if _, known := v.gates[strings.ToLower(q.Words)]; known || r.noticeGate(ctx, q.Words) || r.codeGate(ctx, q.Words) {
			break
		}
		switch near := v.nearGates(q.Words); len(near) {
		case 0:
		case 1:
			q.Words, q.Free = near[0], true
		default:
			alts := make([]string, len(near))
			for i, g := range near {
				alt := q
				alt.Words = g
				alts[i] = alt.Canonical()
			}
			return reply{q: q}, offer("I don't know a feature gate named "+knowledge.Echo(q.Words)+". Did you mean "+orList(near)+"?", alts)
		}
	case knowledge.AskSIG:
		if v == nil || len(v.sigs) == 0 || v.sigs[q.Words] {
			break
		}
		name, ok, near := v.nearSIG(q.Words)
		switch {
		case ok:
			q.Words, q.Free = name, true
		case len(near) > 0:
			return reply{q: q}, offer("I know no SIG named "+knowledge.Echo(q.Words)+". Did you mean "+orList(near)+"?", prefixAll("sig ", near))
		}
	case knowledge.AskAPI:
		// A kind is offered, not mended: the engine answers api Ingres with
		// "did you mean api Ingress", and chat gets the same offer.
		kinds := r.kindsOf(ctx)
		if !q.Free || len(kinds) == 0 {
			break
		}
		words := strings.Fields(q.Words)
		for i, w := range words {
			if strings.Contains(w, "/") || knowledge.IsAPIVersionName(strings.ToLower(w)) {
				continue
			}
			if _, ok := kinds[strings.ToLower(w)]; ok {
				continue
			}
			near := nearKinds(w, kinds)
			alts := make([]string, len(near))
			for j, k := range near {
				words[i] = k
				alts[j] = knowledge.Question{Kind: knowledge.AskAPI, Words: strings.Join(words, " "), Version: q.Version}.Canonical()
			}
			if len(near) > 0 {
				return reply{q: q}, offer("I know no API kind named "+knowledge.Echo(w)+". Did you mean "+orList(alts)+"?", alts)
			}
		}
	}
	return reply{q: q}, nil
}

// offer is an EBADINPUT error saying msg and offering the questions of
// suggestions the grammar reads.
func offer(msg string, suggestions []string) *knowledge.Error {
	return (*reading)(nil).unsure(msg, suggestions)
}

// orList writes names as "A", "A or B", "A, B or C".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// nameLimit is how many edits a misspelt name of n letters may be from
// the name meant: none under four letters, where a misspelling is as
// likely another name; one up to seven; two up to seventeen; three beyond.
func nameLimit(n int) int {
	switch {
	case n < 4:
		return 0
	case n <= 7:
		return 1
	case n < 18:
		return 2
	}
	return 3
}

// nearGates returns the feature gates nearest to w (not one of them),
// spelt as kep.yaml spells them, when any is within nameLimit edits; at
// most maxChoices, sorted.
func (v *Vocabulary) nearGates(w string) []string {
	if v == nil {
		return nil
	}
	lw := strings.ToLower(w)
	limit := nameLimit(len(lw))
	if limit == 0 {
		return nil
	}
	near := newNearest(limit)
	mw := letterMask(lw)
	for _, g := range v.gateList {
		if d := len(g.name) - len(lw); d > limit || -d > limit || bits.OnesCount32(mw^g.mask) > 2*limit {
			continue
		}
		near.offer(v.gateOf[g.name], within(lw, g.name, limit))
	}
	out := near.names
	sort.Strings(out)
	return out[:min(len(out), maxChoices)]
}

// nearSIG reads name, a SIG v does not know, as the one SIG within
// nameLimit edits of it (ok), or returns the SIGs close to it to offer:
// those as near, or whose names start with it (api: api-machinery).
func (v *Vocabulary) nearSIG(name string) (string, bool, []string) {
	sigs := v.sigNames()
	limit := nameLimit(len(name))
	nearest := newNearest(limit)
	for _, s := range sigs {
		if d := len(s) - len(name); d > limit || -d > limit {
			continue
		}
		nearest.offer(s, within(name, s, limit))
	}
	near := nearest.names
	if len(near) == 1 {
		return near[0], true, nil
	}
	if len(near) == 0 {
		near = knowledge.ClosestWords(name, sigs)
	}
	for _, s := range sigs {
		if len(name) >= 3 && strings.HasPrefix(s, name) && len(near) < maxChoices && !containsFold(near, s) {
			near = append(near, s)
		}
	}
	return "", false, near
}

// nearKinds returns the API kinds nearest to w, which kinds (lower case to
// spelling) does not hold: its singular (Ingresses, CronJobs), or those
// within nameLimit edits; at most maxChoices, sorted.
func nearKinds(w string, kinds map[string]string) []string {
	if k, ok := singularKind(w, kinds); ok {
		return []string{k}
	}
	lw := strings.ToLower(w)
	limit := nameLimit(len(lw))
	if limit == 0 {
		return nil
	}
	limit = min(limit, 2)
	near := newNearest(limit)
	for low, k := range kinds {
		near.offer(k, within(lw, low, limit))
	}
	out := near.names
	sort.Strings(out)
	return out[:min(len(out), maxChoices)]
}

// sigLeading is the error for a SIG question whose name the grammar made of
// several words, v knowing none of it, when its first words are a SIG, or
// one misspelt (sig-netwrok 最近在做什么): that SIG is offered, with what was
// not read. nil when they are not.
func (v *Vocabulary) sigLeading(q knowledge.Question) *knowledge.Error {
	parts := strings.Split(q.Words, "-")
	for n := min(len(parts)-1, 3); n >= 1; n-- {
		lead := strings.Join(parts[:n], "-")
		name, ok := lead, v.sigs[lead]
		if !ok {
			name, ok, _ = v.nearSIG(lead)
		}
		if ok {
			alt := knowledge.Question{Kind: knowledge.AskSIG, Words: name, Version: q.Version}.Canonical()
			return offer("I read that as "+alt+", but not "+knowledge.Short(strings.Join(parts[n:], " "))+". Is that what you mean?", []string{alt})
		}
	}
	return nil
}

// singularKind returns the kind of kinds w is the plural of: CronJobs,
// Ingresses.
func singularKind(w string, kinds map[string]string) (string, bool) {
	lw := strings.ToLower(w)
	for _, suffix := range []string{"es", "s"} {
		if base, ok := strings.CutSuffix(lw, suffix); ok && base != "" {
			if k, ok := kinds[base]; ok {
				return k, true
			}
		}
	}
	return "", false
}
