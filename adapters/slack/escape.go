package slack

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// escaper replaces Slack's three control characters. Escaping them is what
// keeps user text, KEP titles and release-note words from becoming
// mentions (<!channel>, <@U…>, <!subteam^…>) or disguised links
// (<https://evil|innocent>); see
// https://docs.slack.dev/messaging/formatting-message-text#escaping
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// esc escapes s for any Slack text field. Every string that did not come
// from this package's own literals goes through it.
func esc(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	return escaper.Replace(s)
}

// unescaper undoes Slack's escaping of message text, for the text of a
// mention or a DM before it is parsed as a question.
var unescaper = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">")

// unslack undoes exactly what Slack does to the text people type before it
// delivers it (https://docs.slack.dev/messaging/formatting-message-text),
// so that a manifest pasted in a message or a slash command is scanned as
// it was pasted: the markup Slack wraps in <…> becomes what was typed (a
// link's label after |, else the link itself; a mention of a user or a
// channel @ID or #ID, or @name and #name when it carries one; <!here> and
// the like @here), and &amp; &lt; &gt; become & < > again. A < or > the
// person typed arrives escaped, so every raw < starts Slack's markup.
func unslack(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(unescaper.Replace(s[:i]))
		b.WriteString(unescaper.Replace(markupText(s[i+1 : i+j])))
		s = s[i+j+1:]
	}
	b.WriteString(unescaper.Replace(s))
	return b.String()
}

// markupText is what a person typed where Slack wrote the markup m (the
// text between < and >).
func markupText(m string) string {
	target, label, labelled := strings.Cut(m, "|")
	switch {
	case strings.HasPrefix(target, "@") || strings.HasPrefix(target, "#"):
		if labelled && label != "" && !strings.HasPrefix(label, target[:1]) {
			return target[:1] + label // <@U1|ada> was typed @ada
		}
		if labelled && label != "" {
			return label
		}
		return target
	case strings.HasPrefix(target, "!"):
		if labelled && label != "" {
			return label // <!subteam^S1|@team>, <!date^…|fallback>
		}
		cmd, _, _ := strings.Cut(target[1:], "^")
		return "@" + cmd // <!here>, <!channel>, <!everyone>
	case labelled:
		return label // <http://example.com|example.com>, <mailto:a@b.io|a@b.io>
	}
	return target // <http://example.com>
}

// cut returns at most n runes of s (raw, before escaping), so that a huge
// string costs nothing to escape; truncate makes the final cut with "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n+1 { // one more than n, so truncate still sees it is long
			return s[:j]
		}
		i++
	}
	return s
}

// escCut escapes at most n+1 runes of s.
func escCut(s string, n int) string { return esc(cut(s, n)) }

// oneLine folds s's white space (line breaks included) to single spaces,
// looking at no more than about n runes of it.
func oneLine(s string, n int) string { return strings.Join(strings.Fields(cut(s, n)), " ") }

// code renders s as inline code: escaped, with backticks removed so the
// span cannot be closed early.
func code(s string) string {
	s = strings.ReplaceAll(s, "`", "'")
	return "`" + esc(s) + "`"
}

// link renders a titled link <url|title>. A URL that is not http(s), or
// does not parse, is shown as plain escaped text and never as a link.
func link(rawURL, title string) string {
	u := safeURL(rawURL)
	if title == "" {
		title = rawURL
	}
	title = truncate(escCut(title, maxLinkTitle), maxLinkTitle)
	if u == "" {
		return title
	}
	// In the title, | would be harmless (the first one splits) but > would
	// end the link; esc has turned it into &gt;.
	return "<" + u + "|" + title + ">"
}

// safeURL returns rawURL fit to sit inside <…|…>, or "" when it is not an
// absolute http(s) URL. Characters that would end or split the link (<, >,
// |, spaces, quotes) are percent-encoded by re-serialising the URL.
func safeURL(rawURL string) string {
	if len(rawURL) > maxURLLen || !utf8.ValidString(rawURL) {
		return ""
	}
	if plainURL(rawURL) {
		return rawURL
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return ""
	}
	s := u.String()
	if strings.ContainsAny(s, "<>| \"'`") {
		s = strings.NewReplacer("<", "%3C", ">", "%3E", "|", "%7C", " ", "%20", `"`, "%22", "'", "%27", "`", "%60").Replace(s)
	}
	return s
}

// plainURL reports whether s is an http(s) URL made only of characters
// that need no encoding inside <…|…>, with a host and no user info: the
// common case, accepted without a parse.
func plainURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "http://"); !ok {
			return false
		}
	}
	host := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		host = rest[:i]
	}
	if host == "" || strings.ContainsAny(host, "@\\") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '|' || c == '"' || c == '\'' || c == '`' || c == '\\' {
			return false
		}
	}
	return true
}

// truncate cuts s (already escaped) to at most max characters (runes),
// ending in "…" when cut, and never in the middle of an entity such as
// &amp;.
func truncate(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n := 0, 0
	for i := range s {
		if n == max-1 {
			cut = i
			break
		}
		n++
	}
	if amp := strings.LastIndexByte(s[:cut], '&'); amp >= 0 && !strings.Contains(s[amp:cut], ";") && cut-amp < 6 {
		cut = amp
	}
	if lt := strings.LastIndexByte(s[:cut], '<'); lt >= 0 && !strings.Contains(s[lt:cut], ">") {
		cut = lt // never half a link: "<https://…|#1>" whole or not at all
	}
	return s[:cut] + "…"
}

// runes counts the characters Slack counts.
func runes(s string) int { return utf8.RuneCountInString(s) }
