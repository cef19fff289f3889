package question

import (
	"math"
	"math/bits"
	"strings"
)

// match is one KEP that the words of a feature's name found, and how well.
type match struct {
	kep    int32
	Number int
	Title  string
	qcov   float64 // the share of the words (by rarity) that the KEP's names hold
	ncov   float64 // the share of its best name that the words cover
}

// feature is what the vocabulary made of the words of a feature's name.
type feature struct {
	best    []match  // best first, at most maxChoices
	sure    bool     // best[0] clearly wins
	unknown []string // words no name holds, even misspelt
	fixed   bool     // a word was read as another, misspelt
	weak    bool     // one word, misspelt, and a small part of any name: no match to offer
}

// maxChoices is how many KEPs an ambiguous feature name offers.
const maxChoices = 5

// resolve finds the KEPs whose names hold words (English words, and runs
// of Chinese characters): one alias, one feature gate, or the names that
// hold the rarest words best. The best is sure when it holds every word and
// no other KEP comes close.
func (v *Vocabulary) resolve(words []string) feature {
	var f feature
	if v == nil || len(v.keps) == 0 || len(words) == 0 {
		f.unknown = words
		return f
	}
	if i, ok := v.alias[stemPhrase(words)]; ok {
		return v.sureOf(i)
	}
	if len(words) == 1 {
		if i, _, ok := v.gateNamed(words[0]); ok {
			f = v.sureOf(i)
			_, exact := v.gates[strings.ToLower(words[0])]
			f.fixed = !exact
			return f
		}
	}
	sc := v.scratch.Get().(*scratch)
	defer sc.reset(v)
	terms := queryTerms(words)
	total := 0.0
	for ti, t := range terms {
		ps, w := v.term(t)
		var more []string // a misspelt term: the terms it may be
		if len(ps) == 0 {
			if v.bridges(terms, ti) {
				continue // 递归只读挂载: 归只 is where two words meet
			}
			if more = v.nearTerms(t); len(more) == 0 {
				f.unknown = append(f.unknown, t)
				total += math.Log(1 + float64(len(v.keps)))
				continue
			}
			if len(terms) == 1 && len(more) == 1 {
				if i, ok := v.alias[more[0]]; ok {
					f = v.sureOf(i) // nftabels: nftables
					f.fixed = true
					return f
				}
			}
			f.fixed = true
			for _, n := range more {
				_, idf := v.term(n)
				w = max(w, idf)
			}
			ps, _ = v.term(more[0])
			more = more[1:]
		}
		total += w
		for {
			sc.add(ps, int32(ti+1), w)
			if len(more) == 0 {
				break
			}
			ps, _ = v.term(more[0])
			more = more[1:]
		}
	}
	var top [maxChoices + 1]match // the best, best first
	n := 0
	for _, i := range sc.touched {
		k := v.keps[i]
		m := match{kep: i, Number: k.number, Title: k.title, qcov: math.Min(sc.kw[i]/total, 1)}
		row := sc.nw[int(i)*maxNames:]
		for n, nw := range k.names {
			if w := row[n]; w > 0 && nw > 0 {
				m.ncov = math.Max(m.ncov, math.Min(w/nw, 1)*nameFactor(n, k.gates))
			}
		}
		j := n // insert m in order, keeping maxChoices
		for j > 0 && m.before(top[j-1]) {
			top[j] = top[j-1]
			j--
		}
		if j < maxChoices {
			top[j] = m
			n = min(n+1, maxChoices)
		}
	}
	f.best = v.successors(append(f.best, top[:n]...))
	if len(f.best) > 0 {
		f.sure = len(f.unknown) == 0 && clearlyFirst(f.best, len(terms) >= 2 && !f.fixed)
		f.weak = len(terms) == 1 && f.fixed && f.best[0].ncov < 0.5
	}
	if !f.sure || f.best[0].ncov < bareCover { // f.sure: f.best holds one at least
		if i, ok := v.namedWithin(words); ok {
			return v.sureOf(i) // 原地调整 Pod 资源, pod level resources: an alias or a gate, and words of its names
		}
	}
	return f
}

// before reports whether m ranks above o: more of the words held, then
// more of a name covered, then the older KEP.
func (m match) before(o match) bool {
	switch {
	case m.qcov != o.qcov:
		return m.qcov > o.qcov
	case m.ncov != o.ncov:
		return m.ncov > o.ncov
	}
	return m.Number < o.Number
}

// scratch is what resolve adds up, kept between calls (Vocabulary.scratch)
// and cleared only where it was written.
type scratch struct {
	kw      []float64 // per KEP: the weight of the words its names hold
	nw      []float64 // per KEP and name (KEP*maxNames+name): the weight of the words the name holds
	term    []int32   // per KEP: 1 + the last term counted in kw
	names   []uint32  // per KEP: the names that counted the last term
	touched []int32   // the KEPs with weight
}

func newScratch(keps int) *scratch {
	return &scratch{kw: make([]float64, keps), nw: make([]float64, keps*maxNames),
		term: make([]int32, keps), names: make([]uint32, keps)}
}

// add counts a term (number t, weight w) for the names its postings ps
// name, each KEP and each name once per term however many of the term's
// spellings hold it.
func (sc *scratch) add(ps []posting, t int32, w float64) {
	for _, p := range ps {
		if sc.term[p.kep] != t {
			if sc.term[p.kep] == 0 {
				sc.touched = append(sc.touched, p.kep)
			}
			sc.term[p.kep], sc.names[p.kep] = t, 0
			sc.kw[p.kep] += w
		}
		if bit := uint32(1) << p.name; sc.names[p.kep]&bit == 0 {
			sc.names[p.kep] |= bit
			sc.nw[int(p.kep)*maxNames+int(p.name)] += w
		}
	}
}

// reset clears what resolve added and gives sc back to v.
func (sc *scratch) reset(v *Vocabulary) {
	for _, i := range sc.touched {
		sc.kw[i], sc.term[i], sc.names[i] = 0, 0, 0
		clear(sc.nw[int(i)*maxNames : int(i+1)*maxNames])
	}
	sc.touched = sc.touched[:0]
	v.scratch.Put(sc)
}

// nameFactor is how much a match of name n counts, of a KEP whose gates
// start at name gates: a KEP's own name fully, the names documents gave it
// less, a feature gate least (several KEPs may list one gate).
func nameFactor(n, gates int) float64 {
	switch {
	case n == 0:
		return 1
	case n < gates:
		return 0.9
	}
	return 0.7
}

// sureOf is the sure feature of KEP i.
func (v *Vocabulary) sureOf(i int32) feature {
	k := v.keps[i]
	return feature{sure: true, best: []match{{kep: i, Number: k.number, Title: k.title, qcov: 1, ncov: 1}}}
}

// gateNamed finds feature gate w, written in any case, or misspelt by a
// little (two edits, three for names of 18 letters or more): its KEP and
// its name as written.
func (v *Vocabulary) gateNamed(w string) (int32, string, bool) {
	lw := strings.ToLower(w)
	if v == nil {
		return 0, "", false
	}
	if i, ok := v.gates[lw]; ok {
		return i, v.gateOf[lw], true
	}
	if len(lw) < 10 {
		return 0, "", false
	}
	limit := 2
	if len(lw) >= 18 {
		limit = 3
	}
	best, found, name, tie := limit+1, int32(0), "", false
	mw := letterMask(lw)
	for _, g := range v.gateList {
		if d := len(g.name) - len(lw); d > limit || -d > limit || bits.OnesCount32(mw^g.mask) > 2*limit {
			continue
		}
		if d := within(lw, g.name, limit); d < best {
			best, found, name, tie = d, g.kep, v.gateOf[g.name], false
		} else if d == best && d <= limit && g.kep != found {
			tie = true
		}
	}
	return found, name, best <= limit && !tie
}

// queryTerms returns the terms of a feature's words, as names are indexed:
// English words stemmed without stop words, Chinese as character pairs.
func queryTerms(words []string) []string {
	out := make([]string, 0, len(words)+2)
	for _, w := range words {
		if isPlainWord(w) {
			if lw := strings.ToLower(w); !stopWords[lw] {
				out = append(out, stem(lw))
			}
			continue
		}
		out = append(out, nameTermsOf(w)...)
	}
	return dedupe(out)
}

// nearTerms returns the English terms of the vocabulary nearest to t,
// misspelt by one edit (terms of five to seven letters) or two (eight or
// more); none for shorter terms, where a misspelling is as likely another
// word, or when none is that near.
func (v *Vocabulary) nearTerms(t string) []string {
	if len(t) < 5 || t[0] >= 0x80 {
		return nil
	}
	if len(t) < 8 {
		return v.oneEdit(t)
	}
	const limit = 2
	best := limit + 1
	var out []string
	for n := len(t) - limit; n <= len(t)+limit && n < len(v.byLen); n++ {
		closeTo(t, v.byLen[n], limit, func(w string, d int) {
			switch {
			case d < best:
				best, out = d, append(out[:0], w)
			case d == best:
				out = append(out, w)
			}
		})
	}
	return out
}

// oneEdit returns the terms one edit from t (t is not a term): an
// insertion, a deletion, a substitution or a swap of neighbours. Only the
// terms one letter shorter, as long or one longer are measured, and of
// those only the ones holding about t's letters (closeTo): a few hundred
// mask comparisons, instead of an index of every term with each letter
// deleted that the collector would mark for as long as the vocabulary
// lives.
func (v *Vocabulary) oneEdit(t string) []string {
	var out []string
	for n := len(t) - 1; n <= len(t)+1 && n < len(v.byLen); n++ {
		closeTo(t, v.byLen[n], 1, func(w string, _ int) {
			if w != t {
				out = append(out, w)
			}
		})
	}
	return out
}
