package website

import "strings"

// linkSpan is one Markdown link or image found in a text: where it starts
// and ends, its text (alt text for an image) and its target.
type linkSpan struct {
	start, end int
	text, url  string
	image      bool
}

// Limits on how far a link's parts may reach, so that a text full of
// unclosed brackets is read in linear time.
const (
	maxLinkText = 1000
	maxLinkURL  = 2000
)

// scanLinks finds [text](url "title") and ![alt](src) in Markdown. Link
// text may hold one level of brackets, a target one level of parentheses.
// It never fails: what does not close is text. Its work is bounded by a
// multiple of the text's length: past that budget (a text made of unclosed
// brackets) the rest is read as text.
func scanLinks(md string) []linkSpan {
	var out []linkSpan
	budget := 16*len(md) + 4*(maxLinkText+maxLinkURL)
	for i := 0; i < len(md) && budget > 0; i++ {
		if md[i] != '[' {
			continue
		}
		l, scanned, ok := linkAt(md, i)
		budget -= scanned
		if !ok {
			continue
		}
		out = append(out, l)
		i = l.end - 1
	}
	return out
}

// linkAt reads a link whose text opens at md[open] == '[', and says how
// many bytes it looked at.
func linkAt(md string, open int) (linkSpan, int, bool) {
	closeText, n := matching(md, open, '[', ']', maxLinkText)
	if closeText < 0 || closeText+1 >= len(md) || md[closeText+1] != '(' {
		return linkSpan{}, n, false
	}
	closeURL, m := matching(md, closeText+1, '(', ')', maxLinkURL)
	if closeURL < 0 {
		return linkSpan{}, n + m, false
	}
	target := strings.TrimSpace(md[closeText+2 : closeURL])
	if f := strings.Fields(target); len(f) > 0 {
		target = f[0] // drop a "title"
	}
	l := linkSpan{
		start: open, end: closeURL + 1,
		text: md[open+1 : closeText],
		url:  strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">"),
	}
	if open > 0 && md[open-1] == '!' {
		l.image, l.start = true, open-1
	}
	return l, n + m, true
}

// matching returns the index of the bracket closing md[open] (or -1),
// allowing one level of nesting and looking at most limit bytes ahead, and
// how many bytes it looked at.
func matching(md string, open int, o, c byte, limit int) (int, int) {
	depth := 0
	j := open
	for ; j < len(md) && j-open <= limit; j++ {
		switch md[j] {
		case o:
			depth++
			if depth > 2 {
				return -1, j - open + 1
			}
		case c:
			depth--
			if depth == 0 {
				return j, j - open + 1
			}
		}
	}
	return -1, j - open
}

// rewriteLinks replaces every link and image of md by what f returns.
func rewriteLinks(md string, f func(linkSpan) string) string {
	ls := scanLinks(md)
	if len(ls) == 0 {
		return md
	}
	var b strings.Builder
	b.Grow(len(md))
	at := 0
	for _, l := range ls {
		b.WriteString(md[at:l.start])
		b.WriteString(f(l))
		at = l.end
	}
	b.WriteString(md[at:])
	return b.String()
}
