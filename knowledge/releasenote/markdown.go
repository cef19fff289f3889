package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/markdown"
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
