package discord

import (
	"net/url"
	"strings"
	"unicode"
)

// markdownSpecial are the characters Discord markdown gives a meaning to
// anywhere in a line: emphasis, strike, code, spoilers, quotes, mentions
// and channel links (<…>), masked links ([…](…)), and the escape itself.
const markdownSpecial = "\\*_~`|<>[]"

// zeroWidthSpace breaks @everyone and @here without changing how they read.
const zeroWidthSpace = "\u200b"

// Escape makes untrusted text (what a user typed, KEP titles, release-note
// quotes) inert in a Discord message or embed: invisible format characters
// (zero-width spaces and joiners, bidi overrides) are dropped, control
// characters become spaces, markdown characters are backslash-escaped (a
// heading, list or subtext marker only at the start, where it counts), and
// @everyone and @here are broken with a zero-width space. The result is one
// line. allowed_mentions keeps Discord from pinging in any case; Escape
// keeps the text from even looking like a mention or a masked link.
func Escape(s string) string {
	s = plain(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	start := true
	for i, r := range s {
		switch {
		case strings.ContainsRune(markdownSpecial, r):
			b.WriteByte('\\')
		case start && (r == '#' || r == '-' || r == '+'):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		if r == '@' && mentionWord(s[i+1:]) {
			b.WriteString(zeroWidthSpace)
		}
		if r != ' ' {
			start = false
		}
	}
	return b.String()
}

// breakMentions puts a zero-width space after the @ of @everyone and
// @here: for text where backslashes would show (footers, code spans).
func breakMentions(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		b.WriteRune(r)
		if r == '@' && mentionWord(s[i+1:]) {
			b.WriteString(zeroWidthSpace)
		}
	}
	return b.String()
}

// esc escapes at most max characters of s: s is cut before escaping (so a
// huge text costs no more than a short one) and the result truncated to
// max with "…".
func esc(s string, max int) string {
	return truncate(Escape(cutRunes(s, max+1)), max)
}

// mentionWord reports whether s starts with "everyone" or "here", in any case.
func mentionWord(s string) bool {
	for _, w := range []string{"everyone", "here"} {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
			return true
		}
	}
	return false
}

// plain returns s as one clean line: format characters (category Cf, such
// as U+200B and U+202E) dropped, other control characters and line breaks
// turned into spaces, and runs of spaces folded. It is what footers get:
// they show no markdown, so Escape's backslashes would show there.
func plain(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsControl(r) || unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// code puts a short trusted-shape text (a question kepbot suggests) in a
// code span, where Discord renders nothing: backticks in it are dropped.
func code(s string) string {
	s = breakMentions(strings.ReplaceAll(plain(s), "`", ""))
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

// safeURL returns u when it is an absolute http or https URL that Discord
// will show as a plain link, and "" for anything else (javascript:,
// relative paths, spaces or characters that could end a markdown link).
func safeURL(u string) string {
	if len(u) > 512 || strings.ContainsAny(u, " <>()[]`\"'\\|") || strings.ContainsFunc(u, unicode.IsControl) {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || p.User != nil {
		return ""
	}
	return u
}
