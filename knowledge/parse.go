package knowledge

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxQuestionRunes is the longest question ParseQuestion reads.
const MaxQuestionRunes = 1000

// ParseQuestion reads one question of the grammar in architecture.md: kep N,
// KEP-N, N, VERSION, VERSION STAGE, STAGE VERSION, VERSION deprecations,
// releases, help [TOPIC], gate NAME, search WORDS, diff A B, upgrade A B,
// sig NAME [VERSION], subscribe deprecations [filters], unsubscribe
// deprecations and subscriptions. Case, spacing, smart quotes, full-width
// characters and a leading v do not matter; control characters are dropped.
// It fails with an *Error of code EBADINPUT whose message says what was wrong
// and how to ask instead, with "did you mean" questions in Suggestions.
func ParseQuestion(text string) (Question, error) {
	if len(text) > 4*MaxQuestionRunes || utf8.RuneCountInString(text) > MaxQuestionRunes {
		return Question{}, Errorf(EBADINPUT, "That question is too long (over %d characters). Ask one short thing, e.g. kep 4639 or 1.29 ga.", MaxQuestionRunes)
	}
	if !utf8.ValidString(text) {
		return Question{}, Errorf(EBADINPUT, "I could not read that text: it is not valid UTF-8. Ask e.g. kep 4639 or 1.29 ga.")
	}
	norm := normalize(text)
	if utf8.RuneCountInString(norm) > MaxQuestionRunes {
		return Question{}, Errorf(EBADINPUT, "That question is too long (over %d characters). Ask one short thing, e.g. kep 4639 or 1.29 ga.", MaxQuestionRunes)
	}
	q, err := parseNormalized(norm)
	if err != nil {
		if e, ok := err.(*Error); ok && len(e.Suggestions) == 0 {
			e.Suggestions = suggestQuestions(norm)
		}
		return Question{}, err
	}
	q.Text = norm
	return q, nil
}

// parseNormalized parses text that normalize has already cleaned.
func parseNormalized(s string) (Question, error) {
	if s == "" {
		return Question{}, Errorf(EBADINPUT, "Ask me something, e.g. kep 4639, 1.29, 1.29 ga or help.")
	}
	toks := strings.Split(s, " ")
	low := make([]string, len(toks))
	for i, t := range toks {
		low[i] = strings.ToLower(t)
	}
	head, args := low[0], toks[1:]
	switch head {
	case "kep":
		return parseKEPArgs(args)
	case "releases", "release", "versions":
		if len(args) == 0 {
			return Question{Kind: AskReleases}, nil
		}
		if head == "release" {
			return parseVersionQuestion(low[1:], "")
		}
		return Question{}, badInput("releases", "releases takes no more words.")
	case "help", "帮助":
		return parseHelp(low[1:])
	case "gate", "featuregate", "feature-gate":
		return parseGate(args)
	case "search", "find":
		return parseSearch(low[1:])
	case "diff", "upgrade":
		return parseDiff(head, low[1:])
	case "sig":
		if len(args) == 0 {
			return Question{}, badInput("sig", "Which SIG?")
		}
		return parseSIG(low[1], low[2:])
	case "subscribe":
		return parseSubscribe(args)
	case "unsubscribe":
		if len(args) == 0 || (len(args) == 1 && isDeprecationWord(low[1])) {
			return Question{Kind: AskUnsubscribe}, nil
		}
		return Question{}, badInput("unsubscribe", "I only send deprecation digests, so there is nothing else to stop.")
	case "subscriptions":
		if len(args) > 0 {
			return Question{}, badInput("subscriptions", "subscriptions takes no more words.")
		}
		return Question{Kind: AskSubscriptions}, nil
	case "supported":
		if len(args) > 0 {
			return parseVersionQuestion(low[1:], "supported")
		}
		return Question{Kind: AskSupported}, nil
	case "latest":
		if len(args) == 0 {
			return Question{Kind: AskLatest}, nil
		}
		return parseVersionQuestion(low[1:], "latest")
	case "eol", "patches", "urgent":
		return parseVersionQuestion(low[1:], head)
	}
	if name, ok := strings.CutPrefix(head, "sig-"); ok && name != "" {
		return parseSIG(name, low[1:])
	}
	if n, ok, err := kepToken(head); ok {
		if err != nil {
			return Question{}, err
		}
		if len(args) > 0 {
			return Question{}, badInput("kep", "Ask about one KEP at a time, with nothing after its number.")
		}
		return Question{Kind: AskKEP, KEP: n}, nil
	}
	if looksVersion(low[0]) || looksVersion(low[len(low)-1]) {
		return parseVersionQuestion(low, "")
	}
	if st, err := ParseStage(strings.Join(low, " ")); err == nil {
		if st.IsGraduation() {
			return Question{}, badInput("stage", "Which release?")
		}
		return Question{}, badInput("deprecations", "Which release?")
	}
	return Question{}, errNotUnderstood()
}

func errNotUnderstood() *Error {
	return Errorf(EBADINPUT, "I don't understand that. Ask e.g. kep 4639, 1.29, 1.29 ga, search WORDS, or help for everything I answer.")
}

// parseKEPArgs reads what follows "kep": one number.
func parseKEPArgs(args []string) (Question, error) {
	if len(args) == 0 {
		return Question{}, badInput("kep", "Which KEP? Give its number.")
	}
	if len(args) > 1 {
		return Question{}, badInput("kep", "Ask about one KEP at a time, with nothing after its number.")
	}
	n, ok, err := kepToken(args[0])
	if !ok {
		if looksVersion(strings.ToLower(args[0])) {
			return Question{}, badInput("kep", "%q is a release, not a KEP number; ask just %s for the release.", echo(args[0]), echo(args[0]))
		}
		return Question{}, badInput("kep", "%q is not a KEP number.", echo(args[0]))
	}
	if err != nil {
		return Question{}, err
	}
	return Question{Kind: AskKEP, KEP: n}, nil
}

// kepToken reads a KEP number written as 4639, #4639, KEP-4639, kep4639 or
// kep:4639. ok is false when tok is not written like a KEP at all; err is
// set when it is but the number is wrong.
func kepToken(tok string) (n int, ok bool, err error) {
	t := strings.ToLower(tok)
	if rest, found := strings.CutPrefix(t, "kep"); found {
		if rest == "" {
			return 0, false, nil
		}
		sep := strings.ContainsRune("-:#_", rune(rest[0]))
		if sep {
			rest = rest[1:]
		}
		if !allDigits(rest) {
			if !sep && unicode.IsLetter(rune(rest[0])) {
				return 0, false, nil // a word like "keps"
			}
			return 0, true, badInput("kep", "%q is not a KEP number.", echo(tok))
		}
		t = rest
	} else {
		t = strings.TrimPrefix(t, "#")
	}
	if !allDigits(t) {
		return 0, false, nil
	}
	if len(t) > 6 {
		return 0, true, badInput("kep", "%q is too long for a KEP number.", echo(tok))
	}
	n, _ = strconv.Atoi(t)
	if n == 0 {
		return 0, true, badInput("kep", "KEP numbers start at 1.")
	}
	return n, true, nil
}

// parseVersionQuestion reads VERSION, VERSION STAGE and STAGE VERSION from
// lower-case tokens (and VERSION WORD, WORD VERSION for the words of
// releaseWords); one end of toks looks like a version. lead is a word that
// came before toks and belongs with them ("eol" of "eol 1.31"), or "".
func parseVersionQuestion(toks []string, lead string) (Question, error) {
	var vtok string
	var rest []string
	switch {
	case len(toks) == 0:
		return Question{}, badInput("release", "Which release?")
	case looksVersion(toks[0]):
		vtok, rest = toks[0], toks[1:]
	case looksVersion(toks[len(toks)-1]):
		vtok, rest = toks[len(toks)-1], toks[:len(toks)-1]
	default:
		return Question{}, badInput("release", "Which release?")
	}
	v, err := ParseVersion(vtok)
	if err != nil {
		return Question{}, badInput("release", "%q is not a release like 1.29.", echo(vtok))
	}
	if lead != "" {
		rest = append([]string{lead}, rest...)
	}
	if len(rest) == 0 {
		return Question{Kind: AskRelease, Version: v}, nil
	}
	word := strings.Join(rest, " ")
	if q, ok := releaseWords[word]; ok {
		q.Version = v
		return q, nil
	}
	if len(rest) == 1 && looksVersion(word) {
		if w, err := ParseVersion(word); err == nil {
			if w == v {
				return Question{}, &Error{Code: EBADINPUT, Message: "That is one release twice. " + usage("release"), Suggestions: []string{v.String()}}
			}
			if w.Less(v) {
				v, w = w, v
			}
			d := Question{Kind: AskDiff, Version: v, To: w}
			return Question{}, &Error{Code: EBADINPUT, Message: "That is two releases. " + usage("diff"), Suggestions: []string{d.Canonical()}}
		}
	}
	if word == "notices" || word == "notes" {
		return Question{Kind: AskNotices, Version: v}, nil
	}
	st, err := ParseStage(word)
	if err != nil && len(rest) > 2 {
		return Question{}, errNotUnderstood()
	}
	if err != nil {
		return Question{}, badInput("stage", "%q is not a stage; use alpha, beta or ga, or deprecations or removals.", short(word))
	}
	switch st {
	case StageDeprecated:
		return Question{Kind: AskNotices, Version: v, Notice: NoticeDeprecation}, nil
	case StageRemoved:
		return Question{Kind: AskNotices, Version: v, Notice: NoticeRemoval}, nil
	}
	return Question{Kind: AskReleaseStage, Version: v, Stage: st}, nil
}

func parseHelp(args []string) (Question, error) {
	if len(args) == 0 {
		return Question{Kind: AskHelp}, nil
	}
	topic := strings.Join(args, " ")
	c := findCommand(topic)
	if c == nil {
		return Question{}, &Error{Code: EBADINPUT,
			Message:     "I have no help on that topic. Topics: " + strings.Join(helpTopics(), ", ") + ".",
			Suggestions: prefixAll("help ", closest(topic, helpTopics()))}
	}
	return Question{Kind: AskHelp, Words: c.Topic}, nil
}

func parseGate(args []string) (Question, error) {
	if len(args) != 1 {
		return Question{}, badInput("gate", "Give one feature gate name, written as one word.")
	}
	name := args[0]
	if len(name) > 100 || !isGateName(name) {
		return Question{}, badInput("gate", "%q is not a feature gate name; those are one word of letters and digits.", echo(name))
	}
	return Question{Kind: AskGate, Words: name}, nil
}

func parseSearch(args []string) (Question, error) {
	words := strings.Join(args, " ")
	if !strings.ContainsFunc(words, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return Question{}, badInput("search", "What should I search for?")
	}
	return Question{Kind: AskSearch, Words: words}, nil
}

func parseDiff(head string, args []string) (Question, error) {
	var vs []string
	for _, a := range args {
		for _, p := range strings.Split(a, "..") {
			switch p {
			case "", "to", "->", "→", "-":
				continue
			}
			vs = append(vs, p)
		}
	}
	if len(vs) != 2 {
		return Question{}, badInput(head, "Give two releases, the one you run and the one you go to.")
	}
	from, err1 := ParseVersion(vs[0])
	to, err2 := ParseVersion(vs[1])
	if err1 != nil || err2 != nil {
		bad := vs[0]
		if err1 == nil {
			bad = vs[1]
		}
		return Question{}, badInput(head, "%q is not a release like 1.29.", echo(bad))
	}
	switch from.Compare(to) {
	case 0:
		return Question{}, badInput(head, "Those are the same release; give two different ones.")
	case 1:
		fix := head + " " + to.String() + " " + from.String()
		return Question{}, &Error{Code: EBADINPUT,
			Message:     fmt.Sprintf("%s is older than %s: give the release you run first, then the one you go to: %s.", to, from, fix),
			Suggestions: []string{fix}}
	}
	if head == "upgrade" {
		return Question{Kind: AskUpgrade, Version: from, To: to}, nil
	}
	return Question{Kind: AskDiff, Version: from, To: to}, nil
}

// parseSIG reads a SIG name and an optional release after "sig": the name
// may be several words (sig api machinery is sig-api-machinery).
func parseSIG(name string, rest []string) (Question, error) {
	parts := append([]string{name}, rest...)
	versions := 0
	for _, p := range parts {
		if looksVersion(p) {
			versions++
		}
	}
	var v Version
	switch last := parts[len(parts)-1]; {
	case versions > 1 || len(parts) > 5:
		return Question{}, badInput("sig", "Give one SIG name and at most one release.")
	case versions == 1 && !looksVersion(last):
		return Question{}, badInput("sig", "Give the release after the SIG name.")
	case versions == 1:
		w, err := ParseVersion(last)
		if err != nil {
			return Question{}, badInput("sig", "%q is not a release like 1.29.", echo(last))
		}
		v, parts = w, parts[:len(parts)-1]
	}
	joined := strings.TrimPrefix(strings.Join(parts, "-"), "sig-")
	if len(parts) == 0 || !isSIGName(joined) {
		return Question{}, badInput("sig", "%q is not a SIG name.", echo(joined))
	}
	return Question{Kind: AskSIG, Words: joined, Version: v}, nil
}

// Canonical returns the question written the way kepbot writes it: "kep
// 4639", "1.29 ga", "diff 1.29 1.32". ParseQuestion reads it back to the same
// question.
func (q Question) Canonical() string {
	switch q.Kind {
	case AskKEP:
		return "kep " + strconv.Itoa(q.KEP)
	case AskRelease:
		return q.Version.String()
	case AskReleaseStage:
		return q.Version.String() + " " + strings.ToLower(q.Stage.Label())
	case AskNotices:
		switch q.Notice {
		case NoticeDeprecation:
			return q.Version.String() + " deprecations"
		case NoticeRemoval:
			return q.Version.String() + " removals"
		case NoticeUpgrade:
			return q.Version.String() + " action required"
		}
		return q.Version.String() + " notices"
	case AskReleases, AskSubscriptions:
		return string(q.Kind)
	case AskHelp:
		return strings.TrimSpace("help " + q.Words)
	case AskGate:
		return "gate " + q.Words
	case AskSearch:
		return "search " + q.Words
	case AskDiff:
		verb := "diff"
		if q.Words == "upgrade" {
			verb = "upgrade"
		}
		return verb + " " + q.Version.String() + " " + q.To.String()
	case AskUpgrade:
		return "upgrade " + q.Version.String() + " " + q.To.String()
	case AskSIG:
		return strings.TrimSpace("sig " + q.Words + " " + q.Version.String())
	case AskSubscribe:
		s := "subscribe deprecations"
		for _, k := range filterKeys {
			if v, ok := q.Filters[k]; ok {
				s += " " + k + ":" + v
			}
		}
		return s
	case AskUnsubscribe:
		return "unsubscribe deprecations"
	case AskLifecycle:
		return q.Version.String() + " eol"
	case AskPatches:
		return q.Version.String() + " patches"
	case AskSupported, AskLatest:
		return string(q.Kind)
	}
	return ""
}

// releaseWords are the words that ask one thing of a release, besides
// stages: its support dates, its patch releases, its urgent upgrade notes.
var releaseWords = map[string]Question{
	"eol": {Kind: AskLifecycle}, "end of life": {Kind: AskLifecycle}, "end-of-life": {Kind: AskLifecycle},
	"lifecycle": {Kind: AskLifecycle}, "support": {Kind: AskLifecycle}, "supported": {Kind: AskLifecycle},
	"停止支持": {Kind: AskLifecycle}, "生命周期": {Kind: AskLifecycle},
	"patches": {Kind: AskPatches}, "patch": {Kind: AskPatches}, "patch releases": {Kind: AskPatches},
	"latest": {Kind: AskPatches}, "latest patch": {Kind: AskPatches}, "补丁": {Kind: AskPatches},
	"action required": {Kind: AskNotices, Notice: NoticeUpgrade}, "urgent": {Kind: AskNotices, Notice: NoticeUpgrade},
	"urgent upgrade notes": {Kind: AskNotices, Notice: NoticeUpgrade}, "upgrade notes": {Kind: AskNotices, Notice: NoticeUpgrade},
	"urgent notes": {Kind: AskNotices, Notice: NoticeUpgrade},
}
