package relnotes

import (
	"strings"
	"sync"

	"github.com/kepbot/kepbot/knowledge"
)

// The typed changes of a release-note entry (knowledge.Effect): what its
// text says happened, in the entry's release, to a named thing. The rules,
// drawn from the notes of 1.25 to 1.36 and checked against entries read by
// hand (effects_test.go), read one sentence (or list item) at a time and
// only these shapes:
//
//   - a verb opening a clause (after an optional "component:" label, a
//     comma, "and", "also"), then what it acts on: "Removed the feature
//     gate `X`", "kube-proxy: Removed the iptables CLI wait interval
//     flag", "Deprecated the `--foo` flag in favor of `--bar`", "started
//     deprecating `--cpu-percent`", "Marked the feature gate `X` as
//     deprecated", "Promoted `X` to GA", "Added the `x_total` metric",
//     "Flipped `X` to false", "Changed the default of `--mode` to
//     `nftables`", "Enabled `X` by default";
//   - a subject, then "is/are/was/were/has been/have been/got [now]" and
//     removed, dropped, deprecated, no longer served or supported, replaced
//     with Y, promoted or graduated to a stage, GA, enabled or disabled by
//     default (also "turned on by default"), added or introduced; or "X
//     graduated to beta"; and a label naming what it deprecates
//     ("ServiceAccount metadata.annotations[x]: deprecated since v1.32").
//
// What an action acts on is read up to the end of its clause (a stop, a
// semicolon, "which", "since", "in favor of", "to", "from", another
// verb), and typed by its shape and the words around it: `--x` is a flag;
// a group/version an API (with the kinds beside it); a CamelCase word a
// feature gate beside "feature gate", a field beside "field", a feature
// beside "feature"; snake_case a metric; a domain path an annotation;
// `kubectl x` a command; a plugin, provider, driver or mode a component,
// named by its words ("in-tree Portworx volume plugin"). A flag, metric
// or component with no code name is named by the words before its type
// word ("iptables CLI wait interval"). Of is the program a "kube-proxy:"
// label, "kubelet's", "from kube-scheduler" or "in kubectl" names.
//
// The rules read nothing from:
//
//   - a text opening with "Revert", a sentence opening with "Fix";
//   - a removal or deprecation in the future ("will be removed", "is
//     planned to be", "scheduled for removal") or told as a reason or a
//     past ("since X was removed", "as they were deprecated in v1.28",
//     "which graduated to GA in 1.32", "GA since 1.24", a removal "in"
//     an earlier release);
//   - a use, note, check, warning or restriction removed ("removed the
//     usage of the flag"), a thing taken out of the defaults only, a thing
//     dropped "when" a gate is off;
//   - what a tool does under a condition or a modal ("if the gate is
//     enabled, remove the flag from the file", "Admins can ... then
//     remove"), and the items of a list announced by "X will:";
//   - "not deprecated", "un-deprecated", "non-deprecated".
//
// A pronoun or a bare type word ("it", "the gate", "the feature gate
// option") stands for what the sentence, or the one before, named last.
// An entry that removes a thing says nothing more of it (its graduation
// or default was before), and a thing it adds has no default changed.
//
// API claims (apiclaims.go) are effects of What api; the rules above add
// the API versions the claims leave to others (kubectl's support for a
// version, kubeadm's configuration API), with their Of. A replacement is
// what the sentence, or the next, says to use: "in favor of Y", "use Y
// [instead]", "replaced by Y", "migrate to Y", of the same shape.

// Effects returns the typed changes the text of an entry of release v
// states, in the order it states them, each once: those it states with
// certainty (see sureEffects).
func Effects(v knowledge.Version, text string) []knowledge.Effect {
	return sureEffects(v, text, effectsWith(v, text, apiClaims(v, text)))
}

// effectsWith is Effects with the entry's API claims already read, those
// it cannot be sure of too: what a removal or deprecation notice is may
// rest on them (Classify), what is said of the entry may not.
func effectsWith(v knowledge.Version, text string, claims []knowledge.APIClaim) []knowledge.Effect {
	t := unwrapQuotes(strings.TrimSpace(text))
	if t == "" || hasPrefixFold(strings.TrimLeft(t, "\"'`[(* "), "revert") {
		return nil
	}
	r := effectReader{release: v}
	for _, c := range claims {
		r.add(claimEffect(c))
	}
	if !mayStateEffect(t) { // most bug fixes: one pass, no sentence read
		return r.finish()
	}
	j := joinWrapped(t)
	rs := sentenceRanges(j)
	ss := make([]string, len(rs))
	for i, rg := range rs {
		ss[i] = j[rg[0]:rg[1]]
	}
	for i := range ss {
		r.sentence(ss[i], ss[i+1:])
	}
	r.giveBack()
	return r.finish()
}

// finish drops what an entry says of a thing it removes besides (a
// thing removed graduated or changed its default before: "The feature
// gate `X`, GA in 1.25 and unconditionally enabled, has been removed"),
// and the default of a thing it adds.
func (r *effectReader) finish() []knowledge.Effect {
	out := r.out[:0]
	for _, e := range r.out {
		if e.Action != knowledge.EffectRemoved && e.Action != knowledge.EffectDeprecated && r.does(knowledge.EffectRemoved, e) ||
			e.Action == knowledge.EffectDefault && r.does(knowledge.EffectAdded, e) {
			continue // a new gate's default is no change of one
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// does reports whether the entry does action to the thing e is of.
func (r *effectReader) does(action knowledge.EffectAction, e knowledge.Effect) bool {
	for _, o := range r.out {
		if o.Action == action && strings.EqualFold(o.Name, e.Name) {
			return true
		}
	}
	return false
}

// triggerWords are the words some rule needs, by their first letter: a
// text holding none states no effect (most bug fixes) and costs one pass
// over it, with no copy. "ga" counts only as a word ("is GA now").
var triggerWords = [26][]string{
	'a' - 'a': {"add"}, 'b' - 'a': {"beta"}, 'd' - 'a': {"drop", "deprecat", "default"}, 'f' - 'a': {"flip"},
	'g' - 'a': {"graduat", "ga"}, 'i' - 'a': {"introduc"}, 'm' - 'a': {"marked", "moves", "moved"}, 'n' - 'a': {"no longer"},
	'p' - 'a': {"promot"}, 'r' - 'a': {"remov", "replaced"}, 's' - 'a': {"stable"},
}

// mayStateEffect reports whether s holds one of triggerWords, in any case.
func mayStateEffect(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' || i > 0 && isLetter(s[i-1]) {
			continue
		}
		for _, w := range triggerWords[c-'a'] {
			if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) && (w != "ga" || i+2 == len(s) || !isWordByte(s[i+2])) {
				return true
			}
		}
	}
	return false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// claimEffect is the effect an API claim states.
func claimEffect(c knowledge.APIClaim) knowledge.Effect {
	e := knowledge.Effect{What: knowledge.EffectAPI, Name: c.GroupVersion, Kinds: c.Kinds, Replacement: c.ReplacedBy}
	switch c.Action {
	case knowledge.APIRemoved:
		e.Action = knowledge.EffectRemoved
	case knowledge.APIDeprecated:
		e.Action = knowledge.EffectDeprecated
	default:
		e.Action = knowledge.EffectAdded
	}
	return e
}

// effectReader gathers the effects of one entry.
type effectReader struct {
	release knowledge.Version
	out     []knowledge.Effect
	// future is set after a sentence announcing, with a colon, what
	// something will do: the items after it are not changes.
	future bool
	// prevFrom is where the previous sentence's effects start in out,
	// prevWords its words: what "the gate", "it" may stand for.
	prevFrom  int
	prevWords []word
	prevText  string     // the previous sentence, when its words were not read
	bufs      *[2][]word // the words of a sentence and of the one before
	turn      int
}

// words splits s into words in one of the reader's two buffers, in
// turn: the previous sentence's words stay read (prevWords).
func (r *effectReader) words(s string) []word {
	if r.bufs == nil {
		r.bufs = wordBufs.Get().(*[2][]word)
	}
	r.turn = 1 - r.turn
	b := r.bufs[r.turn][:0]
	if n := min(maxWords, strings.Count(s, " ")+1); cap(b) < n {
		b = make([]word, 0, max(n, 64))
	}
	r.bufs[r.turn] = appendWords(b, s, asciiLower(s))
	return r.bufs[r.turn]
}

// wordBufs keeps readers' word buffers between entries: most entries
// are read one after another, and their words are never kept.
var wordBufs = sync.Pool{New: func() any { return new([2][]word) }}

// giveBack gives the reader's buffers back; its words are not read after.
func (r *effectReader) giveBack() {
	if r.bufs != nil {
		r.bufs[0], r.bufs[1] = r.bufs[0][:0], r.bufs[1][:0]
		wordBufs.Put(r.bufs)
		r.bufs = nil
	}
}

// prevName is the last name the previous sentence wrote in backticks.
func (r *effectReader) prevName() (word, bool) {
	if r.prevWords == nil && strings.Contains(r.prevText, "`") {
		r.prevWords = splitWords(r.prevText)
	}
	for k := len(r.prevWords) - 1; k >= 0; k-- {
		if w := r.prevWords[k]; w.code && namesThing(w) && !notNames[w.s] {
			return w, true
		}
	}
	return word{}, false
}

// add keeps e unless an effect of the same thing and action is there;
// that one takes what e adds.
func (r *effectReader) add(e knowledge.Effect) {
	if e.Name == "" && e.Of == "" {
		return
	}
	for i := range r.out {
		o := &r.out[i]
		if o.What == e.What && strings.EqualFold(o.Name, e.Name) && o.Action == e.Action && (o.Of == e.Of || o.Of == "" || e.Of == "") {
			if o.Replacement == "" {
				o.Replacement = e.Replacement
			}
			if o.Of == "" {
				o.Of = e.Of
			}
			if len(o.Kinds) == 0 {
				o.Kinds = e.Kinds
			}
			if o.Stage == knowledge.StageNone {
				o.Stage = e.Stage
			}
			return
		}
	}
	r.out = append(r.out, e)
}

// sentence reads the effects of one sentence; rest are the sentences
// after it (a list a sentence announces, a replacement said next).
func (r *effectReader) sentence(s string, rest []string) {
	if strings.HasSuffix(s, ":") && strings.Contains(asciiLower(s), "will") {
		r.future = true // "When it is enabled, kubeadm will:" and a list
		return
	}
	if !mayStateEffect(s) {
		r.prevFrom, r.prevWords, r.prevText = len(r.out), nil, s
		return
	}
	ws := r.words(s)
	start, of := label(ws)
	if start >= len(ws) || strings.HasPrefix(ws[start].low, "fix") || strings.HasPrefix(ws[start].low, "revert") {
		return
	}
	if start > 0 && ws[start].low == "deprecated" && !ws[start].code && (ws[start].punct != 0 || start+1 == len(ws) || ws[start+1].low == "since") {
		// "ServiceAccount metadata.annotations[x]: deprecated since v1.32"
		r.labelled(ws[:start], of)
		return
	}
	sr := sentenceReader{r: r, ws: ws, start: start, of: of, rest: rest, from: len(r.out)}
	for i := start; i < len(ws); i++ {
		if w := ws[i]; w.code || !opensRule[w.low[0]] {
			continue // no verb or copula opens with it: most words
		}
		if n := sr.verbFirst(i); n > 0 {
			i += n - 1
			continue
		}
		sr.subjectFirst(i)
	}
	sr.replacements(rest)
	r.prevFrom, r.prevWords, r.prevText = sr.from, ws, ""
}

// label reads the label a sentence may open with ("kube-proxy:",
// "[KCCM]", "ACTION REQUIRED:", "DRA API:") and returns where the
// sentence goes on and the program the label names, if any.
func label(ws []word) (int, string) {
	start, of := 0, ""
	for k := 0; k < len(ws) && k < 4; k++ {
		if ws[k].punct == ':' && k+1 < len(ws) {
			for _, w := range ws[:k+1] {
				if c, ok := componentOf(w); ok {
					of = c
				}
			}
			start = k + 1
			break
		}
	}
	if start < len(ws) && ws[start].low == "action" && start+1 < len(ws) && ws[start+1].low == "required" && ws[start+1].punct == ':' {
		start += 2
	}
	return start, of
}

// sentenceReader reads one sentence's words.
type sentenceReader struct {
	r     *effectReader
	ws    []word
	start int
	of    string   // the program the label names
	rest  []string // the sentences after this one
	from  int      // the entry's effects before this sentence
	owner string   // the program a clause's verb follows: "kube-apiserver disabled X"
}

// labelled reads a label that names the thing a sentence deprecates:
// "ServiceAccount metadata.annotations[kubernetes.io/x]: deprecated".
func (r *effectReader) labelled(head []word, of string) {
	for _, w := range head {
		name := w.s
		if i := strings.Index(name, "annotations["); i >= 0 {
			r.add(knowledge.Effect{What: knowledge.EffectAnnotation, Name: strings.Trim(name[i+len("annotations["):], `"']`), Of: of, Action: knowledge.EffectDeprecated})
			return
		}
	}
}

// opensRule holds the first letters of the verbs, copulas and adverbs a
// rule is tried at (verbs, copulas, "graduated", "now").
var opensRule = func() [256]bool {
	var t [256]bool
	for w := range verbs {
		t[w[0]] = true
	}
	for w := range copulas {
		t[w[0]] = true
	}
	for _, w := range []string{"graduated", "graduates", "moves", "moved", "promoted", "has", "have"} {
		t[w[0]] = true
	}
	return t
}()
