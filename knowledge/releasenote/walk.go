package releasenote

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// itemKind says how an item is written.
type itemKind int

const (
	itemHeading itemKind = iota + 1 // a heading and the blocks under it
	itemList                        // one list entry
	itemPara                        // a paragraph in a notice section
)

// item is one thing a section says: a feature, a deprecation, an upgrade note.
type item struct {
	kind      itemKind
	raw       string  // the heading, list entry or paragraph, as Markdown
	body      []block // for headings: the blocks under it
	line      int
	sec       section // the section it stands under
	under     string  // the heading it stood under, as text
	tagSIG    string  // SIG of a "**APPS:**" pseudo-heading above it
	title     string  // for paragraphs: the short line titling them
	inHeading bool    // a list entry inside a heading item's body
}

var (
	reEndsWithURL = regexp.MustCompile(`https?://\S+\s*$`)
	reIntroPara   = regexp.MustCompile(`^(?:本节|本文|更多|以下|详情|如下|See |For more)`)
)

// walk splits the blocks into the preamble (everything before the first
// section heading, where the release facts are) and the items of each
// section. The first level-1 heading is the document's title.
func walk(blocks []block) (preamble []block, items []item) {
	var (
		top        section
		sub        *section
		inPreamble = true
		titleSeen  = false
		secID      = 0
		tagSIG     string
		pending    string // a title-like line in a notice section
		pendLine   int
	)
	for i := 0; i < len(blocks); i++ {
		b := blocks[i]
		if b.kind == blockHeading {
			if inPreamble && !titleSeen && b.level == 1 {
				titleSeen = true
				continue
			}
			tagSIG, pending = "", ""
			if b.level <= 2 {
				inPreamble, sub = false, nil
				secID++
				k, st := classify(inline(b.text))
				top = section{kind: k, stage: st, title: inline(b.text), level: b.level, id: secID}
				continue
			}
			if inPreamble { // a heading below a section that the text does not show (a cut document)
				inPreamble = false
				secID++
				top = section{kind: secFeatures, level: 2, id: secID}
			}
			if sub != nil && b.level <= sub.level {
				sub = nil
			}
			cur := top
			if sub != nil {
				cur = *sub
			}
			if s, ok := subsection(b, nextBlock(blocks, i), cur); ok {
				sub = &s
				continue
			}
			j := i + 1
			for j < len(blocks) && (blocks[j].kind != blockHeading || blocks[j].level > b.level) {
				j++
			}
			items = append(items, item{kind: itemHeading, raw: b.text, body: blocks[i+1 : j], line: b.line, sec: cur, under: cur.title})
			if !cur.kind.isNoticeKind() {
				for _, bb := range blocks[i+1 : j] {
					if bb.kind == blockItem && len(kepRefs(bb.text)) > 0 {
						items = append(items, item{kind: itemList, raw: bb.text, line: bb.line, sec: cur, under: inline(b.text), inHeading: true})
					}
				}
			}
			i = j - 1
			continue
		}
		if inPreamble {
			preamble = append(preamble, b)
			continue
		}
		cur := top
		if sub != nil {
			cur = *sub
		}
		switch b.kind {
		case blockItem:
			items = append(items, item{kind: itemList, raw: b.text, line: b.line, sec: cur, under: cur.title, tagSIG: tagSIG})
		case blockParagraph:
			if t := boldTag(b.text); t != "" {
				tagSIG = sigOf(t)
				continue
			}
			if !cur.kind.isNoticeKind() {
				continue
			}
			txt := inline(b.text)
			switch {
			case reIntroPara.MatchString(txt) || reEndsWithURL.MatchString(txt):
			case titleLike(txt):
				pending, pendLine = txt, b.line
			default:
				it := item{kind: itemPara, raw: b.text, line: b.line, sec: cur, under: cur.title, title: pending}
				if pending != "" {
					it.line = pendLine
				}
				items = append(items, it)
				pending = ""
			}
		}
	}
	return preamble, items
}

// nextBlock returns the block after i, or nil.
func nextBlock(blocks []block, i int) *block {
	if i+1 < len(blocks) {
		return &blocks[i+1]
	}
	return nil
}

// titleLike reports whether a paragraph is a short line that titles what
// follows rather than saying something itself: no sentence punctuation.
func titleLike(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > 40 || strings.Contains(s, "。") {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return !strings.ContainsRune("。！？；.!?：:，,", r)
}
