package question

import (
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// tokKind says what a token of free text is.
type tokKind uint8

const (
	tokWord    tokKind = iota // a word of letters and digits (lower case in text)
	tokHan                    // a Chinese word of the lexicon
	tokHanRun                 // Chinese characters the lexicon does not know: a name, or noise
	tokVersion                // 1.30, v1.30, 1.30.2
	tokNumber                 // 753
	tokKEP                    // KEP-753, kep753, #753
)

// token is one unit of a question typed in chat.
type token struct {
	kind    tokKind
	text    string // lower case for words; as typed for Chinese
	raw     string // as typed: feature gates keep their CamelCase
	sense   sense  // from the lexicon: the first token of a phrase carries it
	inWord  bool   // a later word of a lexicon phrase: its meaning is on the first
	version knowledge.Version
	num     int  // tokNumber, tokKEP
	fixed   bool // a misspelling corrected to text
	pos     int  // its place among the question's tokens
}

// maxTokens is how many tokens of a question are read; a question is in
// its first words, if anywhere.
const maxTokens = 48

// tokenize splits cleaned text into tokens — words, and Chinese cut into
// the lexicon's words — splitting a word where Han script meets another
// (1.30版本) and a version from the letters after it (1.29ga), and gives
// each word (and phrase) its sense.
func tokenize(cleaned string) []token {
	toks := make([]token, 0, 12)
	for f := range strings.FieldsSeq(cleaned) {
		if len(toks) >= maxTokens {
			break
		}
		eachScript(f, func(part string, han bool) {
			switch {
			case han:
				toks = appendHan(toks, part)
			default:
				if v, rest, ok := cutVersion(part); ok {
					toks = append(toks, wordToken(v), wordToken(rest))
					return
				}
				toks = append(toks, wordToken(part))
			}
		})
	}
	for i := range toks {
		toks[i].pos = i
	}
	markPhrases(toks)
	return toks
}

// eachScript calls fn with each part of w where Han script meets another.
func eachScript(w string, fn func(part string, han bool)) {
	start, prev := 0, -1
	for i, r := range w {
		h := 0
		if r >= 0x2E80 && unicode.Is(unicode.Han, r) {
			h = 1
		}
		if prev >= 0 && h != prev {
			fn(w[start:i], prev == 1)
			start = i
		}
		prev = h
	}
	fn(w[start:], prev == 1)
}

// cutVersion splits "1.29ga" into "1.29" and "ga" (splitVersionWord).
func cutVersion(w string) (v, rest string, ok bool) {
	if len(w) == 0 || !(isDigit(w[0]) || w[0] == 'v' || w[0] == 'V') {
		return "", "", false
	}
	parts := splitVersionWord(w)
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// wordToken reads one field that is not Chinese.
func wordToken(f string) token {
	low := strings.ToLower(f)
	t := token{kind: tokWord, text: low, raw: f}
	if n, ok, err := kepToken(low); ok && err == nil {
		if strings.HasPrefix(low, "kep") || strings.HasPrefix(low, "#") {
			t.kind, t.num = tokKEP, n
		} else {
			t.kind, t.num = tokNumber, n
		}
		return t
	}
	if looksVersion(low) {
		if v, err := knowledge.ParseVersion(low); err == nil {
			t.kind, t.version = tokVersion, v
		}
	}
	return t
}

// appendHan cuts a run of Chinese characters into the lexicon's words,
// longest first (forward maximum matching); characters that start no word
// gather into one tokHanRun.
func appendHan(toks []token, run string) []token {
	var offs [maxHan + 1]int // byte offset of each rune, and the end
	n := 0
	for i := range run {
		if n == maxHan {
			break
		}
		offs[n] = i
		n++
	}
	end := len(run)
	if n == maxHan {
		end = offs[n-1] // a run this long is cut; the rest is dropped
		n--
	}
	offs[n] = end
	unknown := -1 // start of the characters no word starts at
	flush := func(to int) {
		if unknown >= 0 {
			s := run[offs[unknown]:offs[to]]
			toks = append(toks, token{kind: tokHanRun, text: s, raw: s})
			unknown = -1
		}
	}
	for i := 0; i < n; {
		l := min(chineseMaxRunes, n-i)
		for ; l >= 1; l-- {
			if s, ok := lexicon[run[offs[i]:offs[i+l]]]; ok && s.role != roleNone {
				break
			}
		}
		if l == 0 {
			if unknown < 0 {
				unknown = i
			}
			i++
			continue
		}
		flush(i)
		w := run[offs[i]:offs[i+l]]
		toks = append(toks, token{kind: tokHan, text: w, raw: w, sense: lexicon[w]})
		i += l
	}
	flush(n)
	return toks
}

// maxHan is the most Chinese characters of one run that are read.
const maxHan = 64

// markPhrases gives each word the sense the lexicon has for it, or for the
// longest phrase (up to maxPhrase words) it starts: "end of life", "what
// can you do". Later words of a phrase are marked inWord.
func markPhrases(toks []token) {
	var buf [64]byte
	for i := 0; i < len(toks); i++ {
		if toks[i].kind != tokWord {
			continue
		}
		longest := 1
		if phraseStarts[toks[i].text] {
			longest = min(maxPhrase, len(toks)-i)
		}
		for n := longest; n >= 1; n-- {
			key := buf[:0]
			ok := true
			for j := i; j < i+n; j++ {
				if toks[j].kind != tokWord || len(key)+len(toks[j].text)+1 > len(buf) {
					ok = false
					break
				}
				if j > i {
					key = append(key, ' ')
				}
				key = append(key, toks[j].text...)
			}
			if !ok {
				continue
			}
			if s, found := lexicon[string(key)]; found {
				toks[i].sense = s
				for j := i + 1; j < i+n; j++ {
					toks[j].inWord = true
					toks[j].sense = filler
				}
				i += n - 1
				break
			}
		}
	}
}

// phraseStarts are the first words of the lexicon's phrases.
var phraseStarts = func() map[string]bool {
	m := map[string]bool{}
	for w := range lexicon {
		if first, _, ok := strings.Cut(w, " "); ok {
			m[first] = true
		}
	}
	return m
}()
