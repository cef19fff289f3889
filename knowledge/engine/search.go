package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// maxSearchItems is how many KEPs a search answer ranks.
const maxSearchItems = 10

// searchHit is one KEP a query found and how well: whether its name holds
// the query as a phrase, and how many of the query's terms its name, its
// feature gates, its SIG and the documents' words hold.
type searchHit struct {
	doc                    int32
	phrase                 bool
	title, gate, sig, note int
}

// before reports whether h ranks above o: a phrase in the name first, then
// more terms in the name, in gates, in the SIG, in the documents' words;
// ties by KEP number, which docs are sorted by.
func (h searchHit) before(o searchHit) bool {
	switch {
	case h.phrase != o.phrase:
		return h.phrase
	case h.title != o.title:
		return h.title > o.title
	case h.gate != o.gate:
		return h.gate > o.gate
	case h.sig != o.sig:
		return h.sig > o.sig
	case h.note != o.note:
		return h.note > o.note
	}
	return h.doc < o.doc
}

// lookup returns every KEP that holds at least one term of query, best
// first. An English term of three letters or more also matches the words
// it begins (volume finds volumes); CJK terms match exactly.
func (ix *searchIndex) lookup(query string) []searchHit {
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil
	}
	hits := make([]searchHit, len(ix.docs))
	mask := make([]field, len(ix.docs))
	seen := make([]bool, len(ix.docs))
	var touched, found []int32
	for _, t := range terms {
		found = found[:0]
		ix.eachMatch(t, func(ps []posting) {
			for _, p := range ps {
				if mask[p.doc] == 0 {
					found = append(found, p.doc)
				}
				mask[p.doc] |= p.fields
			}
		})
		for _, d := range found {
			h, m := &hits[d], mask[d]
			mask[d] = 0
			if !seen[d] {
				seen[d] = true
				touched = append(touched, d)
			}
			h.title += bit(m&inTitle != 0)
			h.gate += bit(m&inGate != 0)
			h.sig += bit(m&inSIG != 0)
			h.note += bit(m&inNote != 0)
		}
	}
	phrase := phraseOf(query)
	out := make([]searchHit, 0, len(touched))
	for _, d := range touched {
		h := hits[d]
		h.doc = d
		h.phrase = len(phrase) > 2 && strings.Contains(ix.phrases.At(int(d)), phrase)
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].before(out[j]) })
	return out
}

// eachMatch calls fn with the postings of every index term that query
// term t matches: itself, and for English terms of three letters or more,
// every term it begins.
func (ix *searchIndex) eachMatch(t string, fn func([]posting)) {
	prefix := len(t) >= 3 && t[0] < 0x80
	for i := ix.terms.Search(t); i < ix.terms.Len(); i++ {
		if term := ix.terms.At(i); term != t && (!prefix || !strings.HasPrefix(term, t)) {
			return
		}
		fn(ix.post.At(i))
	}
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// answerSearch answers `search WORDS`: KEPs ranked by where they hold the
// words (see searchHit.before), from the Engine's index.
func (e *Engine) answerSearch(ctx context.Context, words string) (*knowledge.Answer, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	hits := c.index.lookup(words)
	if len(hits) == 0 {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I found no KEP matching those words. Try fewer words, a feature gate name or a SIG.")
	}
	a := &knowledge.Answer{Kind: knowledge.KindSearch, Title: "Search: " + knowledge.Short(words)}
	var ids []string
	for i, h := range hits {
		if i == maxSearchItems {
			a.Notes = append(a.Notes, fmt.Sprintf("Showing the best %d of %d matches; add words to narrow it.", maxSearchItems, len(hits)))
			break
		}
		k := c.index.docs[h.doc]
		it := kepItem(k)
		it.Rank = i + 1
		a.Items = append(a.Items, it)
		ids = append(ids, kepSourceIDs(k)...)
	}
	a.Text = fmt.Sprintf("%s, best first: the name, then feature gates, SIG and the documents' words.", capitalize(knowledge.Plural(len(hits), "KEP matches", "KEPs match")))
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// kepItem is k as one line of a list: its name, its stage now, the release
// of its last step, its SIG.
func kepItem(k *knowledge.KEP) knowledge.Item {
	title := k.Title
	for _, m := range k.History {
		if title != "" {
			break
		}
		title = m.Title
	}
	return knowledge.Item{KEP: k.Number, Title: title, Stage: k.CurrentStage(), Release: lastRelease(k), SIG: sigOf(k)}
}
