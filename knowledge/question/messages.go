package question

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// maxSuggestions is how many "did you mean" questions an error carries.
const maxSuggestions = 3

// usage returns the usage line of a help topic, as help shows it.
func usage(topic string) string { return knowledge.Usage(topic) }

// badInput returns an EBADINPUT *knowledge.Error whose message says what
// was wrong and ends with the usage line of topic.
func badInput(topic, format string, args ...any) *knowledge.Error {
	return &knowledge.Error{Code: knowledge.EBADINPUT, Message: fmt.Sprintf(format, args...) + " " + usage(topic)}
}

func errNotUnderstood() *knowledge.Error {
	return knowledge.Errorf(knowledge.EBADINPUT, "I don't understand that. Ask e.g. kep 4639, 1.29, 1.29 ga, search WORDS, or help for everything I answer.")
}

// short returns user words safe and short enough to echo: each word as
// knowledge.Echo leaves it, at most 40 runes in all.
func short(s string) string {
	var parts []string
	for _, w := range strings.Fields(s) {
		parts = append(parts, knowledge.Echo(w))
	}
	out := strings.Join(parts, " ")
	if utf8.RuneCountInString(out) > 40 {
		out = string([]rune(out)[:39]) + "…"
	}
	return out
}

// closest returns the words of vocab near w, nearest first (knowledge.Closest).
func closest(w string, vocab []string) []string {
	var out []string
	for _, c := range knowledge.Closest(w, vocab) {
		out = append(out, c.Word)
	}
	return out
}

func prefixAll(p string, ss []string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, p+s)
	}
	return out
}
