package knowledge

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxSuggestions is how many "did you mean" questions an error carries.
const maxSuggestions = 3

// commandWords are the words that start a question.
var commandWords = []string{"kep", "releases", "help", "gate", "search", "diff", "upgrade", "sig",
	"subscribe", "unsubscribe", "subscriptions", "notices", "eol", "patches", "supported", "latest", "urgent"}

// vocabulary returns every word the grammar knows, in a fixed order:
// command words first, then stage words, then help topics.
func vocabulary() []string {
	out := append([]string{}, commandWords...)
	stages := StageWords()
	sort.Strings(stages)
	for _, w := range stages {
		if utf8.RuneCountInString(w) > 1 && !strings.Contains(w, " ") {
			out = append(out, w)
		}
	}
	for _, t := range helpTopics() {
		if !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// suggestQuestions returns up to maxSuggestions questions close to the
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
		if contains(vocab, low) || allDigits(low) || looksVersion(low) {
			continue
		}
		if k, v, ok := cutFilter(low); ok && i > 0 {
			for _, c := range closestDist(k, filterKeys) {
				try(replace(toks, i, c.word+":"+v), c.dist)
			}
			for _, c := range closestDist(v, filterChoices[k]) {
				try(replace(toks, i, k+":"+c.word), c.dist)
			}
			continue
		}
		if w, n, ok := splitWordNumber(low); ok {
			for _, c := range closestDist(w, []string{"kep"}) {
				try(replace(toks, i, c.word+" "+n), c.dist)
			}
		}
		for _, c := range closestDist(low, vocab) {
			try(replace(toks, i, c.word), c.dist)
		}
	}
	if len(cands) == 0 && len(toks) >= 3 && !contains(commandWords, strings.ToLower(toks[0])) {
		if q, ok := pickQuestion(toks); ok {
			try([]string{q}, 3)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	var out []string
	for _, c := range cands {
		if len(out) == maxSuggestions {
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
			if v, err := ParseVersion(low); err == nil {
				ver = v.String()
			}
		}
		if _, ok := stageWords[low]; ok && stage == "" {
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

// scored is a vocabulary word and its distance from what was typed.
type scored struct {
	word string
	dist int
}

// closest returns the words of vocab near enough to w to suggest, nearest
// first, ties in vocab order.
func closest(w string, vocab []string) []string {
	var out []string
	for _, c := range closestDist(w, vocab) {
		out = append(out, c.word)
	}
	return out
}

// closestDist is closest with the distances. How near is near enough
// depends on the length of w: a swap of two letters for words of two,
// one edit up to five letters, two edits beyond.
func closestDist(w string, vocab []string) []scored {
	n := utf8.RuneCountInString(w)
	limit := 2
	switch {
	case n < 2:
		return nil
	case n <= 5:
		limit = 1
	}
	var out []scored
	for _, v := range vocab {
		if v == w {
			continue
		}
		if diff := n - utf8.RuneCountInString(v); diff > limit || -diff > limit {
			continue // the distance is at least the difference in length
		}
		d := damerauLevenshtein(w, v)
		if d > limit || (n == 2 && utf8.RuneCountInString(v) != 2) {
			continue
		}
		out = append(out, scored{v, d})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].dist < out[j].dist })
	return out
}

// damerauLevenshtein returns the optimal-string-alignment distance between
// a and b, in runes: insertions, deletions, substitutions and swaps of two
// neighbouring runes each cost one.
func damerauLevenshtein(a, b string) int {
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
