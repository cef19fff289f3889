package markdown

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Kind says what one Block is.
type Kind int

// The kinds of Block, in no particular order.
const (
	Paragraph Kind = iota + 1
	Heading        // an ATX ("## x") or setext ("x\n---") heading
	Item           // a list item: the paragraph its marker opens
	Code           // a fenced or indented code block: never read for facts
	Table          // a GFM table with its delimiter row
	HTML           // a raw HTML block such as <img ...> or <!-- comment -->
	Break          // a thematic break (---, ***, ___)
)

var kindNames = [...]string{"", "paragraph", "heading", "item", "code", "table", "html", "break"}

func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindNames) {
		return "kind?"
	}
	return kindNames[k]
}

// Block is one Markdown block of a document.
type Block struct {
	Kind Kind
	// Line is the 1-based line the block starts on: a heading's line (a
	// setext heading's first text line), an item's marker line, a code
	// block's opening fence, a table's header row.
	Line  int
	Level int // a heading's level, 1-6
	// Depth is how many list items the block sits in: 1 for an item of a
	// top-level list and for the blocks of its body, 2 one list further in,
	// 0 outside lists.
	Depth int
	// Quote is how many blockquotes the block sits in.
	Quote int
	// Lines is the block's Markdown, one entry per source line, with block
	// markers and surrounding white space removed. A code block's lines are
	// as written, indentation kept; a table's are its rows without the
	// delimiter row. An item whose marker line holds no paragraph (it opens
	// with a code block or a nested list) has none.
	Lines []string
	Info  string     // a fenced code block's info string ("yaml")
	Rows  [][]string // a table's cells, header row first, Markdown kept
}

// Text joins a block's lines the way wrapped prose reads: with one space,
// or with none where a line ends or starts with a CJK character (Chinese
// wraps without spaces). A code block's lines are joined with newlines.
func (b *Block) Text() string {
	if b.Kind == Code {
		return strings.Join(b.Lines, "\n")
	}
	return JoinLines(b.Lines)
}

// JoinLines joins wrapped lines of prose: each trimmed, empty ones left
// out, meeting with one space unless either side is a CJK character.
func JoinLines(ls []string) string {
	var b strings.Builder
	var prev rune
	for _, l := range ls {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			if next, _ := utf8.DecodeRuneInString(l); !isCJK(prev) && !isCJK(next) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
		prev, _ = utf8.DecodeLastRuneInString(l)
	}
	return b.String()
}

// isCJK reports whether r is a Han character or CJK/full-width punctuation.
func isCJK(r rune) bool {
	return (r >= 0x2E80 && r <= 0x9FFF) || (r >= 0xF900 && r <= 0xFAFF) || (r >= 0xFF00 && r <= 0xFFEF) || (r >= 0x3000 && r <= 0x303F)
}

// Document is a parsed Markdown document.
type Document struct {
	// FrontMatter is the "---" header at the top, nil when there is none.
	FrontMatter FrontMatter
	// Blocks are the document's blocks in source order; the blocks inside a
	// list item or blockquote follow it, marked by Depth and Quote.
	Blocks []Block
}

// blockParser is goldmark's CommonMark block parser with the GFM table
// transformer. It has no inline parsers (readers read the Markdown of a
// block themselves) and no link reference transformer, so a "[x]: url"
// line stays in its paragraph's text as it is written.
var blockParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
)

// Parse reads src: a UTF-8 byte order mark and the front matter are taken
// off (line numbers still count the front matter's lines), CRLF line ends
// are read as LF, nesting past the limits of flatten is cut, and the rest
// is parsed as CommonMark with GFM tables. It
// never fails: whatever is not a block of another kind is a paragraph, and
// an unclosed fence runs to the end of the document.
func Parse(src []byte) *Document {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	fm, bodyAt := readFrontMatter(src)
	body := src
	if bodyAt > 0 {
		// Blank the header instead of cutting it, so offsets and line
		// numbers stay those of the whole document.
		body = append(bytes.Repeat([]byte("\n"), bytes.Count(src[:bodyAt], []byte("\n"))), src[bodyAt:]...)
	}
	body = flatten(body)
	w := &walker{src: body, lineStarts: lineStarts(body)}
	root := blockParser.Parse(text.NewReader(body))
	w.children(root, 0, 0)
	return &Document{FrontMatter: fm, Blocks: w.out}
}

// lineStarts returns the offset of the first byte of each line of src.
func lineStarts(src []byte) []int {
	out := make([]int, 1, bytes.Count(src, []byte("\n"))+1)
	for i, c := range src {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// lineOf returns the 1-based line that holds byte offset pos.
func (w *walker) lineOf(pos int) int {
	if pos < 0 {
		return 1
	}
	return sort.SearchInts(w.lineStarts, pos+1)
}

// lineEnd returns the offset of the end of the line holding pos (its
// newline, or the end of the document).
func (w *walker) lineEnd(pos int) int {
	if i := bytes.IndexByte(w.src[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(w.src)
}

// FrontMatter is the YAML header between "---" lines at the top of a
// document, read as flat keys: lower-case top-level keys, and
// "parent.child" for a key indented under one with an empty value
// (release_announcement.minor_version). It is read by hand, not as YAML:
// readers need a few string values, and a header that is not valid YAML
// still gives them.
type FrontMatter map[string]string

// maxFrontMatterLines bounds how far down the closing "---" is looked for:
// a header that does not close by then is not one.
const maxFrontMatterLines = 200

// readFrontMatter reads a closed "---" header at the very top of src and
// returns it with the offset where the body starts, or nil and 0. Values
// lose one pair of matching quotes; the indented lines under a key that are
// not "child: value" (a folded ">" value, a "- item" list) are joined onto it.
func readFrontMatter(src []byte) (FrontMatter, int) {
	first, rest, ok := bytes.Cut(src, []byte("\n"))
	if !ok || strings.TrimSpace(string(first)) != "---" {
		return nil, 0
	}
	at := len(first) + 1
	fm := FrontMatter{}
	parent := ""
	for i := 1; i < maxFrontMatterLines && len(rest) > 0; i++ {
		line, next, found := bytes.Cut(rest, []byte("\n"))
		at += len(line)
		if found {
			at++
		}
		rest = next
		l := strings.TrimRight(string(line), " \t\r")
		if strings.TrimSpace(l) == "---" {
			return fm, at
		}
		nested := strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		switch {
		case !nested && ok:
			key := strings.ToLower(strings.TrimSpace(k))
			fm[key] = unquote(v)
			parent = key
		case nested && parent != "" && ok && !strings.ContainsAny(k, " []()") && !strings.HasPrefix(k, "-"):
			fm[parent+"."+strings.ToLower(strings.TrimSpace(k))] = unquote(v)
		case nested && parent != "":
			fm[parent] = strings.TrimSpace(strings.TrimPrefix(fm[parent], ">") + " " + strings.TrimSpace(l))
		}
	}
	return nil, 0
}

// unquote trims v and removes one pair of matching quotes around it.
func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}
