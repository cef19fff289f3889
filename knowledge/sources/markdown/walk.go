package markdown

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// maxDepth bounds how deep the walker follows lists and blockquotes. The
// parser itself nests as deep as the text does; past this depth a
// container's blocks are left out, so a document of a million nested "> "
// markers cannot exhaust the stack.
const maxDepth = 100

// walker flattens goldmark's tree into Blocks.
type walker struct {
	src        []byte
	lineStarts []int
	out        []Block
}

// children walks the child blocks of n, which sits in depth list items and
// quote blockquotes.
func (w *walker) children(n ast.Node, depth, quote int) {
	if depth+quote > maxDepth {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.block(c, depth, quote)
	}
}

// block turns one node into Blocks: a leaf block into one, a container
// into the blocks it holds.
func (w *walker) block(n ast.Node, depth, quote int) {
	b := Block{Depth: depth, Quote: quote}
	switch n := n.(type) {
	case *ast.Heading:
		b.Kind, b.Level, b.Lines = Heading, n.Level, w.lines(n.Lines())
		b.Line = w.lineOf(n.Pos())
	case *ast.Paragraph, *ast.TextBlock:
		b.Kind, b.Lines = Paragraph, w.lines(n.Lines())
		b.Line = w.lineOf(n.Pos())
	case *ast.FencedCodeBlock:
		b.Kind, b.Lines = Code, w.codeLines(n.Lines())
		if n.Info != nil {
			b.Info = strings.TrimSpace(string(n.Info.Segment.Value(w.src)))
		}
		b.Line = w.lineOf(n.Pos())
	case *ast.CodeBlock:
		b.Kind, b.Lines = Code, w.codeLines(n.Lines())
		b.Line = w.lineOf(n.Pos())
	case *ast.HTMLBlock:
		b.Kind, b.Lines = HTML, w.lines(n.Lines())
		if n.HasClosure() {
			b.Lines = append(b.Lines, strings.TrimSpace(string(n.ClosureLine.Value(w.src))))
		}
		b.Line = w.lineOf(n.Pos())
	case *ast.ThematicBreak:
		b.Kind, b.Line = Break, w.lineOf(n.Pos())
	case *east.Table:
		w.table(n, b)
		return
	case *ast.List:
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			w.item(it, depth+1, quote)
		}
		return
	case *ast.Blockquote:
		w.children(n, depth, quote+1)
		return
	default:
		w.children(n, depth, quote)
		return
	}
	w.out = append(w.out, b)
}

// item emits a list item, with the paragraph on its marker line as its
// text, then the rest of its body.
func (w *walker) item(n ast.Node, depth, quote int) {
	if depth+quote > maxDepth {
		return
	}
	b := Block{Kind: Item, Line: w.lineOf(n.Pos()), Depth: depth, Quote: quote}
	first := n.FirstChild()
	switch p := first.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if w.lineOf(p.Pos()) == b.Line {
			b.Lines = w.lines(p.Lines())
			first = first.NextSibling()
		}
	}
	w.out = append(w.out, b)
	for c := first; c != nil; c = c.NextSibling() {
		w.block(c, depth, quote)
	}
}

// table emits a table with its rows' cells. Its Lines are the source
// lines from the header row to the last row, delimiter row included, and
// its Line is the header row's.
func (w *walker) table(t *east.Table, b Block) {
	b.Kind = Table
	first, last := -1, -1
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.Join(w.lines(c.Lines()), " "))
		}
		b.Rows = append(b.Rows, cells)
		if pos := r.Pos(); pos >= 0 {
			if first < 0 {
				first = pos
			}
			last = pos
		}
	}
	if first < 0 {
		b.Line = w.lineOf(t.Pos())
		w.out = append(w.out, b)
		return
	}
	b.Line = w.lineOf(first)
	col := first - w.lineStarts[b.Line-1] // the width of container markers
	for l := b.Line; l <= w.lineOf(last); l++ {
		start := w.lineStarts[l-1]
		end := w.lineEnd(start)
		b.Lines = append(b.Lines, strings.TrimSpace(string(w.src[min(start+col, end):end])))
	}
	w.out = append(w.out, b)
}

// lines returns the trimmed text of each segment.
func (w *walker) lines(segs *text.Segments) []string {
	out := make([]string, 0, segs.Len())
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		out = append(out, strings.TrimSpace(string(seg.Value(w.src))))
	}
	return out
}

// codeLines returns the code lines of a code block as written, each
// without its newline. They share one string: a code block may be most of
// a document.
func (w *walker) codeLines(segs *text.Segments) []string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		v := seg.Value(w.src)
		b.Write(bytes.TrimRight(v, "\r\n"))
		if i+1 < segs.Len() {
			b.WriteByte('\n')
		}
	}
	if segs.Len() == 0 {
		return nil
	}
	return strings.Split(b.String(), "\n")
}

// The parser's work on a line grows with the number of lists and
// blockquotes open around it, so a document of deeply nested containers
// takes time quadratic in its size (a 4 MiB line of ">" would take hours).
// No real document nests more than a few levels; past these limits a line's
// container markers and indentation are cut before parsing, and what the
// line holds still reads as text. Line numbers do not change.
const (
	// maxMarkers is how many blockquote and list markers a line may open
	// with ("> > - 1. x" has four).
	maxMarkers = 32
	// maxIndent is how many columns of indentation a line keeps; a tab
	// counts as four. Nested lists need two columns or more a level.
	maxIndent = 128
)

// flatten returns src with each line's leading markers and indentation cut
// to the limits above, or src itself when no line passes them.
func flatten(src []byte) []byte {
	var out []byte // nil until a line needs cutting
	at := 0
	for at < len(src) {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += at
		}
		line := src[at:end]
		keep, cut := prefixCut(line)
		if cut > keep && out == nil {
			out = append(make([]byte, 0, len(src)), src[:at]...)
		}
		if out != nil {
			out = append(out, line[:keep]...)
			out = append(out, line[cut:]...)
			if end < len(src) {
				out = append(out, '\n')
			}
		}
		at = end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// prefixCut reads the container markers and white space a line opens with
// and returns the span line[keep:cut] to remove: from where the prefix
// passes a limit to where it ends. The span is empty when the line is
// within the limits.
func prefixCut(line []byte) (keep, cut int) {
	markers, cols := 0, 0
	keep = -1
	i := 0
scan:
	for i < len(line) {
		switch c := line[i]; {
		case c == ' ':
			cols++
			i++
		case c == '\t':
			cols += 4
			i++
		case c == '>':
			markers++
			i++
		case c == '-' || c == '+' || c == '*':
			if i+1 >= len(line) || (line[i+1] != ' ' && line[i+1] != '\t') {
				break scan
			}
			markers++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 >= len(line) || (line[j] != '.' && line[j] != ')') || (line[j+1] != ' ' && line[j+1] != '\t') {
				break scan
			}
			markers++
			i = j + 1
		default:
			break scan
		}
		if keep < 0 && (markers > maxMarkers || cols > maxIndent) {
			keep = i
		}
	}
	if keep < 0 {
		return 0, 0
	}
	return keep, i
}
