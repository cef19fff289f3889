package releasenote

import (
	"strings"
	"unicode/utf8"
)

// blockKind says what one Markdown block is.
type blockKind int

const (
	blockParagraph blockKind = iota + 1
	blockHeading
	blockItem  // one list item, continuation lines included
	blockQuote // a blockquote, markers removed
	blockCode  // a fenced or indented code block: never read for facts
	blockHTML  // a raw HTML line such as <img ...>
)

// block is one Markdown block with the 1-based line it starts on.
type block struct {
	kind  blockKind
	level int    // heading level 1-6
	text  string // heading text, or the lines joined (see joinLines)
	line  int
}

// frontMatter is the YAML header between "---" lines at the top of a
// document, read as flat "key: value" pairs.
type frontMatter map[string]string

// splitBlocks reads Markdown line by line into blocks. It is deliberately
// small: ATX headings, fenced code (whose "# ..." lines are not headings),
// list items with their continuation lines, blockquotes and paragraphs. It
// never fails; an unclosed fence runs to the end of the text.
func splitBlocks(src string) (frontMatter, []block) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	fm, start := readFrontMatter(lines)
	var out []block
	var cur *block
	var curLines []string
	flush := func() {
		if cur != nil {
			cur.text = joinLines(curLines)
			if cur.text != "" || cur.kind == blockCode {
				out = append(out, *cur)
			}
		}
		cur, curLines = nil, nil
	}
	open := func(k blockKind, i int, first string) {
		flush()
		cur = &block{kind: k, line: i + 1}
		curLines = []string{first}
	}
	for i := start; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], " \t")
		trimmed := strings.TrimLeft(raw, " \t")
		indent := len(raw) - len(trimmed)
		if fence, ok := fenceOpen(trimmed); ok && indent < 8 {
			flush()
			end := closeFence(lines, i+1, fence)
			out = append(out, block{kind: blockCode, line: i + 1, text: strings.Join(lines[i+1:end], "\n")})
			i = end // the closing line, or len(lines)
			continue
		}
		switch {
		case trimmed == "":
			flush()
		case indent < 4 && isHeading(trimmed):
			flush()
			lvl, text := headingText(trimmed)
			out = append(out, block{kind: blockHeading, level: lvl, text: text, line: i + 1})
		case isThematicBreak(trimmed):
			flush()
		case listMarker(trimmed) > 0:
			open(blockItem, i, trimmed[listMarker(trimmed):])
		case strings.HasPrefix(trimmed, ">"):
			body := strings.TrimPrefix(strings.TrimPrefix(trimmed, ">"), " ")
			if cur != nil && cur.kind == blockQuote {
				curLines = append(curLines, body)
			} else {
				open(blockQuote, i, body)
			}
		case strings.HasPrefix(trimmed, "<") && cur == nil:
			open(blockHTML, i, trimmed)
		case cur != nil && cur.kind != blockHTML:
			curLines = append(curLines, trimmed) // continuation (lazy or indented)
		default:
			open(blockParagraph, i, trimmed)
		}
	}
	flush()
	return fm, out
}

// readFrontMatter reads a closed "---" header at the very top. Without a
// closing line within 200 lines there is no front matter.
func readFrontMatter(lines []string) (frontMatter, int) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return nil, 0
	}
	fm := frontMatter{}
	for i := 1; i < len(lines) && i < 200; i++ {
		l := strings.TrimSpace(lines[i])
		if l == "---" {
			return fm, i + 1
		}
		if k, v, ok := strings.Cut(lines[i], ":"); ok && !strings.HasPrefix(k, " ") && !strings.HasPrefix(k, "\t") {
			fm[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return nil, 0
}

// fenceOpen reports whether l opens a fenced code block and returns the fence.
func fenceOpen(l string) (string, bool) {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(l, c) {
			n := len(l) - len(strings.TrimLeft(l, c[:1]))
			return strings.Repeat(c[:1], n), true
		}
	}
	return "", false
}

// closeFence returns the index of the line closing fence, or len(lines).
func closeFence(lines []string, from int, fence string) int {
	for j := from; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			return j
		}
	}
	return len(lines)
}

func isHeading(l string) bool {
	n := len(l) - len(strings.TrimLeft(l, "#"))
	return n >= 1 && n <= 6 && (len(l) == n || l[n] == ' ' || l[n] == '\t')
}

func headingText(l string) (int, string) {
	n := len(l) - len(strings.TrimLeft(l, "#"))
	t := strings.TrimSpace(l[n:])
	if s := strings.TrimRight(t, "#"); s != t && (s == "" || strings.HasSuffix(s, " ")) {
		t = strings.TrimSpace(s)
	}
	return n, t
}

func isThematicBreak(l string) bool {
	s := strings.ReplaceAll(l, " ", "")
	if len(s) < 3 {
		return false
	}
	return strings.Trim(s, "-") == "" || strings.Trim(s, "*") == "" || strings.Trim(s, "_") == ""
}

// listMarker returns the length of a list marker with its following space
// ("- ", "* ", "1. ", "2) "), or 0 when l does not start a list item.
func listMarker(l string) int {
	if len(l) >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && (l[1] == ' ' || l[1] == '\t') {
		return 2
	}
	i := 0
	for i < len(l) && i < 9 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && (l[i+1] == ' ' || l[i+1] == '\t') {
		return i + 2
	}
	return 0
}

// joinLines joins wrapped lines of one block. Chinese text wraps without a
// space, so lines meet without one when either side is CJK; otherwise with
// one space.
func joinLines(ls []string) string {
	var b strings.Builder
	for _, l := range ls {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			prev, _ := utf8.DecodeLastRuneInString(b.String())
			next, _ := utf8.DecodeRuneInString(l)
			if !isCJK(prev) && !isCJK(next) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// isCJK reports whether r is a Han character or CJK/full-width punctuation.
func isCJK(r rune) bool {
	return (r >= 0x2E80 && r <= 0x9FFF) || (r >= 0xF900 && r <= 0xFAFF) || (r >= 0xFF00 && r <= 0xFFEF) || (r >= 0x3000 && r <= 0x303F)
}
