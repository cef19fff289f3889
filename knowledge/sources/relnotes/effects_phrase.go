package relnotes

import "strings"

// The words an action acts on: where its clause ends, its subject, and
// the words that put it in the future or the past.

// maxPhrase bounds the words an action is read of.
const maxPhrase = 30

// phraseEnd returns where the words an action acts on, from j, end.
func (sr *sentenceReader) phraseEnd(j int) int {
	ws := sr.ws
	for k := j; k < len(ws) && k < j+maxPhrase; k++ {
		w := ws[k]
		if !w.code {
			if stopWords[w.low] {
				return k
			}
			if w.paren && k > j {
				return k
			}
			if (w.low == "and" || w.low == "or") && k+1 < len(ws) && opensClause(ws[k+1]) {
				return k
			}
			if w.low == "-" {
				return k
			}
		}
		switch w.punct {
		case ';', '.', ')':
			return k + 1
		case ':':
			return k + 1
		case ',':
			if k+1 < len(ws) && !namesThing(ws[k+1]) && ws[k+1].low != "and" && ws[k+1].low != "or" && !fillers[ws[k+1].low] {
				return k + 1
			}
		}
	}
	return min(len(ws), j+maxPhrase)
}

// opensClause reports whether w starts a new clause after "and": a verb
// or a copula.
func opensClause(w word) bool {
	if w.code {
		return false
	}
	_, verb := verbs[w.low]
	return verb || copulas[w.low] || w.low == "will" || w.low == "also" || w.low == "then"
}

// namesThing reports whether w is a name of some shape.
func namesThing(w word) bool { return shapeOf(w) != shapeNone }

// firstContent returns the index of the first word of ws that is not a
// filler; -1 when there is none.
func firstContent(ws []word) int {
	for i, w := range ws {
		if !fillers[w.low] {
			return i
		}
	}
	return -1
}

// find returns the index of the first word low from i within n words; -1
// when there is none.
func (sr *sentenceReader) find(i, n int, low string) int {
	for k := i; k < len(sr.ws) && k < i+n; k++ {
		if sr.ws[k].low == low && !sr.ws[k].code {
			return k
		}
	}
	return -1
}

// laterCopula reports whether the clause from i goes on with a copula:
// its first word was an adjective of its subject.
func (sr *sentenceReader) laterCopula(i int) bool {
	for k := i; k < len(sr.ws) && k < i+maxPhrase; k++ {
		w := sr.ws[k]
		if !w.code && (w.low == "is" || w.low == "are" || w.low == "was" || w.low == "were") {
			return true
		}
		if w.punct == ';' || w.punct == '.' {
			return false
		}
	}
	return false
}

// byDefault reports whether "by default" follows i within n words.
func (sr *sentenceReader) byDefault(i, n int) bool {
	j := sr.find(i, n, "by")
	return j >= 0 && j+1 < len(sr.ws) && sr.ws[j+1].low == "default"
}

// fromDefaults reports whether the clause goes on at k with "from the
// default(s)": a thing taken out of the defaults, not removed.
func (sr *sentenceReader) fromDefaults(k int) bool {
	for j := k; j < len(sr.ws) && j < k+4; j++ {
		if strings.HasPrefix(sr.ws[j].low, "default") && j > k {
			return sr.ws[k].low == "from"
		}
	}
	return false
}

// subject returns the subject of a copula at i: the words from the
// clause's start, cut before "which", "that" or "who".
func (sr *sentenceReader) subject(i int) []word {
	ws := sr.ws
	s := sr.start
	for k := i - 1; k > sr.start; k-- {
		w := ws[k]
		if w.punct == ';' || w.punct == ':' || w.punct == ',' && reasons[ws[sr.start].low] {
			s = k + 1 // "After fixing regressions, the gate was re-enabled"
			break
		}
		if (w.low == "and" || w.low == "but" || ws[k-1].punct == ',') && !w.code && hasVerb(ws[sr.start:k]) {
			s = k
			if w.low == "and" || w.low == "but" {
				s = k + 1
			}
			break
		}
	}
	return ws[s:i]
}

// cutRelative cuts a subject before "which", "that" or "who": what
// follows describes it ("X which was deprecated in 1.25 is now removed").
func cutRelative(subj []word) []word {
	for k, w := range subj {
		if !w.code && (w.low == "which" || w.low == "that" || w.low == "who") && k > 0 {
			return subj[:k]
		}
	}
	return subj
}

// hasVerb reports whether ws hold a copula or an action verb of their
// own: not one of a relative clause ("gates that graduated to GA").
func hasVerb(ws []word) bool {
	for k, w := range ws {
		if w.code {
			continue
		}
		if w.low == "which" || w.low == "that" || w.low == "who" {
			return false
		}
		if k > 0 && (fillers[ws[k-1].low] || ws[k-1].low == "and") && ws[k-1].low != "now" {
			continue // "the deprecated flag": an adjective
		}
		if _, ok := verbs[w.low]; ok || w.low == "is" || w.low == "are" || w.low == "was" || w.low == "were" {
			return true
		}
	}
	return false
}

// reasons open a clause told as a reason or a past: "since X was removed".
var reasons = map[string]bool{"since": true, "as": true, "because": true, "given": true, "after": true, "once": true,
	"when": true, "if": true, "until": true, "before": true, "unless": true, "while": true, "now": false}

// modals put what follows in the future or in doubt.
var modals = map[string]bool{"will": true, "would": true, "should": true, "must": true, "could": true, "can": true,
	"may": true, "might": true, "to": false}

// reason reports whether the words before subj in its clause tell it as
// a reason or a past, or subj holds a future.
func (sr *sentenceReader) reason(subj []word) bool {
	for _, w := range subj {
		if namesThing(w) {
			return false // "`X` feature, GA since 1.24,": what follows the name describes it
		}
		if !w.code && (reasons[w.low] || modals[w.low] || w.low == "not" || w.low == "non-deprecated") {
			return true
		}
	}
	return false
}
