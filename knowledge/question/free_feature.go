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
	if !f.sure {
		if g, ok := r.gateAround(v); ok {
			words = []string{g} // watch list: the words next to the name make WatchList
			f = v.resolve(words)
		}
	}
	if len(f.best) > 0 && r.absorb(v, f.best[0].kep) {
		words = r.words()
		f = v.resolve(words)
	}
	bare := !r.asks && !r.yesNo && !r.kepWord && r.intents == 0 && len(r.stages) == 0 && r.weak == knowledge.StageNone
	if !f.sure || (bare && f.best[0].ncov < bareCover) {
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
	} else if len(r.stages) > 1 && !r.wh {
		return q, r.notAll(q) // when will the gitRepo volume removal go GA: the card says both
	} // a release without a stage: the card says what stage it held when
	// "is sidecar supported" is its card, and so are its SIG (which sig owns
	// sidecar) and its gates; "sidecar patches" is not clear.
	if asked := r.intents &^ (intentNew | intentGate | intentSupported); asked != 0 && (asked != intentSIG || r.sig != "") {
		return q, r.notAll(q)
	}
	r.also = f.runnersUp()
	return q, nil
}

// bareCover is how much of a KEP's name words alone, asking nothing, must
// cover to be read as that KEP: "storage" or "restart the api server" name
// no feature, "graceful node shutdown" does.
const bareCover = 0.5

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
	} else if !camel && strings.ToLower(name) == name && len(v.nearGates(name)) == 0 {
		return q, nil, false // "what gate does sidecar use": a feature's name, its gates asked
	}
	if r.stage() != knowledge.StageNone || len(r.versions) > 0 && (!r.intents.has(intentGate) || len(r.content) == 1) {
		return q, nil, false // "is SidecarContainers GA", "gate NodeSwap 是 GA 吗": a feature, named by its gate
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
	switch {
	case len(ms) == 1:
		b.Reset()
		b.WriteString("Did you mean KEP-" + strconv.Itoa(ms[0].Number) + " " + ms[0].Title + "? It matches " + name + " only in part")
	case ms[0].qcov > 0.999 && ms[1].qcov <= 0.999:
		// One KEP's names hold every word, the others some of them.
		b.Reset()
		b.WriteString("Did you mean KEP-" + strconv.Itoa(ms[0].Number) + " " + ms[0].Title + "? Its names hold " + name +
			", though it is a small part of them; others share some of the words: ")
		for i, m := range ms[1:] {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("KEP-" + strconv.Itoa(m.Number) + " " + m.Title)
		}
		return r.unsure(b.String()+".", alts)
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

// gateAround finds a feature gate the unknown words make with the words of
// the lexicon next to them, written apart: "watch list" is WatchList, though
// list is a word of the lexicon. It returns the gate's name as written.
func (r *reading) gateAround(v *Vocabulary) (string, bool) {
	if len(r.content) == 0 || len(r.content) > 4 || len(v.gates) == 0 {
		return "", false
	}
	lo, hi := r.content[0].pos, r.content[len(r.content)-1].pos
	word := func(i int) bool {
		return i >= 0 && i < len(r.toks) && r.toks[i].kind == tokWord && !r.toks[i].inWord && isPlainWord(r.toks[i].text)
	}
	for i := lo; i <= hi; i++ {
		if !word(i) {
			return "", false
		}
	}
	for from := lo; from >= max(lo-1, 0) && word(from); from-- {
		for to := hi; to <= min(hi+1, len(r.toks)-1) && word(to); to++ {
			if from == lo && to == hi && lo == hi {
				continue // one word: resolve reads gates
			}
			var buf [64]byte
			joined := buf[:0]
			for _, t := range r.toks[from : to+1] {
				if joined = appendJoined(joined, t.text); joined == nil {
					break
				}
			}
			if _, ok := v.gates[string(joined)]; ok && len(joined) > 0 {
				return v.gateOf[string(joined)], true
			}
		}
	}
	return "", false
}
