package relnotes

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// What replaces a thing, and the things a list after a colon names.

// replacements gives the sentence's removals and deprecations the thing
// it, or the next sentence, says to use instead, of the same shape.
func (sr *sentenceReader) replacements(rest []string) {
	out := sr.r.out[sr.from:]
	need := 0
	for _, e := range out {
		if (e.Action == knowledge.EffectRemoved || e.Action == knowledge.EffectDeprecated) && e.Replacement == "" {
			need++
		}
	}
	if need == 0 {
		return
	}
	cands := useCandidates(sr.ws)
	if len(cands) == 0 && len(rest) > 0 {
		next := splitWords(rest[0])
		for k := 0; k < len(next) && k < 6 && !namesThing(next[k]); k++ {
			if useWords[next[k].low] { // "Users are encouraged to migrate to `nftables`."
				cands = useCandidates(next[k:])
				break
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	byWhat := map[knowledge.EffectWhat][]string{}
	for _, c := range cands {
		if c.what == "" { // a bare word: a replacement for a command, a component or a flag
			for _, w := range []knowledge.EffectWhat{knowledge.EffectCommand, knowledge.EffectComponent} {
				byWhat[w] = append(byWhat[w], c.name)
			}
			continue
		}
		byWhat[c.what] = append(byWhat[c.what], c.name)
	}
	var idx []int
	for i, e := range out {
		if (e.Action == knowledge.EffectRemoved || e.Action == knowledge.EffectDeprecated) && e.Replacement == "" {
			idx = append(idx, i)
		}
	}
	count := map[knowledge.EffectWhat]int{}
	for _, i := range idx {
		count[out[i].What]++
	}
	seen := map[knowledge.EffectWhat]int{}
	for _, i := range idx {
		e := &out[i]
		reps := byWhat[e.What]
		switch {
		case len(reps) == 1:
			if reps[0] != e.Name {
				e.Replacement = reps[0]
			}
		case len(reps) == count[e.What] && len(reps) > 1:
			if r := reps[seen[e.What]]; r != e.Name {
				e.Replacement = r
			}
		}
		seen[e.What]++
	}
}

// useWords open what a sentence says to use instead.
var useWords = map[string]bool{"use": true, "using": true, "favor": true, "favour": true, "replaced": true, "superseded": true,
	"migrate": true, "becomes": true, "replacement": true, "switch": true}

// useCandidates returns the names a sentence says to use instead: the
// names after "in favor of", "use", "replaced by", typed by their shape.
func useCandidates(ws []word) []thing {
	var out []thing
	for k, w := range ws {
		if w.code || !useWords[w.low] {
			continue
		}
		for j := k + 1; j < len(ws) && j < k+10; j++ {
			x := ws[j]
			if x.punct == '.' || x.punct == ';' {
				if t, ok := shapeThing(x); ok {
					out = append(out, t)
				}
				break
			}
			if t, ok := shapeThing(x); ok {
				out = append(out, t)
				if x.punct == 0 && j+1 < len(ws) && ws[j+1].low != "and" && ws[j+1].low != "or" {
					break
				}
			}
		}
	}
	return out
}

// shapeThing types a name by its shape alone, for a replacement.
func shapeThing(w word) (thing, bool) {
	switch shapeOf(w) {
	case shapeFlag:
		name, _, _ := strings.Cut(w.s, "=")
		return thing{what: knowledge.EffectFlag, name: name}, true
	case shapeAPIVersion:
		return thing{what: knowledge.EffectAPI, name: normGV(w.s)}, true
	case shapeSnake:
		return thing{what: knowledge.EffectMetric, name: w.s}, true
	case shapeCamel:
		return thing{what: knowledge.EffectGate, name: w.s}, true
	case shapeFieldPath:
		return thing{what: knowledge.EffectField, name: strings.TrimPrefix(w.s, ".")}, true
	case shapeDomainPath:
		return thing{what: knowledge.EffectAnnotation, name: w.s}, true
	case shapeUpperSnake:
		return thing{what: knowledge.EffectEnv, name: w.s}, true
	case shapeCommand:
		return thing{what: knowledge.EffectCommand, name: w.s}, true
	case shapeKebab, shapeLowerWord:
		if w.code {
			return thing{name: w.s}, true
		}
	}
	return thing{}, false
}

// listed reads the names a clause ending in a colon lists, after it in
// the sentence ("have been removed: A, B, C") or as the list items that
// follow ("Removed the following metrics:" then "- a replaced by b"),
// typed by the clause's type words: the first name of each item.
func (sr *sentenceReader) listed(head []word, at int, action knowledge.EffectAction) []thing {
	var items [][]word
	if at < len(sr.ws) {
		item := append([]word(nil), sr.ws[at:]...)
		for k := range item {
			if looksGate(item[k].s) {
				item[k].code = true // a list of names after a colon: "removed: A, B, C"
			}
		}
		items = append(items, item)
	} else {
		for _, s := range sr.rest {
			ws := splitWords(s)
			if len(ws) == 0 || len(ws) > 24 {
				break
			}
			items = append(items, ws)
		}
	}
	var out []thing
	for _, item := range items {
		first := item
		if at >= len(sr.ws) {
			for k, w := range item {
				if namesThing(w) {
					first = item[k : k+1]
					break
				}
			}
			if len(item) == 1 && !namesThing(item[0]) && headIs(head, "flag") && bareWord(item[0].s) {
				w := item[0]
				w.code = true // a list of flags written bare: "- grace-period"
				first = []word{w}
			}
		}
		h := head
		if ts := typeWordsIn(head); len(ts) > 0 {
			end := ts[0].at + 1 // the list's head noun types its items: "The following feature gates for ... features:"
			if end < len(head) && typeWords[head[end].low] == "gate" {
				end++
			}
			h = head[:end]
		}
		ws := append(append([]word(nil), h...), first...)
		for _, t := range sr.things(ws, action) {
			if t.what != knowledge.EffectComponent {
				if at >= len(sr.ws) {
					for _, c := range useCandidates(item) {
						if c.what == t.what && c.name != t.name {
							t.rep = c.name
							break
						}
					}
				}
				out = append(out, t)
			}
		}
	}
	return out
}

// nounBefore returns the words naming a thing right before k, back over
// fillers, names, type words and qualifiers: "the `--prune-whitelist`
// flag" before ", which has been deprecated".
func (sr *sentenceReader) nounBefore(k int) []word {
	s := k
	for s > sr.start && k-s < 8 {
		w := sr.ws[s-1]
		if s-1 < k-1 && w.punct != 0 {
			break
		}
		if !(w.code || fillers[w.low] || typeWords[w.low] != "" || qualifiers[w.low] || namesThing(w)) {
			break
		}
		s--
	}
	return sr.ws[s:k]
}

// headIs reports whether the words announcing a list call its items what.
func headIs(head []word, what string) bool {
	for _, t := range typeWordsIn(head) {
		if t.what == what {
			return true
		}
	}
	return false
}

// bareWord reports whether s is one lower-case word, hyphens allowed.
func bareWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c == '-' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
