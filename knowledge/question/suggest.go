package question

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// commandWords are the words that start a question.
var commandWords = []string{"kep", "releases", "help", "gate", "search", "diff", "upgrade", "sig",
	"subscribe", "unsubscribe", "subscriptions", "notices", "eol", "patches", "supported", "latest", "urgent"}

// vocabulary returns every word the grammar knows, in a fixed order:
// command words first, then stage words, then help topics.
func vocabulary() []string {
	out := append([]string{}, commandWords...)
	stages := knowledge.StageWords()
	sort.Strings(stages)
	for _, w := range stages {
		if utf8.RuneCountInString(w) > 1 && !strings.Contains(w, " ") {
			out = append(out, w)
		}
	}
	for _, t := range knowledge.HelpTopics() {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// suggestQuestions returns up to knowledge.MaxSuggestions questions close to the
// normalised text s that parse: one misspelt word replaced by a word of the
// grammar ("kepp 4639" → "kep 4639", "1.29 gaa" → "1.29 ga"), a misspelt
// filter name or value corrected, or a word glued to a number split.
func suggestQuestions(s string) []string {
	if s == "" {
		return nil
	}
	toks := strings.Split(s, " ")
	vocab := vocabulary()
	type cand struct {
		q    string
		dist int
	}
	var cands []cand
	seen := map[string]bool{} // canonical questions already suggested
	try := func(alt []string, d int) {
		q := strings.Join(alt, " ")
		if parsed, err := parseNormalized(q); err == nil && !seen[parsed.Canonical()] {
			seen[parsed.Canonical()] = true
			cands = append(cands, cand{q, d})
		}
	}
	for i := 0; i < len(toks) && i < 4; i++ {
		low := strings.ToLower(toks[i])
		if slices.Contains(vocab, low) || allDigits(low) || looksVersion(low) {
			continue
		}
		if k, v, ok := cutFilter(low); ok && i > 0 {
			for _, c := range knowledge.Closest(k, knowledge.FilterKeys()) {
				try(replace(toks, i, c.Word+":"+v), c.Dist)
			}
			for _, c := range knowledge.Closest(v, digest.FilterChoices(k)) {
				try(replace(toks, i, k+":"+c.Word), c.Dist)
			}
			continue
		}
		if w, n, ok := splitWordNumber(low); ok {
			for _, c := range knowledge.Closest(w, []string{"kep"}) {
				try(replace(toks, i, c.Word+" "+n), c.Dist)
			}
		}
		for _, c := range knowledge.Closest(low, vocab) {
			try(replace(toks, i, c.Word), c.Dist)
		}
	}
	if len(cands) == 0 && len(toks) >= 3 && !slices.Contains(commandWords, strings.ToLower(toks[0])) {
		if q, ok := pickQuestion(toks); ok {
			try([]string{q}, 3)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	var out []string
	for _, c := range cands {
		if len(out) == knowledge.MaxSuggestions {
			break
		}
		out = append(out, c.q)
	}
	return out
}

// pickQuestion finds a question inside a sentence: "what went GA in 1.29"
// holds 1.29 ga, "tell me about KEP 4639" holds kep 4639.
func pickQuestion(toks []string) (string, bool) {
	var ver, stage string
	for i, t := range toks {
		if i == 30 {
			break // a question is in its first words, if anywhere
		}
		low := strings.ToLower(t)
		if low == "kep" && i+1 < len(toks) {
			if n, ok, err := kepToken(toks[i+1]); ok && err == nil {
				return "kep " + strconv.Itoa(n), true
			}
		}
		if n, ok, err := kepToken(low); ok && err == nil && strings.HasPrefix(low, "kep") {
			return "kep " + strconv.Itoa(n), true
		}
		if looksVersion(low) && ver == "" {
			if v, err := knowledge.ParseVersion(low); err == nil {
				ver = v.String()
			}
		}
		if _, err := parseStage(low); err == nil && stage == "" {
			stage = low
		}
	}
	switch {
	case ver != "" && stage != "":
		return ver + " " + stage, true
	case ver != "":
		return ver, true
	}
	return "", false
}

func replace(toks []string, i int, w string) []string {
	out := append([]string{}, toks...)
	out[i] = w
	return out
}

// splitWordNumber splits "kepp4639" into "kepp" and "4639".
func splitWordNumber(s string) (word, num string, ok bool) {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i <= 0 || !allDigits(s[i:]) {
		return "", "", false
	}
	return s[:i], s[i:], true
}
