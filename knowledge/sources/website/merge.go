package website

import (
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// mergeMentions joins what one announcement says twice of a feature: a
// highlight and its entry in the list of graduations. Mentions of one KEP
// and stage become one, the first (the highlight, in document order) keeping
// its words. A highlight without a KEP number whose name matches exactly one
// listed feature of the same stage takes that feature's KEP (Via "title").
func mergeMentions(ms []knowledge.Mention) []knowledge.Mention {
	var out []knowledge.Mention
	at := map[[2]int]int{}
	for _, m := range ms {
		if m.KEP == 0 {
			out = append(out, m)
			continue
		}
		key := [2]int{m.KEP, int(m.Stage)}
		if i, ok := at[key]; ok {
			absorb(&out[i], m)
			continue
		}
		at[key] = len(out)
		out = append(out, m)
	}
	out = tieByTitle(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// maxTitlePairs caps the name comparisons tieByTitle makes. A real
// announcement makes a few hundred; a document built to be slow gets its
// mentions as they are.
const maxTitlePairs = 100000

// tieByTitle gives each mention without a KEP number the KEP of the one
// numbered mention of the same stage whose name matches, folding the two
// into one that keeps the unnumbered mention's words (Via "title").
func tieByTitle(ms []knowledge.Mention) []knowledge.Mention {
	var bare, numbered []int
	for i, m := range ms {
		if m.KEP == 0 {
			bare = append(bare, i)
		} else {
			numbered = append(numbered, i)
		}
	}
	if len(bare) == 0 || len(bare)*len(numbered) > maxTitlePairs {
		return ms
	}
	words := make([][]string, len(ms))
	for i, m := range ms {
		words[i] = titleWords(m.Title)
	}
	drop := map[int]bool{}
	taken := map[int]bool{}
	for _, i := range bare {
		match := -1
		for _, j := range numbered {
			if taken[j] || ms[j].Stage != ms[i].Stage || !similarWords(words[i], words[j]) {
				continue
			}
			if match >= 0 {
				match = -2 // more than one: leave it
				break
			}
			match = j
		}
		if match < 0 {
			continue
		}
		hl := ms[i]
		hl.KEP, hl.Link, hl.Via = ms[match].KEP, ms[match].Link, "title"
		absorb(&hl, ms[match])
		ms[match] = hl
		taken[match], drop[i] = true, true
	}
	kept := ms[:0]
	for i, m := range ms {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	return kept
}

// absorb fills what dst lacks from src.
func absorb(dst *knowledge.Mention, src knowledge.Mention) {
	if dst.SIG == "" {
		dst.SIG = src.SIG
	}
	if dst.Link == "" {
		dst.Link = src.Link
	}
	if dst.Text == "" {
		dst.Text = src.Text
	}
	dst.FeatureGates = mergeNames(dst.FeatureGates, src.FeatureGates)
}

var stopWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "for": true, "to": true,
	"in": true, "on": true, "and": true, "with": true, "by": true, "is": true, "now": true}

// similarTitle reports whether two feature names name the same feature: the
// same words (a one-letter spelling difference in a long word allowed, as in
// unauthorized/unauthorised), or all of a name of three words or more
// within the other.
func similarTitle(a, b string) bool { return similarWords(titleWords(a), titleWords(b)) }

// similarWords is similarTitle on names already split by titleWords.
func similarWords(ta, tb []string) bool {
	if len(ta) == 0 || len(tb) == 0 {
		return false
	}
	if len(ta) > len(tb) {
		ta, tb = tb, ta
	}
	in := 0
	for _, w := range ta {
		for _, v := range tb {
			if sameWord(w, v) {
				in++
				break
			}
		}
	}
	if in == len(ta) && len(ta) >= 3 {
		return true
	}
	union := len(ta) + len(tb) - in
	return float64(in)/float64(union) >= 0.75
}

// titleWords returns the distinct words of a name that are not stop words,
// at most maxTitleWords of them: a name is a few words, and comparing two
// names costs the product of their lengths.
func titleWords(t string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(normTitle(t)) {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
			if len(out) == maxTitleWords {
				break
			}
		}
	}
	return out
}

// maxTitleWords bounds the words of a name titleWords keeps.
const maxTitleWords = 32

// sameWord allows one substituted letter in words of six letters or more.
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) != len(b) || len(a) < 6 {
		return false
	}
	diff := 0
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			diff++
		}
	}
	return diff == 1
}
