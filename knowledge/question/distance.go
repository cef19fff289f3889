package question

import (
	"math/bits"

	"github.com/kepbot/kepbot/knowledge"
)

// Misspellings are found by edit distance (knowledge.EditDistance: an
// insertion, deletion, substitution or swap of neighbours costs one) over
// closed lists of words: the lexicon's (typoWords), the vocabulary's terms
// and feature gates. The lists are searched often, so a word is compared
// only with words of about its length that hold about its letters, and the
// distance is computed without allocating and given up past the limit.

// maxFast is the longest word (in bytes) within measures on the stack.
const maxFast = 40

// within returns the edit distance of a and b when it is at most limit,
// and limit+1 otherwise. ASCII words of up to maxFast bytes cost no
// allocation; others go to knowledge.EditDistance.
func within(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(a) > maxFast || len(b) > maxFast || !isASCII(a) || !isASCII(b) {
		return min(knowledge.EditDistance(a, b), limit+1)
	}
	var rows [3][maxFast + 1]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			best = min(best, d)
		}
		if best > limit {
			return limit + 1 // every alignment already costs more
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}

// near is one word of a list, with the letters it holds (letterMask).
type near struct {
	word string
	mask uint32
}

// nears returns ws with their letters.
func nears(ws []string) []near {
	out := make([]near, len(ws))
	for i, w := range ws {
		out[i] = near{w, letterMask(w)}
	}
	return out
}

// closeTo calls fn with each word of ws within limit edits of w, and its
// distance. A word whose letters differ from w's by more than two a edit
// is skipped unmeasured: an edit changes at most two letters' presence.
func closeTo(w string, ws []near, limit int, fn func(word string, d int)) {
	m := letterMask(w)
	for _, n := range ws {
		if d := len(n.word) - len(w); d > limit || -d > limit || bits.OnesCount32(m^n.mask) > 2*limit {
			continue
		}
		if d := within(w, n.word, limit); d <= limit {
			fn(n.word, d)
		}
	}
}

// letterMask has one bit for each letter a to z that s holds, and one for
// any other byte.
func letterMask(s string) uint32 {
	var m uint32
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c >= 'a' && c <= 'z' {
			m |= 1 << (c - 'a')
		} else {
			m |= 1 << 26
		}
	}
	return m
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// nearest gathers the names at the least edit distance offered, within a
// limit: the near misses offered for a gate, a SIG or an API kind.
type nearest struct {
	limit, best int
	names       []string
}

func newNearest(limit int) nearest { return nearest{limit: limit, best: limit + 1} }

// offer takes name at edit distance d: it replaces the names when nearer
// than all so far, joins them when as near (once, whatever its case), and
// is passed over when farther or beyond the limit.
func (n *nearest) offer(name string, d int) {
	switch {
	case d > n.limit || d > n.best:
	case d < n.best:
		n.best, n.names = d, append(n.names[:0], name)
	case !containsFold(n.names, name):
		n.names = append(n.names, name)
	}
}
