package question

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// feature reads a question about a feature named in words, not by number:
// a feature gate (gate X, or X written like one), or a name the vocabulary
// resolves to one KEP — its card, or with a stage, whether it is at that
// stage (in the release given). Several KEPs matching the name, or none,
// make an error offering the closest.
func (r *reading) feature(q knowledge.Question, v *Vocabulary) (knowledge.Question, *knowledge.Error) {
	if q, err, ok := r.gate(q, v); ok {
		return q, err
	}
	words := r.words()
	if v == nil || len(v.keps) == 0 {
		return q, r.unsure("I can't look up features by name here; ask by KEP number, or search.",
			[]string{"search " + searchWords(words)})
	}
	f := v.resolve(words)
	if len(f.best) > 0 && r.absorb(v, f.best[0].kep) {
		words = r.words()
		f = v.resolve(words)
	}
	bare := !r.asks && !r.yesNo && r.intents == 0 && len(r.stages) == 0 && r.weak == knowledge.StageNone
	if !f.sure || (bare && f.best[0].ncov < 0.75) {
		if bare && len(f.unknown) > 0 {
			return q, r.offTopic() // "deploy prod now": words, one of them in a name
		}
		return q, r.choose(words, f)
	}
	q.Kind, q.KEP = knowledge.AskKEP, v.keps[v.answersFor(f.best[0].kep)].number
	if st := r.stage(); st != knowledge.StageNone && (r.yesNo || len(r.versions) == 1 || !r.wh) {
		q.Stage = st
		if len(r.versions) == 1 {
			q.Version = r.versions[0]
		}
	} else if len(r.stages) > 1 {
		return q, r.notAll(q)
	} // a release without a stage: the card says what stage it held when
	if r.intents&^(intentNew|intentGate|intentSupported) != 0 {
		return q, r.notAll(q) // "is sidecar supported" is its card; "sidecar patches" is not clear
	}
	return q, nil
}

// gate reads a question about a feature gate: ok is false when there is
// none to read.
func (r *reading) gate(q knowledge.Question, v *Vocabulary) (knowledge.Question, *knowledge.Error, bool) {
	name, camel := r.gateWord()
	if !camel && r.intents.has(intentGate) && len(r.content) == 1 && isGateName(r.content[0].raw) {
		name = r.content[0].raw
	}
	if name == "" {
		return q, nil, false
	}
	if _, spelt, ok := v.gateNamed(name); ok {
		name = spelt
	} else if !r.intents.has(intentGate) {
		return q, nil, false // CamelCase, but no gate: maybe a name
	}
	if !r.intents.has(intentGate) && (r.stage() != knowledge.StageNone || len(r.versions) > 0) {
		return q, nil, false // "is SidecarContainers GA": a feature, named by its gate
	}
	q.Kind, q.Words = knowledge.AskGate, name
	if len(r.content) > 1 || len(r.versions) > 0 || r.stage() != knowledge.StageNone {
		r.content = slices.DeleteFunc(slices.Clone(r.content), func(t token) bool { return t.raw == name || strings.EqualFold(t.raw, name) })
		return q, r.notAll(q), true
	}
	return q, nil, true
}

// choose is the error for a feature name that matches several KEPs, or
// none well: it names the closest and offers their questions.
func (r *reading) choose(words []string, f feature) *knowledge.Error {
	var ms []match
	for _, m := range f.best {
		if m.qcov >= 0.5 && !f.weak {
			ms = append(ms, m)
		}
	}
	name := knowledge.Short(strings.Join(words, " "))
	if len(ms) == 0 {
		if r.stage() != knowledge.StageNone || r.yesNo || r.intents != 0 || len(r.versions) > 0 {
			return r.unsure("I don't know a feature called "+name+". Try search, a feature gate or a KEP number.",
				[]string{"search " + searchWords(words)})
		}
		return r.offTopic()
	}
	var b strings.Builder
	b.WriteString("Several KEPs match " + name + ": ")
	var alts []string
	for i, m := range ms {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString("KEP-" + strconv.Itoa(m.Number))
		if m.Title != "" {
			b.WriteString(" " + m.Title)
		}
		alt := knowledge.Question{Kind: knowledge.AskKEP, KEP: m.Number}
		if st := r.stage(); st != knowledge.StageNone && (r.yesNo || len(r.versions) == 1 || !r.wh) {
			alt.Stage = st
			if len(r.versions) == 1 {
				alt.Version = r.versions[0]
			}
		}
		alts = append(alts, alt.Canonical())
	}
	if len(ms) == 1 {
		b.Reset()
		b.WriteString("Did you mean KEP-" + strconv.Itoa(ms[0].Number) + " " + ms[0].Title + "? It matches " + name + " only in part")
	}
	b.WriteString(". Which one?")
	if len(ms) == 1 {
		return r.unsure(strings.Replace(b.String(), ". Which one?", ".", 1), alts)
	}
	return r.unsure(b.String(), alts)
}

// searchWords writes words for a search question: lower case, letters and
// digits only.
func searchWords(words []string) string {
	var out []string
	for _, w := range words {
		if e := knowledge.Echo(strings.ToLower(w)); e != "that" {
			out = append(out, strings.Trim(e, ".-_:"))
		}
	}
	return strings.Join(out, " ")
}

// sigNames lists the SIGs the vocabulary knows, sorted.
func (v *Vocabulary) sigNames() []string {
	out := make([]string, 0, len(v.sigs))
	for s := range v.sigs {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// absorb widens the words of a feature's name to the words of the lexicon
// between and around them that a name of KEP i holds, and forgets what
// those words asked: in "is the pod lifecycle sleep action GA?", lifecycle
// and action are part of KEP-3960's name, not an end of life and upgrade
// notes. It reports whether it took any word.
func (r *reading) absorb(v *Vocabulary, i int32) bool {
	if len(r.content) == 0 {
		return false
	}
	lo, hi := r.content[0].pos, r.content[len(r.content)-1].pos
	part := func(t token) bool {
		return t.kind == tokWord && !t.inWord && (t.sense.role == roleIntent || t.sense.role == roleFiller) &&
			!stopWords[t.text] && v.nameHas(i, t.text)
	}
	for lo > 0 && part(r.toks[lo-1]) {
		lo--
	}
	for hi+1 < len(r.toks) && part(r.toks[hi+1]) {
		hi++
	}
	took := false
	for _, t := range r.toks[lo : hi+1] {
		took = took || part(t)
	}
	if !took {
		return false
	}
	var span []token
	for _, t := range r.toks[lo : hi+1] {
		if (t.sense.role == roleNone && !t.inWord && (t.kind == tokWord || t.kind == tokHanRun)) || part(t) {
			span = append(span, t)
		}
	}
	r.content = span
	r.intents = 0
	for _, t := range r.toks {
		if !t.inWord && t.sense.role == roleIntent && (t.pos < lo || t.pos > hi || !part(t)) {
			r.intents |= t.sense.intent
		}
	}
	return true
}
