package question

import (
	"github.com/kepbot/kepbot/knowledge/internal/flat"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// Vocabulary is what the reader knows of the knowledge beyond its grammar:
// the names of features. It indexes every KEP's name, the names documents
// gave it (English and Chinese), its feature gates (whole, in CamelCase
// parts, and as an acronym: DRA), and a few names people use that no
// document gives (aliases.go); and every SIG's name. A Vocabulary never
// changes once built, so readers share it.
//
// A Vocabulary lives as long as the knowledge it was built from, and every
// garbage collection marks what it holds, so it holds few objects: its
// terms are pieces of one string, and what it knows of each term sits in
// lists without pointers, found by the term's number.
type Vocabulary struct {
	keps []vocabKEP
	// terms numbers every term: a word (stemmed) or a Chinese bigram. Its
	// keys are text's pieces.
	terms  map[string]int32
	text   flat.Strings        // every term, sorted
	posts  flat.Lists[posting] // posts.At(i): the names holding term i, by KEP
	idf    []float64           // how rare term i is: rare terms name a feature, common ones do not
	gates  map[string]int32    // a feature gate, lower case → its KEP
	gateOf map[string]string   // a feature gate, lower case → as written
	// gateList is every feature gate, lower case, with its letters, for
	// misspelt gates.
	gateList []vocabGate
	sigs     map[string]bool  // SIG names without "sig-": node, api-machinery
	alias    map[string]int32 // an alias phrase (aliases.go) → its KEP
	scratch  sync.Pool        // *scratch, for resolve
	byLen    [][]near         // English terms by length, with their letters, for misspellings
}

// vocabKEP is one KEP as the vocabulary knows it.
type vocabKEP struct {
	number int
	title  string
	names  []float64 // the weight (summed idf) of each of its names
	gates  int       // the first of names that is a feature gate
	// successor is the live KEP that carries on a withdrawn, rejected or
	// replaced one: the one knowledge.PreferKEP puts first among the live
	// KEPs sharing one of its feature gates; -1 when there is none (or the
	// KEP is live). A name resolved to such a KEP answers with its
	// successor: a withdrawn KEP never answers for it.
	successor int32
}

// vocabGate is one feature gate, lower case, the letters it holds
// (letterMask) and its KEP.
type vocabGate struct {
	name string
	mask uint32
	kep  int32
}

// posting is one name of one KEP holding a term.
type posting struct {
	kep  int32 // into Vocabulary.keps
	name uint8 // 0 the title, then the documents' names, then the gates
}

// maxNames is how many names of one KEP are indexed.
const maxNames = 24

// NewVocabulary indexes keps. It never fails; a nil or empty list gives a
// vocabulary that knows no feature.
func NewVocabulary(keps []*knowledge.KEP) *Vocabulary {
	v := &Vocabulary{gates: map[string]int32{}, gateOf: map[string]string{}, sigs: map[string]bool{}, alias: map[string]int32{}}
	owner := gateOwners(keps)
	index := make(map[*knowledge.KEP]int32, len(keps))
	for i, k := range keps {
		index[k] = int32(i)
	}
	byTerm := map[string][]posting{}
	nameTerms := make([][][]string, 0, len(keps)) // per KEP, per name, its terms
	for _, k := range keps {
		i := int32(len(v.keps))
		vk := vocabKEP{number: k.Number, title: k.Title, successor: -1}
		names := []string{k.Title}
		sig := k.SIG
		for _, m := range k.History {
			if vk.title == "" {
				vk.title = m.Title
			}
			if sig == "" {
				sig = m.SIG
			}
			if m.Title != "" && !containsFold(names, m.Title) {
				names = append(names, m.Title)
			}
		}
		if s := strings.TrimPrefix(strings.ToLower(sig), "sig-"); s != "" {
			v.sigs[s] = true
		}
		var terms [][]string
		for _, n := range names {
			terms = append(terms, nameTermsOf(n))
		}
		vk.gates = len(terms)
		for _, g := range k.Gates() {
			lg := strings.ToLower(g)
			if o := owner[lg]; o == k {
				v.gates[lg], v.gateOf[lg] = i, g
				v.gateList = append(v.gateList, vocabGate{name: lg, mask: letterMask(lg), kep: i})
			} else if !k.Live() && o.Live() && (vk.successor < 0 || knowledge.PreferKEP(o, keps[vk.successor])) {
				vk.successor = index[o]
			}
			terms = append(terms, gateTerms(g))
		}
		if len(terms) > maxNames {
			terms = terms[:maxNames]
		}
		for n, ts := range terms {
			for _, t := range dedupe(ts) {
				byTerm[t] = append(byTerm[t], posting{kep: i, name: uint8(n)})
			}
		}
		nameTerms = append(nameTerms, terms)
		v.keps = append(v.keps, vk)
	}
	v.pack(byTerm)
	v.weigh(nameTerms)
	v.scratch.New = func() any {
		return newScratch(len(v.keps))
	}
	for phrase, gate := range aliases {
		if i, ok := v.gates[strings.ToLower(gate)]; ok {
			v.alias[phrase] = i
		}
	}
	return v
}

// gateOwners maps each lower-case feature gate to the KEP that answers
// for it: the one knowledge.PreferKEP puts first among those naming it.
func gateOwners(keps []*knowledge.KEP) map[string]*knowledge.KEP {
	out := map[string]*knowledge.KEP{}
	for _, k := range keps {
		for _, g := range k.Gates() {
			lg := strings.ToLower(g)
			if cur, ok := out[lg]; !ok || knowledge.PreferKEP(k, cur) {
				out[lg] = k
			}
		}
	}
	return out
}

// answersFor is the KEP a name resolved to the i-th KEP answers with: its
// successor when it has one.
func (v *Vocabulary) answersFor(i int32) int32 {
	if s := v.keps[i].successor; s >= 0 {
		return s
	}
	return i
}

// pack numbers the terms of byTerm, in order, and keeps them and their
// postings flat; then keys the gates by the terms' own text (a whole gate,
// lower case, is a term unless its KEP has too many names).
func (v *Vocabulary) pack(byTerm map[string][]posting) {
	terms := make([]string, 0, len(byTerm))
	for t := range byTerm {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	posts := make([][]posting, len(terms))
	for i, t := range terms {
		posts[i] = byTerm[t]
	}
	v.text, v.posts = flat.NewStrings(terms), flat.NewLists(posts)
	v.terms = make(map[string]int32, len(terms))
	for i := range terms {
		v.terms[v.text.At(i)] = int32(i)
	}
	gates, gateOf := make(map[string]int32, len(v.gates)), make(map[string]string, len(v.gateOf))
	for i := range v.gateList {
		g := &v.gateList[i]
		lg := g.name
		if t, ok := v.terms[lg]; ok {
			g.name = v.text.At(int(t))
		}
		gates[g.name], gateOf[g.name] = v.gates[lg], v.gateOf[lg]
	}
	v.gates, v.gateOf = gates, gateOf
}

// term returns the names holding t, by KEP, and how rare t is; none and 0
// when t is not a term.
func (v *Vocabulary) term(t string) ([]posting, float64) {
	i, ok := v.terms[t]
	if !ok {
		return nil, 0
	}
	return v.posts.At(int(i)), v.idf[i]
}

// nameHas reports whether a name of KEP i holds every term of word w.
func (v *Vocabulary) nameHas(i int32, w string) bool {
	var one [1]string
	ts := one[:0]
	if isPlainWord(w) {
		if lw := strings.ToLower(w); !stopWords[lw] {
			ts = append(ts, stem(lw))
		}
	} else {
		ts = nameTermsOf(w)
	}
	for _, t := range ts {
		ps, _ := v.term(t)
		j := sort.Search(len(ps), func(j int) bool { return ps[j].kep >= i })
		if j == len(ps) || ps[j].kep != i {
			return false
		}
	}
	return len(ts) > 0
}

// knows reports whether w, a lower-case word, is a term of a feature's
// name, a feature gate or a SIG: a word not to read as a misspelling.
func (v *Vocabulary) knows(w string) bool {
	if v == nil {
		return false
	}
	if _, ok := v.terms[stem(w)]; ok {
		return true
	}
	_, ok := v.gates[w]
	return ok || v.sigs[w]
}

// weigh sets each term's idf, each name's weight, and the English terms by
// length.
func (v *Vocabulary) weigh(nameTerms [][][]string) {
	n := float64(max(len(v.keps), 1))
	v.idf = make([]float64, v.text.Len())
	for t, i := range v.terms {
		ps := v.posts.At(int(i))
		docs := 0
		last := int32(-1)
		for _, p := range ps {
			if p.kep != last {
				docs++
				last = p.kep
			}
		}
		v.idf[i] = math.Log(1 + n/float64(docs))
		if r, _ := utf8.DecodeRuneInString(t); r < utf8.RuneSelf && len(t) >= 3 {
			for len(v.byLen) <= len(t) {
				v.byLen = append(v.byLen, nil)
			}
			v.byLen[len(t)] = append(v.byLen[len(t)], near{t, letterMask(t)})
		}
	}
	for _, ws := range v.byLen {
		sort.Slice(ws, func(i, j int) bool { return ws[i].word < ws[j].word })
	}
	weights := make([][]float64, len(nameTerms))
	for i, names := range nameTerms {
		weights[i] = make([]float64, len(names))
		for j, ts := range names {
			for _, t := range dedupe(ts) {
				_, idf := v.term(t)
				weights[i][j] += idf
			}
		}
	}
	kept := flat.NewLists(weights) // one list for every KEP's names
	for i := range v.keps {
		v.keps[i].names = kept.At(i)
	}
}

// nameTermsOf returns the terms of a name: each English word lower case
// and stemmed (dashes split words, stop words left out), each Chinese
// character pair.
func nameTermsOf(s string) []string {
	if isPlainWord(s) { // most words of a question: no dash, no Chinese
		w := strings.ToLower(s)
		if stopWords[w] {
			return nil
		}
		return []string{stem(w)}
	}
	var out []string
	scan(s, func(w string, cjk bool) {
		if cjk {
			out = append(out, bigrams(w)...)
			return
		}
		for lw := strings.ToLower(w); lw != ""; {
			p, rest, _ := strings.Cut(lw, "-")
			if lw = rest; p != "" && !stopWords[p] {
				out = append(out, stem(p))
			}
		}
	})
	return out
}

// isPlainWord reports whether s is one word of ASCII letters and digits.
func isPlainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isASCIILetter(c) && !isDigit(c) {
			return false
		}
	}
	return s != ""
}

// gateTerms returns the terms of a feature gate: its CamelCase parts
// stemmed, the whole name lower case, and its acronym when it has three
// parts or more (DynamicResourceAllocation: dra).
func gateTerms(g string) []string {
	parts := prose.CamelParts(g)
	out := []string{strings.ToLower(g)}
	acro := make([]byte, 0, len(parts))
	for _, p := range parts {
		if !stopWords[p] {
			out = append(out, stem(p))
		}
		acro = append(acro, p[0])
	}
	if len(parts) >= 3 && len(parts) <= 5 {
		out = append(out, string(acro))
	}
	return out
}

// stopWords are English words left out of names and questions: they name
// no feature.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "for": true, "in": true, "on": true, "to": true,
	"and": true, "or": true, "with": true, "by": true, "from": true, "as": true, "at": true, "into": true,
	"via": true, "k8s": true, "kubernetes": true, "kep": true, "is": true, "be": true, "it": true,
}

// stem folds the plural of an English word: containers is container,
// policies is policy; words of three letters or fewer, and -ss, stay.
func stem(w string) string {
	switch {
	case len(w) <= 3 || !isASCIILetter(w[len(w)-1]):
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// scan calls emit for each run of letters and digits (dashes inside kept)
// and each run of Chinese, Japanese or Korean characters (cjk set) in s.
func scan(s string, emit func(w string, cjk bool)) {
	start, kind := 0, 0 // kind: 0 none, 1 word, 2 CJK
	for i, r := range s {
		k := 0
		switch {
		case unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			k = 2
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '-' && kind == 1):
			k = 1
		}
		if k != kind {
			if kind != 0 {
				emit(strings.TrimRight(s[start:i], "-"), kind == 2)
			}
			start, kind = i, k
		}
	}
	if kind != 0 {
		emit(strings.TrimRight(s[start:], "-"), kind == 2)
	}
}

// bigrams returns every pair of neighbouring characters of a CJK run (a
// single character as itself).
func bigrams(w string) []string {
	rs := []rune(w)
	if len(rs) == 1 {
		return []string{w}
	}
	out := make([]string, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, string(rs[i:i+2]))
	}
	return out
}
