package question

import (
	"slices"
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// reading is what a question typed in chat says, word by word, before it
// is decided what it asks: its releases, KEP numbers, stages, intents,
// and the words the lexicon does not know (a feature's name, a gate, a
// SIG, or noise).
type reading struct {
	versions []knowledge.Version
	keps     []int
	prs      []int // pull requests: a number after "pr", or a pull request's link
	numbers  []int // bare numbers: not a KEP unless "kep" came before
	stages   []knowledge.Stage
	weak     knowledge.Stage // "graduated": GA unless a stage is said
	intents  intent
	yesNo    bool
	negated  bool
	greeting bool
	thanks   bool
	content  []token            // words the lexicon does not know, in order
	sig      string             // a SIG named after "sig", or as sig-NAME
	asks     bool               // a word that makes a question: what, tell, about, 什么
	wh       bool               // a question word that asks no yes or no: when, what, which, 什么时候
	kepWord  bool               // "kep" was said: the words name a KEP
	to       bool               // "to" (到, →) stands between two releases: an upgrade
	fixed    bool               // a misspelt word was read as a word of the lexicon
	toks     []token            // every token, as read
	also     []knowledge.KEPRef // the runners-up of the feature answered (feature)
	// patches are the patch numbers the releases were written with
	// (1.30.2), by release; vulnIDs the vulnerabilities named by ID
	// (CVE-2024-10220), upper case.
	patches map[knowledge.Version]*int
	vulnIDs []string
	// laterPatch is a second patch of the one release named (upgrading
	// from 1.30.2 to 1.30.8): the patch of the second mention.
	laterPatch *int
}

// readFree reads text typed in chat as a question. It returns the
// question (with the attribute it asks first and the runners-up of a name)
// when it is confident of it; otherwise an EBADINPUT error saying what it
// understood, with the closest questions it can offer.
func readFree(text string, v *Vocabulary) (reply, *knowledge.Error) {
	cleaned := clean(text)
	toks := tokenize(cleaned)
	r := gather(toks, v)
	q, err := r.decide(v)
	if err != nil {
		return reply{}, err
	}
	q.Text = strings.Join(strings.Fields(cleaned), " ")
	return reply{q: q, focus: r.focus(q), also: r.also}, nil
}

// gather reads the senses of toks into a reading.
func gather(toks []token, v *Vocabulary) *reading {
	r := &reading{toks: toks}
	if fixTypos(toks, v) {
		for i := range toks {
			toks[i].sense, toks[i].inWord = sense{}, false
		}
		markPhrases(toks) // a word put right may make a phrase: end of lfie
	}
	first := true // no word that means anything has come yet
	prev := roleNone
	for i := range toks {
		t := &toks[i]
		if t.inWord {
			continue
		}
		switch t.kind {
		case tokVersion:
			if !slices.Contains(r.versions, t.version) {
				r.versions = append(r.versions, t.version)
			}
			if p := patchOf(t.text); p != nil {
				if r.patches == nil {
					r.patches = map[knowledge.Version]*int{}
				}
				if q, ok := r.patches[t.version]; ok && *q != *p {
					r.laterPatch = p
				} else {
					r.patches[t.version] = p
				}
			}
		case tokKEP, tokNumber:
			switch {
			case prev == rolePR:
				r.prs = appendNew(r.prs, t.num) // PR #130135
			case t.kind == tokKEP || prev == roleKEP:
				r.keps = appendNew(r.keps, t.num)
			default:
				r.numbers = append(r.numbers, t.num)
			}
		case tokHanRun:
			r.content = append(r.content, *t)
		case tokWord:
			if knowledge.IsVulnID(t.text) {
				if id := knowledge.NormVulnID(t.text); !slices.Contains(r.vulnIDs, id) {
					r.vulnIDs = append(r.vulnIDs, id)
				}
				break
			}
			r.sense(toks, i, first)
		default:
			r.sense(toks, i, first)
		}
		prev = t.sense.role
		r.fixed = r.fixed || t.fixed
		r.asks = r.asks || askWords[t.text]
		r.wh = r.wh || whWords[t.text]
		if (t.text == "to" || t.text == "到" || t.text == "into") && len(r.versions) == 1 {
			r.to = true
		}
		if (t.sense.role != roleFiller && t.sense.role != roleGreeting) || whWords[t.text] {
			first = false // "when did…", "what is…" ask no yes or no
		}
	}
	r.pickSIG(v)
	return r
}

// appendNew appends n to ns unless ns holds it.
func appendNew(ns []int, n int) []int {
	if slices.Contains(ns, n) {
		return ns
	}
	return append(ns, n)
}

// sense reads word i of toks by its lexicon sense; first says whether any
// meaningful word came before it.
func (r *reading) sense(toks []token, i int, first bool) {
	t := toks[i]
	s := t.sense
	switch s.role {
	case roleNone:
		if strings.HasPrefix(t.text, "sig-") && len(t.text) > 4 {
			r.sig = strings.TrimPrefix(t.text, "sig-")
			return
		}
		r.content = append(r.content, t)
	case roleYesNo:
		// English asks yes or no by its first word (is sidecar GA?, but not
		// is there…, are you…); Chinese by its particles anywhere.
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].text
		}
		if t.kind == tokHan || (first && next != "there" && next != "you" && next != "u" && next != "any") {
			r.yesNo = true
		}
	case roleStage:
		if s.weak {
			r.weak = s.stage
		} else if !slices.Contains(r.stages, s.stage) {
			r.stages = append(r.stages, s.stage)
		}
	case roleIntent:
		r.intents |= s.intent
	case roleKEP:
		r.kepWord = true
	case roleGreeting:
		r.greeting = true
	case roleThanks:
		r.thanks = true
	case roleNegation:
		r.negated = true
	}
}

// pickSIG takes the name after "sig" (sig node, sig api machinery) out of
// the words: the most words after it (up to three, whatever the lexicon
// makes of them) that name a SIG v knows, or the first unknown word when v
// knows none.
func (r *reading) pickSIG(v *Vocabulary) {
	if !r.intents.has(intentSIG) || r.sig != "" {
		return
	}
	at := -1
	for i, t := range r.toks {
		if t.sense.role == roleIntent && t.sense.intent == intentSIG {
			at = i
			break
		}
	}
	if at < 0 {
		return
	}
	var after []token
	for _, t := range r.toks[at+1:] {
		if t.kind != tokWord || t.inWord || len(after) == 3 {
			break
		}
		after = append(after, t)
	}
	take := 0
	if v != nil && len(v.sigs) > 0 {
		for k := len(after); k >= 1 && take == 0; k-- {
			if v.sigs[joinText(after[:k])] {
				take = k
			}
		}
	} else if len(after) > 0 && after[0].sense.role == roleNone {
		take = 1
	}
	if take == 0 {
		if len(after) > 0 && after[0].sense.role == roleNone {
			r.sig = after[0].text // a SIG v does not know: sigQuestion reads it as the one near it, or says so
			r.dropContent(after[:1])
		}
		return
	}
	r.sig = joinText(after[:take])
	r.dropContent(after[:take])
}

// dropContent takes ts out of the unknown words.
func (r *reading) dropContent(ts []token) {
	out := r.content[:0:0]
	for _, c := range r.content {
		if !slices.ContainsFunc(ts, func(t token) bool { return t.pos == c.pos }) {
			out = append(out, c)
		}
	}
	r.content = out
}

// joinText joins the words of ts with dashes: api-machinery.
func joinText(ts []token) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.text
	}
	return strings.Join(parts, "-")
}

// stage is the stage the question asks about: the one said, GA for
// "graduated" alone, StageNone when none or several are said.
func (r *reading) stage() knowledge.Stage {
	switch len(r.stages) {
	case 0:
		return r.weak
	case 1:
		return r.stages[0]
	}
	return knowledge.StageNone
}

// words returns the unknown words as written (Chinese and gates keep
// their case), for the vocabulary.
func (r *reading) words() []string {
	out := make([]string, 0, len(r.content))
	for _, t := range r.content {
		out = append(out, t.raw)
	}
	return out
}

// gateWord returns an unknown word written like a feature gate: CamelCase,
// one word of letters and digits.
func (r *reading) gateWord() (string, bool) {
	for _, t := range r.content {
		w := t.raw
		if t.kind == tokWord && len(w) >= 4 && isGateName(w) && unicode.IsUpper(rune(w[0])) &&
			strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 && strings.IndexFunc(w, unicode.IsLower) >= 0 {
			return w, true
		}
	}
	return "", false
}

// askWords are the fillers that make text a question: with none of them,
// nor a stage, an intent or a yes/no word, text names a feature only when
// it says most of a KEP's name.
var askWords = map[string]bool{
	"what": true, "whats": true, "which": true, "when": true, "where": true, "how": true, "tell": true,
	"show": true, "about": true, "status": true, "state": true, "info": true, "details": true,
	"explain": true, "describe": true, "什么": true, "哪些": true, "哪个": true, "状态": true,
	"情况": true, "进展": true, "介绍": true, "什么时候": true, "何时": true, "关于": true,
}

// whWords start questions that are not yes/no ones.
var whWords = map[string]bool{
	"what": true, "whats": true, "which": true, "when": true, "where": true, "how": true, "who": true,
	"whos": true, "why": true, "whose": true, "eta": true, "什么时候": true, "何时": true, "几时": true,
	"啥时候": true, "哪个版本": true, "哪一版": true,
}

// phraseWords are the words of the lexicon's phrases ("required" of "action
// required"): never misspellings of another word.
var phraseWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range lexicon {
		if strings.Contains(w, " ") {
			for _, p := range strings.Fields(w) {
				m[p] = true
			}
		}
	}
	return m
}()

// fixTypos reads words the lexicon does not know, nor the vocabulary, as
// the nearest word of the lexicon's stages and intents (typoWords) when
// exactly one is near enough: one edit for words of three to five letters,
// two beyond. It reports whether it put any right.
func fixTypos(toks []token, v *Vocabulary) (fixed bool) {
	for i := range toks {
		t := &toks[i]
		if t.kind != tokWord || t.sense.role != roleNone || t.inWord || len(t.text) < 3 || t.text[0] >= 0x80 ||
			phraseWords[t.text] || v.knows(t.text) {
			continue
		}
		limit := 2
		if len(t.text) <= 5 {
			limit = 1
		}
		best, word, clash := limit+1, "", false
		closeTo(t.text, typoNears, limit, func(w string, d int) {
			switch {
			case d < best:
				best, word, clash = d, w, false
			case d == best && lexicon[w] != lexicon[word]:
				clash = true // two words as near that mean different things
			}
		})
		if word == "" || clash || (len(t.text) <= 3 && lexicon[word].role == roleFiller) {
			continue // a short word is as likely a word of its own: foo is not for
		}
		t.text, t.fixed, fixed = word, true, true
	}
	return fixed
}
