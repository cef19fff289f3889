package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
	"unicode"
	"unicode/utf8"
)

// link is one Markdown link: its text and target.
type link struct {
	Text string
	URL  string
}

var (
	shortcodeRe = lazyre.New(`\{\{[<%].*?[>%]\}\}`)
	htmlTagRe   = lazyre.New(`</?[a-zA-Z][^<>]*>`)
)

// links returns the links in a Markdown text, images left out.
func links(md string) []link {
	var out []link
	for _, l := range scanLinks(md) {
		if !l.image {
			out = append(out, link{Text: plain(l.text), URL: l.url})
		}
	}
	return out
}

// dropAnchorLinks removes links to an anchor on the same page ("[moved to
// beta](#another-feature)"): their words speak of another section, so they
// must not be read as this one's.
func dropAnchorLinks(md string) string {
	return rewriteLinks(md, func(l linkSpan) string {
		if strings.HasPrefix(l.url, "#") {
			return "…"
		}
		return md[l.start:l.end]
	})
}

// linkTexts replaces each link by its text and drops images, leaving the
// rest (code spans included) as written.
func linkTexts(md string) string {
	return rewriteLinks(md, func(l linkSpan) string {
		if l.image {
			return ""
		}
		return l.text
	})
}

// plain renders inline Markdown as text: links become their text, images,
// HTML tags and shortcodes go, emphasis markers and code backticks are
// removed (code keeps its characters), and whitespace collapses.
func plain(md string) string {
	if strings.Contains(md, "{{") {
		md = shortcodeRe().ReplaceAllString(md, "")
	}
	md = linkTexts(md)
	var b strings.Builder
	b.Grow(len(md))
	parts := strings.Split(md, "`")
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString(p) // inside a code span: verbatim
			continue
		}
		if strings.Contains(p, "<") {
			p = htmlTagRe().ReplaceAllString(p, "")
		}
		b.WriteString(stripEmphasis(p))
	}
	return collapseSpace(b.String())
}

// collapseSpace trims s and turns each run of white space into one space.
func collapseSpace(s string) string {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); {
		c, n := s[i], 1
		isSpace := c == ' ' || (c >= '\t' && c <= '\r')
		if c >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			isSpace = unicode.IsSpace(r)
		}
		if isSpace {
			space = len(b) > 0
		} else {
			if space {
				b = append(b, ' ')
				space = false
			}
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// containsFold reports whether s holds sub, ASCII letters matched without
// regard to case; sub is lower case.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if c := s[i]; c == first || (c >= 'A' && c <= 'Z' && c+'a'-'A' == first) {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
	}
	return false
}

// stripEmphasis removes *, ** and word-edge _ markers, leaving snake_case alone.
func stripEmphasis(s string) string {
	s = strings.ReplaceAll(s, "*", "")
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			b.WriteByte(s[i])
			continue
		}
		prev, next := rune(' '), rune(' ')
		if i > 0 {
			prev, _ = utf8.DecodeLastRuneInString(s[:i])
		}
		if i+1 < len(s) {
			next, _ = utf8.DecodeRuneInString(s[i+1:])
		}
		if isWordRune(prev) && isWordRune(next) {
			b.WriteByte('_') // inside a word: snake_case
		}
	}
	return b.String()
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// sentences splits text at ". ", "! " and "? " and the like. Abbreviations
// may split a sentence early; that only shortens what a rule sees.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if (c == '.' || c == '!' || c == '?' || c == ';') && (i+1 == len(text) || text[i+1] == ' ') {
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// clip shortens text to at most max bytes at a word boundary, marking the cut.
func clip(text string, max int) string {
	if len(text) <= max {
		return text
	}
	cut := strings.LastIndex(text[:max], " ")
	if cut < max/2 {
		cut = max
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	return strings.TrimRight(text[:cut], " ,;:") + " …"
}
