package knowledge

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error codes. The message of an Error with one of these codes is a sentence
// a user may read; only adapters decide how to show it.
const (
	EBADINPUT = "bad_input"
	ENOTFOUND = "not_found"
	EINTERNAL = "internal"
)

// Error is a domain error: a code and a message fit to show a user.
type Error struct {
	Code    string
	Message string
	// Suggestions are "did you mean" alternatives, best first.
	Suggestions []string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-readable message of err if it is an *Error,
// and a generic apology for anything else: internal errors are never shown.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Sorry, something went wrong on my side. Try again in a moment."
}

// Echo returns a short, safe copy of user text for a message: letters,
// digits and . - _ : only (so it can never become a mention or a link), at
// most 24 of them, or "that" when none is left.
func Echo(s string) string { return echo(s) }

func echo(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-_:", r) {
			if n == 24 {
				b.WriteString("…")
				break
			}
			b.WriteRune(r)
			n++
		}
	}
	if b.Len() == 0 {
		return "that"
	}
	return b.String()
}

// MaxSuggestions is how many "did you mean" questions an error carries.
const MaxSuggestions = 3

// Near is a word of a vocabulary and its edit distance from a word typed.
type Near struct {
	Word string
	Dist int
}

// Closest returns the words of vocab near enough to w to suggest, nearest
// first, ties in vocab order; w itself is left out. How near is near
// enough depends on the length of w: a swap of two letters for words of
// two, one edit up to five letters, two edits beyond. It is the "did you
// mean" of the engine's names (gates, SIGs, help topics) and of the
// question grammar's words.
func Closest(w string, vocab []string) []Near {
	n := utf8.RuneCountInString(w)
	limit := 2
	switch {
	case n < 2:
		return nil
	case n <= 5:
		limit = 1
	}
	var out []Near
	for _, v := range vocab {
		if v == w {
			continue
		}
		if diff := n - utf8.RuneCountInString(v); diff > limit || -diff > limit {
			continue // the distance is at least the difference in length
		}
		d := EditDistance(w, v)
		if d > limit || (n == 2 && utf8.RuneCountInString(v) != 2) {
			continue
		}
		out = append(out, Near{v, d})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Dist < out[j].Dist })
	return out
}

// ClosestWords is Closest without the distances.
func ClosestWords(w string, vocab []string) []string {
	var out []string
	for _, c := range Closest(w, vocab) {
		out = append(out, c.Word)
	}
	return out
}

// EditDistance returns the optimal-string-alignment distance between a and
// b, in runes: insertions, deletions, substitutions and swaps of two
// neighbouring runes each cost one.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	// three rolling rows: i-2, i-1, i
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
