package question

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// clean takes the chat noise out of a message before it is read as words:
// mentions and channel links as Slack and Discord write them (<@U123>,
// <!channel>, <#C1|x>, <@&role>, <:emoji:1>), @everyone and any other
// @name, URLs (bare or <https://…|label>; a link to a KEP, a SIG's KEPs or
// a pull request becomes the words it stands for, links.go), emoji and
// :shortcodes:,
// markdown and code marks, and punctuation. What stays between words is a
// space; a dot stays between digits (1.30), a dash inside a word
// (in-place, KEP-753), # before digits (#753), : and = inside a word
// (kep:753, sig:node). An apostrophe goes, and with it a contraction's
// short ending ('s, 're, 'll, 've, 'd, 'm) — "what's" is what, "isn't"
// isnt. Traditional Chinese characters become simplified ones (棄用 is
// 弃用). The result is shorter or as long as s.
func clean(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := func() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
	}
	prev := ' ' // the last rune written or skipped as a separator
	fields := 0 // words begun; past maxTokens the rest is never read
	for i := 0; i < len(s); {
		if !isWordRune(prev) && fields > maxTokens {
			break
		}
		if c := s[i]; (isASCIILetter(c) || isDigit(c)) && isWordRune(prev) { // inside a word: most of any text
			b.WriteByte(c)
			prev = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		r = foldWidth(r)
		if r >= firstTraditional {
			r = simplified(r) // 棄用 is 弃用
		}
		next, _ := utf8.DecodeRuneInString(s[min(i+size, len(s)):])
		next = foldWidth(next)
		wordStart := !isWordRune(prev)
		switch {
		case r == '<':
			if j := strings.IndexByte(s[i:min(len(s), i+200)], '>'); j > 1 && isMarkup(s[i+1:i+j]) {
				link, _, _ := strings.Cut(s[i+1:i+j], "|") // <https://kep.k8s.io/4639|KEP-4639>: the link, not its label
				i += j + 1
				space()
				if hasURLPrefix(link) {
					if w := linkWords(link); w != "" {
						b.WriteString(w + " ")
						fields++
					}
				}
				prev = ' '
				continue
			}
		case r == '@' && (wordStart || prev == '@'):
			j := i + size
			for j < len(s) && (isASCIIWordByte(s[j]) || s[j] == '-' || s[j] == '.') {
				j++
			}
			i = j
			space()
			prev = ' '
			continue
		case wordStart && (hasURLPrefix(s[i:]) || hasLinkHost(s[i:])):
			j := i
			for j < len(s) && !isSpaceByte(s[j]) && s[j] < utf8.RuneSelf {
				j++
			}
			link := s[i:j]
			i = j
			space()
			if w := linkWords(link); w != "" {
				b.WriteString(w + " ") // a KEP's link is the KEP: kep-4639
				fields++
			}
			prev = ' '
			continue
		case r == ':' && wordStart:
			if j := shortcodeEnd(s[i:]); j > 0 {
				i += j
				space()
				prev = ' '
				continue
			}
		case isApostrophe(r) && unicode.IsLetter(prev) && unicode.IsLetter(next):
			i += size + contractionEnd(s[i+size:])
			continue
		case r == '.' && isDigitRune(prev) && isDigitRune(next),
			r == '-' && isWordRune(prev) && isWordRune(next),
			r == '#' && isDigitRune(next),
			(r == ':' || r == '=') && prev < utf8.RuneSelf && isWordRune(prev) && next < utf8.RuneSelf && isWordRune(next):
			b.WriteRune(r)
			prev = r
			i += size
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsSpace(r):
			if !unicode.IsSpace(r) && !isWordRune(prev) {
				fields++
			}
			b.WriteRune(r)
			prev = r
			i += size
			continue
		case unicode.Is(unicode.Cf, r) || unicode.IsMark(r) || unicode.IsControl(r):
			i += size // invisible: zero-width joiners, variation selectors
			continue
		}
		space() // punctuation, symbols, emoji
		prev = ' '
		i += size
	}
	return b.String()
}

// isMarkup reports whether the inside of <…> is a mention, a channel, a
// special mention, a custom emoji or a link, as Slack and Discord write
// them in message text.
func isMarkup(in string) bool {
	if in == "" {
		return false
	}
	switch in[0] {
	case '@', '#', '!', ':':
		return true
	case 'a':
		return strings.HasPrefix(in, "a:")
	}
	return hasURLPrefix(in)
}

// hasURLPrefix reports whether s starts with a URL or a mailto: link.
func hasURLPrefix(s string) bool {
	for _, p := range []string{"http://", "https://", "www.", "mailto:", "ftp://"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

// shortcodeEnd returns the length of an emoji shortcode (:thumbsup:,
// :+1:) at the start of s, or 0 when s does not start with one.
func shortcodeEnd(s string) int {
	for j := 1; j < len(s) && j <= 40; j++ {
		c := s[j]
		switch {
		case c == ':':
			if j > 1 {
				return j + 1
			}
			return 0
		case isASCIIWordByte(c) || c == '+' || c == '-':
		default:
			return 0
		}
	}
	return 0
}

// contractionEnd returns how many bytes of a contraction's ending follow an
// apostrophe at the start of s: the letters of 's, 're, 'll, 've, 'd and 'm
// (dropped), none for n't and the rest (kept, glued to the word).
func contractionEnd(s string) int {
	n := 0
	for n < len(s) && isASCIILetter(s[n]) {
		n++
	}
	switch strings.ToLower(s[:n]) {
	case "s", "re", "ll", "ve", "d", "m":
		return n
	}
	return 0
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == '‘' || r == 'ʼ' }

func isWordRune(r rune) bool  { return unicode.IsLetter(r) || unicode.IsDigit(r) }
func isDigitRune(r rune) bool { return r >= '0' && r <= '9' }
func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isASCIIWordByte(c byte) bool {
	return isASCIILetter(c) || isDigit(c) || c == '_'
}
