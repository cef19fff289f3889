package question

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// normalize cleans the text of a question so that the grammar sees single
// ASCII spaces between words: full-width letters, digits and punctuation
// become ASCII (ｋｅｐ　４６３９ is kep 4639), quotes of every script,
// commas and any Unicode space become spaces, control and format characters
// (zero-width spaces, direction marks) are dropped, trailing ? ! . go, and
// words are split where Han script meets another (1.29稳定 is 1.29 稳定) or a
// version runs into a word (1.29ga is 1.29 ga). Case is kept. normalize is
// idempotent: normalize(normalize(s)) == normalize(s).
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		r = foldWidth(r)
		switch {
		case isQuote(r) || r == ',' || r == ';' || unicode.IsSpace(r):
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			// dropped: invisible, and never part of a question
		default:
			b.WriteRune(r)
		}
	}
	t := strings.TrimRight(b.String(), " ?!.")
	fields := strings.Fields(t)
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		for _, p := range splitScripts(f) {
			out = append(out, splitVersionWord(p)...)
		}
	}
	return strings.Join(out, " ")
}

// foldWidth maps full-width forms to ASCII and the ideographic full stop and
// comma to their ASCII kin.
func foldWidth(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	case r == '。':
		return '.'
	case r == '、':
		return ','
	}
	return r
}

// isQuote reports whether r is a quotation mark of any common script.
func isQuote(r rune) bool {
	switch r {
	case '"', '\'', '`', '“', '”', '‘', '’', '„', '‟', '‚', '‛', '「', '」', '『', '』',
		'«', '»', '‹', '›', '〝', '〞', '〟', '″', '′':
		return true
	}
	return false
}

// splitScripts splits a word where Han script meets any other.
func splitScripts(w string) []string {
	var out []string
	start, prev := 0, -1
	for i, r := range w {
		h := 0
		if unicode.Is(unicode.Han, r) {
			h = 1
		}
		if prev >= 0 && h != prev {
			out = append(out, w[start:i])
			start = i
		}
		prev = h
	}
	return append(out, w[start:])
}

// splitVersionWord splits "1.29ga" into "1.29" and "ga": a version (v, digits
// and dots, ending in a digit) followed by ASCII letters.
func splitVersionWord(w string) []string {
	i := 0
	if i < len(w) && (w[i] == 'v' || w[i] == 'V') {
		i++
	}
	start := i
	dots := 0
	for i < len(w) && (isDigit(w[i]) || w[i] == '.') {
		if w[i] == '.' {
			dots++
		}
		i++
	}
	if i == start || dots == 0 || i == len(w) || !isDigit(w[i-1]) || !isDigit(w[start]) {
		return []string{w}
	}
	for j := i; j < len(w); j++ {
		if !isASCIILetter(w[j]) {
			return []string{w}
		}
	}
	return []string{w[:i], w[i:]}
}

func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// looksVersion reports whether tok is written like a version, right or
// wrong: a digit (after an optional v) and a dot.
func looksVersion(tok string) bool {
	t := strings.TrimPrefix(tok, "v")
	return t != "" && t[0] >= '0' && t[0] <= '9' && strings.Contains(t, ".")
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isGateName(s string) bool {
	for _, r := range s {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// stageWords maps every stage word knowledge.ParseStage reads, lower
// case, to its stage.
var stageWords = func() map[string]knowledge.Stage {
	m := map[string]knowledge.Stage{}
	for _, w := range knowledge.StageWords() {
		if st, err := knowledge.ParseStage(w); err == nil {
			m[strings.ToLower(w)] = st
		}
	}
	return m
}()

// parseStage is knowledge.ParseStage without building an error for the
// many words that are no stage; its error says only that.
func parseStage(s string) (knowledge.Stage, error) {
	if st, ok := stageWords[strings.ToLower(strings.TrimSpace(s))]; ok {
		return st, nil
	}
	return knowledge.StageNone, errNoStage
}

var errNoStage = errors.New("not a stage")
