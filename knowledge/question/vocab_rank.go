package question

import (
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// How the KEPs a feature's name matched are ranked: a withdrawn KEP's
// match is its successor's, a name hidden in the words (an alias among
// them, or a gate written apart) is sure, and the first is answered only
// when it is clearly first — the others are then its runners-up.

// clearlyFirst reports whether the first of best holds every word and no
// other match comes close: most of its name is the words and the next is
// far behind; or the words are its whole name and no other's; or, for a
// name of several words none misspelt (many), it holds them all and every
// other holds only some of them. Anything closer is a tie, to ask about.
func clearlyFirst(best []match, many bool) bool {
	b := best[0]
	if b.qcov <= 0.999 {
		return false
	}
	if len(best) == 1 {
		return b.ncov >= 0.5 || many && b.ncov >= 0.2
	}
	s := best[1]
	return b.ncov >= 0.5 && b.ncov-s.ncov >= 0.25 ||
		b.ncov > 0.999 && s.ncov < 0.999 ||
		many && b.ncov >= 0.2 && (s.qcov < 0.75 || s.qcov <= 0.999 && b.ncov >= s.ncov)
}

// runnersUp returns the KEPs after the first that hold at least half the
// words, best first: the others a name answered by the first matched.
func (f feature) runnersUp() []knowledge.KEPRef {
	var out []knowledge.KEPRef
	for _, m := range f.best[min(1, len(f.best)):] {
		if m.qcov >= 0.5 && len(out) < maxChoices-2 {
			out = append(out, knowledge.KEPRef{Number: m.Number, Title: m.Title})
		}
	}
	return out
}

// successors folds each match of a withdrawn, rejected or replaced KEP
// into its successor's (vocabKEP.successor), which answers for it:
// Declarative Validation is KEP-5073, not the superseded KEP-4153. The
// successor keeps the better of the two scores; best stays in order.
func (v *Vocabulary) successors(best []match) []match {
	folded := false
	for j := range best {
		if best[j].kep < 0 {
			continue // taken into its successor's match already
		}
		s := v.keps[best[j].kep].successor
		if s < 0 {
			continue
		}
		folded = true
		k := v.keps[s]
		m := match{kep: s, Number: k.number, Title: k.title, qcov: best[j].qcov, ncov: best[j].ncov}
		for o := range best {
			if best[o].kep == s {
				m.qcov, m.ncov = max(m.qcov, best[o].qcov), max(m.ncov, best[o].ncov)
				best[o].kep = -1 // taken into m
			}
		}
		best[j] = m
	}
	if !folded {
		return best
	}
	best = slices.DeleteFunc(best, func(m match) bool { return m.kep < 0 })
	slices.SortStableFunc(best, func(a, b match) int {
		if a.before(b) {
			return -1
		}
		if b.before(a) {
			return 1
		}
		return 0
	})
	return best
}

// namedWithin finds a feature named inside words: words that, joined, are
// a feature gate (pod level resources is PodLevelResources), or an alias
// among them (原地调整 of 原地调整 Pod 资源) whose KEP's names hold the
// other words.
func (v *Vocabulary) namedWithin(words []string) (int32, bool) {
	if len(words) < 2 || len(words) > 6 {
		return 0, false
	}
	var buf [64]byte
	joined := buf[:0]
	for _, w := range words {
		if joined = appendJoined(joined, w); joined == nil {
			break
		}
	}
	if len(joined) >= 8 {
		if i, ok := v.gates[string(joined)]; ok {
			return i, true
		}
	}
	for j, w := range words {
		key := w // a Chinese alias is kept as written
		if isPlainWord(w) {
			key = stem(strings.ToLower(w))
		}
		i, ok := v.alias[key]
		if !ok {
			continue
		}
		all := true
		for o, other := range words {
			all = all && (o == j || stopWords[strings.ToLower(other)] || v.nameHas(i, other))
		}
		if all {
			return i, true
		}
	}
	return 0, false
}

// appendJoined appends w to a name being joined from words written apart
// (pod level resources: podlevelresources), lower case and without its
// dashes; nil when w is not a plain word or the name grows too long.
func appendJoined(b []byte, w string) []byte {
	if len(b)+len(w) > cap(b) {
		return nil
	}
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c == '-':
		case isASCIILetter(c):
			b = append(b, c|0x20)
		case isDigit(c):
			b = append(b, c)
		default:
			return nil
		}
	}
	return b
}

// bridges reports whether terms[ti], unknown, is a pair of Chinese
// characters where two known pairs meet (归只 of 递归只读): the pair before
// it ends with its first character and the pair after it starts with its
// last. Such a pair is no word of the name, and no reason to doubt it.
func (v *Vocabulary) bridges(terms []string, ti int) bool {
	t := terms[ti]
	if ti == 0 || ti+1 >= len(terms) || len(t) != 6 || t[0] < 0x80 {
		return false
	}
	before, after := terms[ti-1], terms[ti+1]
	if len(before) != 6 || len(after) != 6 || before[3:] != t[:3] || after[:3] != t[3:] {
		return false
	}
	_, known1 := v.terms[before]
	_, known2 := v.terms[after]
	return known1 && known2
}
