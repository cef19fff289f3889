package knowledge

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestQuoteMatchesPlainVersion checks the one-pass quote against the plain
// way of writing it: collapse whitespace, then cut at max runes.
func TestQuoteMatchesPlainVersion(t *testing.T) {
	plain := func(s string, max int) string {
		s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
		if utf8.RuneCountInString(s) <= max {
			return s
		}
		return strings.TrimSpace(string([]rune(s)[:max-1])) + "…"
	}
	for _, s := range []string{"", " ", "a", "ab", "a b", "  a  b  ", "abc def ghi", "稳定 版\u3000本\u2003x",
		strings.Repeat("ab ", 50), strings.Repeat("字", 30), "x\u0085y\u00a0z\n\tw"} {
		for max := 2; max < 40; max++ {
			if got, want := Quote(s, max), plain(s, max); got != want {
				t.Errorf("Quote(%q, %d) = %q, want %q", s, max, got, want)
			}
		}
	}
	for r := rune(0); r < 0x10000; r++ {
		if isSpace(r) != unicode.IsSpace(r) {
			t.Errorf("isSpace(%U) = %v, unicode.IsSpace says %v", r, isSpace(r), unicode.IsSpace(r))
		}
	}
}
