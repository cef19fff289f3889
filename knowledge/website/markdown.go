package website

import (
	"strings"
)

// blockKind says what one Markdown block is.
type blockKind int

const (
	blockParagraph blockKind = iota + 1
	blockHeading
	blockItem  // one list item with its continuation lines
	blockTable // one or more "| ... |" rows
	blockCode  // a fenced code block: never read for facts
	blockHTML  // a raw HTML line such as <hr /> or <a id=...>
	blockBreak // a thematic break (---, ***, <hr>): ends an item's body
)

// block is one Markdown block with the 1-based line it starts on.
type block struct {
	kind   blockKind
	level  int    // heading level 1-6
	indent int    // list items: columns before the marker
	text   string // heading text (anchor removed), or the lines joined with spaces
	plain  string // text rendered by plain, for headings, paragraphs and items
	line   int
}

// frontMatter is the Hugo YAML header read as flat keys; a nested key is
// "parent.child" (release_announcement.minor_version).
type frontMatter map[string]string

// splitBlocks reads Markdown line by line into blocks: ATX headings, fenced
// code, list items with continuation lines, tables, HTML lines, Hugo
// shortcodes (dropped) and paragraphs. It never fails; an unclosed fence or
// shortcode runs to the end of the text.
func splitBlocks(src string) (fm frontMatter, out []block) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	fm, start := readFrontMatter(lines)
	defer func() {
		for i := range out {
			switch out[i].kind {
			case blockHeading, blockParagraph, blockItem:
				out[i].plain = plain(out[i].text)
			}
		}
	}()
	var cur *block
	var curLines []string
	flush := func() {
		if cur != nil {
			cur.text = strings.Join(curLines, " ")
			if strings.TrimSpace(cur.text) != "" {
				out = append(out, *cur)
			}
		}
		cur, curLines = nil, nil
	}
	open := func(k blockKind, i, indent int, first string) {
		flush()
		cur = &block{kind: k, line: i + 1, indent: indent}
		curLines = []string{first}
	}
	for i := start; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], " \t\r")
		trimmed := strings.TrimLeft(raw, " \t")
		indent := indentWidth(raw[:len(raw)-len(trimmed)])
		switch {
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			flush()
			end := closeFence(lines, i+1, trimmed[:3])
			out = append(out, block{kind: blockCode, line: i + 1, text: strings.Join(lines[i+1:end], "\n")})
			i = end
		case strings.HasPrefix(trimmed, "{{<") || strings.HasPrefix(trimmed, "{{%"):
			flush()
			i = closeShortcode(lines, i) // a shortcode line or tag is markup, not text
		case indent < 4 && isHeading(trimmed):
			flush()
			lvl, text := headingText(trimmed)
			out = append(out, block{kind: blockHeading, level: lvl, text: text, line: i + 1})
		case isBreak(trimmed):
			flush()
			out = append(out, block{kind: blockBreak, line: i + 1})
		case strings.HasPrefix(trimmed, "|"):
			if cur == nil || cur.kind != blockTable {
				open(blockTable, i, indent, trimmed)
			} else {
				curLines = append(curLines, trimmed)
			}
		case listMarker(trimmed) > 0:
			open(blockItem, i, indent, strings.TrimLeft(trimmed[listMarker(trimmed):], " \t"))
		case strings.HasPrefix(trimmed, "<") && cur == nil:
			out = append(out, block{kind: blockHTML, line: i + 1, text: trimmed})
		case cur != nil && cur.kind != blockTable:
			curLines = append(curLines, trimmed) // continuation, lazy or indented
		default:
			open(blockParagraph, i, indent, trimmed)
		}
	}
	flush()
	return fm, out
}

// indentWidth counts leading columns, a tab as four.
func indentWidth(ws string) int {
	n := 0
	for _, r := range ws {
		if r == '\t' {
			n += 4
		} else {
			n++
		}
	}
	return n
}

// readFrontMatter reads a closed "---" header at the very top. Keys are lower
// case; a key with an empty value followed by indented "child: value" lines
// gives "key.child" entries; folded (">") values are joined.
func readFrontMatter(lines []string) (frontMatter, int) {
	if len(lines) == 0 || strings.TrimSpace(strings.TrimPrefix(lines[0], "\uFEFF")) != "---" {
		return nil, 0
	}
	fm := frontMatter{}
	parent := ""
	for i := 1; i < len(lines) && i < 200; i++ {
		l := strings.TrimRight(lines[i], " \t\r")
		if strings.TrimSpace(l) == "---" {
			return fm, i + 1
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
	return nil, 0 // never closed: not front matter
}

func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}

// closeFence returns the index of the line closing a fence opened with
// marker, or len(lines) when it is never closed.
func closeFence(lines []string, from int, marker string) int {
	for j := from; j < len(lines); j++ {
		if strings.HasPrefix(strings.TrimSpace(lines[j]), marker) {
			return j
		}
	}
	return len(lines)
}

// closeShortcode returns the last line of a shortcode tag opened on line i
// (a tag may span lines up to its ">}}" or "%}}").
func closeShortcode(lines []string, i int) int {
	for j := i; j < len(lines) && j < i+20; j++ {
		if strings.Contains(lines[j], ">}}") || strings.Contains(lines[j], "%}}") {
			return j
		}
	}
	return i
}

func isHeading(l string) bool {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(l) || l[n] == ' ' || l[n] == '\t')
}

// headingText returns a heading's level and text without the markers, the
// closing hashes and a trailing Hugo anchor "{#id}".
func headingText(l string) (int, string) {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	t := strings.TrimSpace(l[n:])
	if i := strings.LastIndex(t, "{#"); i >= 0 && strings.HasSuffix(t, "}") {
		t = strings.TrimSpace(t[:i])
	}
	t = strings.TrimSpace(strings.TrimRight(t, "#"))
	return n, t
}

func isBreak(l string) bool {
	if len(l) >= 3 && strings.EqualFold(l[:3], "<hr") {
		return true
	}
	c := l[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// listMarker returns the length of a list marker ("- ", "* ", "+ ", "1. ")
// at the start of l, or 0.
func listMarker(l string) int {
	if len(l) >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && (l[1] == ' ' || l[1] == '\t') {
		return 2
	}
	i := 0
	for i < len(l) && i < 3 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && (l[i+1] == ' ' || l[i+1] == '\t') {
		return i + 2
	}
	return 0
}
