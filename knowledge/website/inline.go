package website

import (
	"regexp"
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
	// linkRe matches [text](url "title") and ![alt](src); link text may hold
	// one level of brackets ("[KEP [#1]](...)" does not occur, "[a [b] c]" might).
	linkRe      = regexp.MustCompile(`(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^()\s>]*(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+"[^"]*")?\s*\)`)
	shortcodeRe = regexp.MustCompile(`\{\{[<%].*?[>%]\}\}`)
	htmlTagRe   = regexp.MustCompile(`</?[a-zA-Z][^<>]*>`)
	spaceRe     = regexp.MustCompile(`\s+`)
)

// links returns the links in a Markdown text, images left out.
func links(md string) []link {
	var out []link
	for _, m := range linkRe.FindAllStringSubmatch(md, -1) {
		if m[1] == "!" {
			continue
		}
		out = append(out, link{Text: plain(m[2]), URL: m[3]})
	}
	return out
}

// dropAnchorLinks removes links to an anchor on the same page ("[moved to
// beta](#another-feature)"): their words speak of
// another section, so they must not be read as this one's.
func dropAnchorLinks(md string) string {
	return linkRe.ReplaceAllStringFunc(md, func(s string) string {
		if m := linkRe.FindStringSubmatch(s); m != nil && strings.HasPrefix(m[3], "#") {
			return "…"
		}
		return s
	})
}

// plain renders inline Markdown as text: links become their text, images,
// HTML tags and shortcodes go, emphasis markers and code backticks are
// removed (code keeps its characters), and whitespace collapses.
func plain(md string) string {
	md = shortcodeRe.ReplaceAllString(md, "")
	md = linkRe.ReplaceAllStringFunc(md, func(s string) string {
		m := linkRe.FindStringSubmatch(s)
		if m[1] == "!" {
			return ""
		}
		return m[2]
	})
	var b strings.Builder
	parts := strings.Split(md, "`")
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString(p) // inside a code span: verbatim
			continue
		}
		p = htmlTagRe.ReplaceAllString(p, "")
		b.WriteString(stripEmphasis(p))
	}
	return strings.TrimSpace(spaceRe.ReplaceAllString(b.String(), " "))
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
