package engine

import (
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/flat"
	"github.com/kepbot/kepbot/knowledge/internal/prose"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// field is where in a KEP's record a search term stands. A posting's
// fields are a set of these bits.
type field uint8

const (
	inNote  field = 1 << iota // a document's words about the KEP: mentions and notices
	inSIG                     // the SIG, without "sig-"
	inGate                    // a feature gate: the whole name and its CamelCase parts
	inTitle                   // the KEP's name and its number
)

// posting is one KEP holding a term, and where.
type posting struct {
	doc    int32 // index into searchIndex.docs
	fields field
}

// searchIndex is an inverted index over every KEP's name, number, feature
// gates, SIG and the documents' words about it. English words are indexed
// whole (lower case); CamelCase names in names and gates also by their
// parts; Chinese, Japanese and Korean text by every character and every
// pair of neighbouring characters (bigrams), so words need no dictionary.
//
// Its terms, postings and phrases are kept flat (one string, one slice):
// the index lives as long as the catalog, and every garbage collection
// would otherwise mark each term and each posting list.
type searchIndex struct {
	terms   flat.Strings        // sorted
	post    flat.Lists[posting] // post.At(i): the KEPs holding terms.At(i), by doc
	docs    []*knowledge.KEP    // by number
	phrases flat.Strings        // each doc's name as " word word ", for phrase matches
}

// buildIndex indexes keps (sorted by number) and the notices that name them.
func buildIndex(keps []*knowledge.KEP, notices map[knowledge.Version][]knowledge.Notice) *searchIndex {
	ix := &searchIndex{docs: keps}
	phrases := make([]string, len(keps))
	doc := make(map[int]int, len(keps))
	for i, k := range keps {
		doc[k.Number] = i
	}
	noteText := make([][]string, len(keps))
	moved := misnamedMentions(keps)
	for _, k := range keps {
		for _, m := range k.History {
			if to, ok := moved[mentionAt{k.Number, m.Source, m.Release, m.Stage}]; ok {
				if i, known := doc[to]; known {
					noteText[i] = append(noteText[i], m.Title, m.Text)
				}
			}
		}
	}
	for _, ns := range notices {
		for _, n := range ns {
			if i, ok := doc[n.KEP]; ok && n.KEP > 0 {
				noteText[i] = append(noteText[i], n.Title, n.Text)
			}
		}
	}
	byTerm := map[string][]posting{}
	for i, k := range keps {
		fs := map[string]field{}
		add := func(t string, f field) { fs[t] |= f }
		indexText(k.Title, inTitle, true, add)
		add(strconv.Itoa(k.Number), inTitle)
		for _, g := range k.Gates() {
			indexText(g, inGate, true, add)
		}
		indexText(strings.TrimPrefix(strings.ToLower(sigOf(k)), "sig-"), inSIG, false, add)
		for _, m := range k.History {
			if _, ok := moved[mentionAt{k.Number, m.Source, m.Release, m.Stage}]; ok {
				continue
			}
			indexText(m.Title, inNote, false, add)
			indexText(m.Text, inNote, false, add)
		}
		for _, t := range noteText[i] {
			indexText(t, inNote, false, add)
		}
		for t, f := range fs {
			byTerm[t] = append(byTerm[t], posting{doc: int32(i), fields: f})
		}
		phrases[i] = phraseOf(k.Title)
	}
	terms := make([]string, 0, len(byTerm))
	for t := range byTerm {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	post := make([][]posting, len(terms))
	for i, t := range terms {
		ps := byTerm[t]
		sort.Slice(ps, func(a, b int) bool { return ps[a].doc < ps[b].doc })
		post[i] = ps
	}
	ix.terms, ix.post, ix.phrases = flat.NewStrings(terms), flat.NewLists(post), flat.NewStrings(phrases)
	return ix
}

// mentionAt names a mention of a KEP: the document, release and stage.
type mentionAt struct {
	KEP     int
	Source  string
	Release knowledge.Version
	Stage   knowledge.Stage
}

// misnamedMentions maps the mentions whose KEP number points at a KEP of
// another name (a DisagreeName disagreement) to the KEP they likely mean:
// their words are indexed under that KEP, not the number they give.
func misnamedMentions(keps []*knowledge.KEP) map[mentionAt]int {
	out := map[mentionAt]int{}
	for _, k := range keps {
		for _, d := range k.Disagreements {
			if d.Kind == knowledge.DisagreeName && d.Likely > 0 {
				out[mentionAt{k.Number, d.Source, d.Release, d.Stage}] = d.Likely
			}
		}
	}
	return out
}

// indexText adds the terms of s, found in field f: each word lower case
// (and its CamelCase parts when camel is set), and each CJK character and
// bigram.
func indexText(s string, f field, camel bool, add func(string, field)) {
	scanWords(s, func(w string, cjk bool) {
		if cjk {
			rs := []rune(w)
			for i := range rs {
				add(string(rs[i]), f)
				if i+1 < len(rs) {
					add(string(rs[i:i+2]), f)
				}
			}
			return
		}
		low := strings.ToLower(w)
		add(low, f)
		if camel {
			for _, p := range prose.CamelParts(w) {
				if p != low && utf8.RuneCountInString(p) >= 2 {
					add(p, f)
				}
			}
		}
	})
}

// scanWords calls emit for each run of letters and digits in s and each run of
// CJK characters (cjk set), in order. Everything else separates words.
func scanWords(s string, emit func(w string, cjk bool)) {
	start, kind := 0, 0 // kind: 0 none, 1 word, 2 CJK
	for i, r := range s {
		k := 0
		switch {
		case r >= 0x2E80 && isCJK(r):
			k = 2
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			k = 1
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			k = 1
		}
		if k != kind {
			if kind != 0 {
				emit(s[start:i], kind == 2)
			}
			start, kind = i, k
		}
	}
	if kind != 0 {
		emit(s[start:], kind == 2)
	}
}

// isCJK reports whether r is a Chinese, Japanese or Korean character.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// phraseOf writes s as its words, lower case, between single spaces, with
// a space at each end: what a phrase is looked for in.
func phraseOf(s string) string {
	var b strings.Builder
	b.WriteByte(' ')
	scanWords(s, func(w string, _ bool) {
		b.WriteString(strings.ToLower(w))
		b.WriteByte(' ')
	})
	return b.String()
}

// searchStopWords are left out of a query's terms (unless it has no
// others): they match nearly every KEP and rank nothing.
var searchStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "for": true, "in": true, "on": true, "to": true,
	"and": true, "or": true, "as": true, "by": true, "with": true, "is": true, "be": true, "kep": true, "sig": true,
}

// queryTerms splits a query into the terms to look up: words lower case,
// and each CJK run as its bigrams (a single character as itself).
func queryTerms(q string) []string {
	var all, kept []string
	seen := map[string]bool{}
	scanWords(q, func(w string, cjk bool) {
		var ts []string
		if cjk {
			rs := []rune(w)
			if len(rs) == 1 {
				ts = []string{w}
			}
			for i := 0; i+1 < len(rs); i++ {
				ts = append(ts, string(rs[i:i+2]))
			}
		} else {
			ts = []string{strings.ToLower(w)}
		}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				all = append(all, t)
				if !searchStopWords[t] {
					kept = append(kept, t)
				}
			}
		}
	})
	if len(kept) == 0 {
		return all
	}
	return kept
}
