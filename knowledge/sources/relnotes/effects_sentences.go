package relnotes

import "strings"

// How a text is cut into the sentences the rules read.

// hasPrefixFold reports whether s opens with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// effectSentences splits a text into sentences and list items, as
// sentences does, but joins the lines of a paragraph wrapped by hand: a
// new line starts a new item only before a bullet ("- ", "* ", "1. ")
// or after an empty line.
func effectSentences(t string) []string {
	j := joinWrapped(t)
	var out []string
	for _, r := range sentenceRanges(j) {
		out = append(out, j[r[0]:r[1]])
	}
	return out
}

// joinWrapped joins the lines of t's paragraphs wrapped by hand (see
// effectSentences); t itself when it has one line.
func joinWrapped(t string) string {
	if !strings.Contains(t, "\n") {
		return t
	}
	var b strings.Builder
	b.Grow(len(t))
	lines := strings.Split(t, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if i > 0 {
			if wrapped(strings.TrimSpace(lines[i-1]), l) {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// sentenceRanges is sentences as the ranges of t they are: each without
// the spaces and the list bullet around it.
func sentenceRanges(t string) [][2]int {
	var out [][2]int
	add := func(a, b int) {
		for a < b && isSpace(t[a]) {
			a++
		}
		for a < b && (t[a] == '-' || t[a] == '*') || a+len("•") <= b && strings.HasPrefix(t[a:b], "•") {
			if t[a] == '-' || t[a] == '*' {
				a++
			} else {
				a += len("•")
			}
		}
		for a < b && isSpace(t[a]) {
			a++
		}
		for b > a && isSpace(t[b-1]) {
			b--
		}
		if a < b {
			out = append(out, [2]int{a, b})
		}
	}
	at := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\n':
			add(at, i)
			at = i + 1
		case '.', ';', '!', '?':
			if i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t' || t[i+1] == '\n' || t[i+1] == '\r' {
				add(at, i+1)
				at = i + 1
			}
		}
	}
	add(at, len(t))
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// bullet reports whether a line opens a list item.
func bullet(l string) bool {
	switch {
	case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") || strings.HasPrefix(l, "• "):
		return true
	}
	i := 0
	for i < len(l) && i < 3 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' '
}

// wrapped reports whether line next goes on with the sentence of line
// prev: neither is empty nor a bullet opens next, and prev ends inside a
// sentence (a small letter, a comma, a closing backtick after a word of
// the sentence) or next opens with a small letter.
func wrapped(prev, next string) bool {
	if prev == "" || next == "" || bullet(next) {
		return false
	}
	if c := next[0]; c >= 'a' && c <= 'z' {
		return true
	}
	switch c := prev[len(prev)-1]; {
	case c >= 'a' && c <= 'z', c == ',', c == '(':
		return true
	}
	return false
}
