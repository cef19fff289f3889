package website

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge/sources/markdown"
)

// blockKind says what one Markdown block is.
type blockKind int

const (
	blockParagraph blockKind = iota + 1
	blockHeading
	blockItem  // one list item with its continuation lines
	blockTable // one or more "| ... |" rows
	blockCode  // a fenced or indented code block: never read for facts
	blockHTML  // a raw HTML block such as <a id=...>
	blockBreak // a thematic break (---, ***, <hr>): ends an item's body
)

// block is one Markdown block with the 1-based line it starts on.
type block struct {
	kind  blockKind
	level int    // heading level 1-6
	text  string // heading text (anchor removed), or the lines joined with spaces
	plain string // text rendered by plain, for headings, paragraphs and items
	line  int
}

// frontMatter is the Hugo YAML header read as flat keys; a nested key is
// "parent.child" (release_announcement.minor_version).
type frontMatter = markdown.FrontMatter

// splitBlocks reads a post into blocks with the shared Markdown reader,
// Hugo shortcode lines dropped first. It never fails. Blocks with no text
// are left out; an <hr> is a thematic break; a paragraph of "| ... |" rows
// is a table even without a delimiter row (SOURCE.md lists are written so).
func splitBlocks(src string) (frontMatter, []block) {
	doc := markdown.Parse([]byte(dropShortcodes(src)))
	out := make([]block, 0, len(doc.Blocks))
	for i := range doc.Blocks {
		mb := &doc.Blocks[i]
		b := block{line: mb.Line, level: mb.Level}
		switch mb.Kind {
		case markdown.Heading:
			b.kind, b.text = blockHeading, headingText(mb.Text())
		case markdown.Paragraph:
			b.kind, b.text = blockParagraph, mb.Text()
			if pipeRows(mb.Lines) {
				b.kind = blockTable
			}
		case markdown.Item:
			b.kind, b.text = blockItem, mb.Text()
		case markdown.Table:
			b.kind, b.text = blockTable, mb.Text()
		case markdown.Code:
			b.kind, b.text = blockCode, mb.Text()
		case markdown.HTML:
			b.kind = blockHTML
			if len(mb.Lines) > 0 {
				b.text = mb.Lines[0]
			}
			if len(b.text) >= 3 && strings.EqualFold(b.text[:3], "<hr") {
				b.kind, b.text = blockBreak, ""
			}
		case markdown.Break:
			b.kind = blockBreak
		default:
			continue
		}
		switch b.kind {
		case blockHeading:
			b.plain = plain(b.text)
		case blockParagraph, blockItem:
			if strings.TrimSpace(b.text) == "" {
				continue
			}
			b.plain = plain(b.text)
		case blockTable:
			if strings.TrimSpace(b.text) == "" {
				continue
			}
		}
		out = append(out, b)
	}
	return doc.FrontMatter, out
}

// pipeRows reports whether every line of a paragraph is a "| ... |" row.
func pipeRows(lines []string) bool {
	for _, l := range lines {
		if !strings.HasPrefix(l, "|") {
			return false
		}
	}
	return len(lines) > 0
}

// headingText is a heading without a trailing Hugo anchor "{#id}" and
// closing hashes.
func headingText(t string) string {
	if i := strings.LastIndex(t, "{#"); i >= 0 && strings.HasSuffix(t, "}") {
		t = strings.TrimSpace(t[:i])
	}
	return strings.TrimSpace(strings.TrimRight(t, "#"))
}

// maxShortcodeLines is how many lines a shortcode tag may span.
const maxShortcodeLines = 20

// dropShortcodes blanks the lines of Hugo shortcode tags ("{{< figure ...
// >}}", "{{% /note %}}"): a line that starts with one, and the lines up to
// the one that closes the tag when it spans several. They are markup, not
// text; a blank line keeps the line numbers and ends the paragraph or item
// they interrupt.
func dropShortcodes(src string) string {
	if !strings.Contains(src, "{{") {
		return src
	}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimLeft(lines[i], " \t")
		if !strings.HasPrefix(t, "{{<") && !strings.HasPrefix(t, "{{%") {
			continue
		}
		end := i
		for j := i; j < len(lines) && j < i+maxShortcodeLines; j++ {
			if strings.Contains(lines[j], ">}}") || strings.Contains(lines[j], "%}}") {
				end = j
				break
			}
		}
		for j := i; j <= end; j++ {
			lines[j] = ""
		}
		i = end
	}
	return strings.Join(lines, "\n")
}
