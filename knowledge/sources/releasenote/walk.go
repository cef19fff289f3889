package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/sources/markdown"
)

// blockKind says what one Markdown block is.
type blockKind int

const (
	blockParagraph blockKind = iota + 1
	blockHeading
	blockItem  // one list item, continuation lines included
	blockQuote // a paragraph in a blockquote, markers removed
	blockCode  // a fenced or indented code block: never read for facts
	blockHTML  // a raw HTML block such as <img ...>
)

// block is one Markdown block with the 1-based line it starts on.
type block struct {
	kind  blockKind
	level int    // heading level 1-6
	text  string // heading text, or the lines joined (see markdown.JoinLines)
	line  int
}

// frontMatter is the YAML header between "---" lines at the top of a
// document, read as flat "key: value" pairs.
type frontMatter = markdown.FrontMatter

// splitBlocks reads Markdown into blocks with the shared Markdown reader. A
// table is read as a paragraph of its rows; thematic breaks, and blocks
// without text other than headings and code, are left out. It never fails.
func splitBlocks(src string) (frontMatter, []block) {
	doc := markdown.Parse([]byte(src))
	out := make([]block, 0, len(doc.Blocks))
	for i := range doc.Blocks {
		mb := &doc.Blocks[i]
		b := block{line: mb.Line, level: mb.Level, text: mb.Text()}
		switch mb.Kind {
		case markdown.Heading:
			b.kind = blockHeading
		case markdown.Paragraph, markdown.Table:
			b.kind = blockParagraph
			if mb.Quote > 0 {
				b.kind = blockQuote
			}
		case markdown.Item:
			b.kind = blockItem
		case markdown.Code:
			b.kind = blockCode
		case markdown.HTML:
			b.kind = blockHTML
		default:
			continue
		}
		if b.text == "" && b.kind != blockCode && b.kind != blockHeading {
			continue
		}
		out = append(out, b)
	}
	return doc.FrontMatter, out
}

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
	reEndsWithURL = lazyre.New(`https?://\S+\s*$`)
	reIntroPara   = lazyre.New(`^(?:本节|本文|更多|以下|详情|如下|See |For more)`)
)

// walker keeps the state of one pass over a document's blocks.
type walker struct {
	blocks     []block
	preamble   []block
	items      []item
	top        section  // the current section
	sub        *section // the current subsection, if any
	inPreamble bool
	titleSeen  bool
	secID      int
	tagSIG     string // from the last "**APPS:**" pseudo-heading
	pending    string // a title-like line in a notice section
	pendLine   int
}

// walk splits the blocks into the preamble (everything before the first
// section heading, where the release facts are) and the items of each
// section. The first level-1 heading is the document's title.
func walk(blocks []block) (preamble []block, items []item) {
	w := &walker{blocks: blocks, inPreamble: true}
	for i := 0; i < len(blocks); i++ {
		if blocks[i].kind == blockHeading {
			i = w.heading(i)
			continue
		}
		w.other(blocks[i])
	}
	return w.preamble, w.items
}

// current is the section items stand under now.
func (w *walker) current() section {
	if w.sub != nil {
		return *w.sub
	}
	return w.top
}

// heading handles the heading at i: the title, a section, a subsection or
// an item with its body. It returns the index of the last block it used.
func (w *walker) heading(i int) int {
	b := w.blocks[i]
	if w.inPreamble && !w.titleSeen && b.level == 1 {
		w.titleSeen = true
		return i
	}
	w.tagSIG, w.pending = "", ""
	if b.level <= 2 {
		w.inPreamble, w.sub = false, nil
		w.secID++
		k, st := classify(inline(b.text))
		w.top = section{kind: k, stage: st, title: inline(b.text), level: b.level, id: w.secID}
		return i
	}
	if w.inPreamble { // a heading below a section the text does not show (a cut document)
		w.inPreamble = false
		w.secID++
		w.top = section{kind: secFeatures, level: 2, id: w.secID}
	}
	if w.sub != nil && b.level <= w.sub.level {
		w.sub = nil
	}
	cur := w.current()
	if s, ok := subsection(b, nextBlock(w.blocks, i), cur); ok {
		w.sub = &s
		return i
	}
	j := i + 1
	for j < len(w.blocks) && (w.blocks[j].kind != blockHeading || w.blocks[j].level > b.level) {
		j++
	}
	body := w.blocks[i+1 : j]
	w.items = append(w.items, item{kind: itemHeading, raw: b.text, body: body, line: b.line, sec: cur, under: cur.title})
	if !cur.kind.isNoticeKind() {
		// List entries naming KEPs under a feature heading are features too.
		for _, bb := range body {
			if bb.kind == blockItem && len(kepRefs(bb.text)) > 0 {
				w.items = append(w.items, item{kind: itemList, raw: bb.text, line: bb.line, sec: cur, under: inline(b.text), inHeading: true})
			}
		}
	}
	return j - 1
}

// other handles a block that is not a heading: list entries are items;
// "**APPS:**" lines tag the entries below them; in notice sections a
// paragraph is an item, titled by a short line just above it.
func (w *walker) other(b block) {
	if w.inPreamble {
		w.preamble = append(w.preamble, b)
		return
	}
	cur := w.current()
	switch b.kind {
	case blockItem:
		w.items = append(w.items, item{kind: itemList, raw: b.text, line: b.line, sec: cur, under: cur.title, tagSIG: w.tagSIG})
	case blockParagraph:
		if t := boldTag(b.text); t != "" {
			w.tagSIG = sigOf(t)
			return
		}
		if !cur.kind.isNoticeKind() {
			return
		}
		txt := inline(b.text)
		switch {
		case reIntroPara().MatchString(txt) || reEndsWithURL().MatchString(txt):
		case titleLike(txt):
			w.pending, w.pendLine = txt, b.line
		default:
			it := item{kind: itemPara, raw: b.text, line: b.line, sec: cur, under: cur.title, title: w.pending}
			if w.pending != "" {
				it.line = w.pendLine
			}
			w.items = append(w.items, it)
			w.pending = ""
		}
	}
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
