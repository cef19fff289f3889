package question

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// MaxRunes is the longest question Parse (and Reader.Read) reads.
const MaxRunes = 1000

// Parse reads one question of the grammar in architecture.md: kep N,
// KEP-N, N, VERSION, VERSION STAGE, STAGE VERSION, VERSION deprecations,
// releases, help [TOPIC], gate NAME, is NAME on by default in VERSION,
// VERSION gates, search WORDS, diff A B, upgrade A B,
// sig NAME [VERSION], cves VERSION, cve ID, subscribe deprecations
// [filters], unsubscribe
// deprecations and subscriptions, api KIND|GROUP/VERSION [KIND] [in
// VERSION], scan [FROM] TO (its manifests after the first line, taken as
// they are: see SplitScan), pr N
// and the yes/no questions is kep N STAGE [in VERSION],
// is VERSION supported and is VERSION affected by ID. Case, spacing, smart quotes, full-width
// characters and a leading v do not matter; control characters are dropped.
// It fails with an *knowledge.Error of code knowledge.EBADINPUT whose message says what was wrong
// and how to ask instead, with "did you mean" questions in Suggestions.
func Parse(text string) (knowledge.Question, error) {
	var manifest []byte
	if head, m, ok := SplitScan(text); ok {
		text, manifest = head, m // a scan's manifests are kept as they are, never normalised
	}
	norm, err := check(text)
	if err != nil {
		return knowledge.Question{}, err
	}
	q, err := parseNormalized(norm)
	if err != nil {
		return knowledge.Question{}, withSuggestions(err, norm)
	}
	q.Text = norm
	if q.Kind == knowledge.AskScan {
		q.Manifest = manifest
	}
	return q, nil
}

// withSuggestions gives a grammar error that has no "did you mean" the
// questions closest to norm (suggestQuestions), which take a while to find:
// only errors that are shown get them.
func withSuggestions(err error, norm string) error {
	if e, ok := err.(*knowledge.Error); ok && len(e.Suggestions) == 0 {
		e.Suggestions = suggestQuestions(norm)
	}
	return err
}

// check refuses text too long to read (over MaxRunes) or not UTF-8, and
// returns it normalised.
func check(text string) (string, error) {
	if len(text) > 4*MaxRunes || utf8.RuneCountInString(text) > MaxRunes {
		return "", tooLong()
	}
	if !utf8.ValidString(text) {
		return "", knowledge.Errorf(knowledge.EBADINPUT, "I could not read that text: it is not valid UTF-8. Ask e.g. kep 4639 or 1.29 ga.")
	}
	norm := normalize(text)
	if utf8.RuneCountInString(norm) > MaxRunes {
		return "", tooLong()
	}
	return norm, nil
}

func tooLong() *knowledge.Error {
	return knowledge.Errorf(knowledge.EBADINPUT, "That question is too long (over %d characters). Ask one short thing, e.g. kep 4639 or 1.29 ga.", MaxRunes)
}

// parseNormalized parses text that normalize has already cleaned.
func parseNormalized(s string) (knowledge.Question, error) {
	if s == "" {
		return knowledge.Question{}, knowledge.Errorf(knowledge.EBADINPUT, "Ask me something, e.g. kep 4639, 1.29, 1.29 ga or help.")
	}
	toks := strings.Split(s, " ")
	low := make([]string, len(toks))
	for i, t := range toks {
		low[i] = strings.ToLower(t)
	}
	head, args := low[0], toks[1:]
	if q, ok, err := parseGateDefault(toks, low); ok {
		return q, err // is ImageVolume on by default in 1.33 (parse_gates.go)
	}
	switch head {
	case "kep":
		return parseKEPArgs(args)
	case "releases", "release", "versions":
		if len(args) == 0 {
			return knowledge.Question{Kind: knowledge.AskReleases}, nil
		}
		if head == "release" {
			return parseVersionQuestion(low[1:], "")
		}
		return knowledge.Question{}, knowledge.BadInput("releases", "releases takes no more words.")
	case "help", "帮助":
		return parseHelp(low[1:])
	case "gate", "featuregate", "feature-gate":
		return parseGate(args)
	case "gates", "featuregates", "feature-gates":
		return parseVersionQuestion(low[1:], "gates") // gates 1.34
	case "search", "find":
		return parseSearch(low[1:])
	case "diff", "upgrade":
		return parseDiff(head, low[1:])
	case "sig":
		if len(args) == 0 {
			return knowledge.Question{}, knowledge.BadInput("sig", "Which SIG?")
		}
		return parseSIG(low[1], low[2:])
	case "subscribe":
		return parseSubscribe(args)
	case "unsubscribe":
		if len(args) == 0 {
			return knowledge.Question{Kind: knowledge.AskUnsubscribe}, nil
		}
		if topic, ok := subscriptionTopic(low[1:]); ok && len(args) == 1 {
			return knowledge.Question{Kind: knowledge.AskUnsubscribe, Words: topic}, nil
		}
		return knowledge.Question{}, knowledge.BadInput("unsubscribe", "I send deprecation digests and CVE digests: unsubscribe deprecations, unsubscribe cves.")
	case "subscriptions":
		if len(args) > 0 {
			return knowledge.Question{}, knowledge.BadInput("subscriptions", "subscriptions takes no more words.")
		}
		return knowledge.Question{Kind: knowledge.AskSubscriptions}, nil
	case "supported":
		if len(args) > 0 {
			return parseVersionQuestion(low[1:], "supported")
		}
		return knowledge.Question{Kind: knowledge.AskSupported}, nil
	case "latest":
		if len(args) == 0 {
			return knowledge.Question{Kind: knowledge.AskLatest}, nil
		}
		return parseVersionQuestion(low[1:], "latest")
	case "eol", "patches", "urgent":
		return parseVersionQuestion(low[1:], head)
	case "is":
		return parseIs(low[1:])
	case "api", "apiversion":
		return parseAPI(args)
	case "scan":
		return parseScan(args)
	case "pr":
		return parsePR(args)
	}
	if cveHeads[head] {
		return parseCVE(head, args)
	}
	if knowledge.IsVulnID(head) && len(args) == 0 {
		return knowledge.Question{Kind: knowledge.AskCVE, Words: knowledge.NormVulnID(head)}, nil
	}
	if name, ok := strings.CutPrefix(head, "sig-"); ok && name != "" {
		return parseSIG(name, low[1:])
	}
	if n, ok, err := kepToken(head); ok {
		if err != nil {
			return knowledge.Question{}, err
		}
		if len(args) > 0 {
			return knowledge.Question{}, knowledge.BadInput("kep", "Ask about one KEP at a time, with nothing after its number.")
		}
		return knowledge.Question{Kind: knowledge.AskKEP, KEP: n}, nil
	}
	if looksVersion(low[0]) || looksVersion(low[len(low)-1]) {
		return parseVersionQuestion(low, "")
	}
	if st, err := parseStage(strings.Join(low, " ")); err == nil {
		if st.IsGraduation() {
			return knowledge.Question{}, knowledge.BadInput("stage", "Which release?")
		}
		return knowledge.Question{}, knowledge.BadInput("deprecations", "Which release?")
	}
	return knowledge.Question{}, errNotUnderstood()
}

// parseKEPArgs reads what follows "kep": one number.
func parseKEPArgs(args []string) (knowledge.Question, error) {
	if len(args) == 0 {
		return knowledge.Question{}, knowledge.BadInput("kep", "Which KEP? Give its number.")
	}
	if len(args) > 1 {
		return knowledge.Question{}, knowledge.BadInput("kep", "Ask about one KEP at a time, with nothing after its number.")
	}
	n, ok, err := kepToken(args[0])
	if !ok {
		if looksVersion(strings.ToLower(args[0])) {
			return knowledge.Question{}, knowledge.BadInput("kep", "%q is a release, not a KEP number; ask just %s for the release.", knowledge.Echo(args[0]), knowledge.Echo(args[0]))
		}
		return knowledge.Question{}, knowledge.BadInput("kep", "%q is not a KEP number.", knowledge.Echo(args[0]))
	}
	if err != nil {
		return knowledge.Question{}, err
	}
	return knowledge.Question{Kind: knowledge.AskKEP, KEP: n}, nil
}

// notKEPNumber is the error for a KEP number written wrong. A signed
// number (-1) is bad input, never a typo of 1: its error carries help
// kep, so that the chat reader says it rather than reading on.
func notKEPNumber(tok, num string) *knowledge.Error {
	if len(num) > 1 && (num[0] == '-' || num[0] == '+') {
		e := knowledge.BadInput("kep", "%q is not a KEP number: KEP numbers are whole numbers from 1, with no sign.", tok)
		e.Suggestions = []string{"help kep"}
		return e
	}
	return knowledge.BadInput("kep", "%q is not a KEP number.", knowledge.Echo(tok))
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
			return 0, true, notKEPNumber(tok, rest)
		}
		t = rest
	} else {
		t = strings.TrimPrefix(t, "#")
	}
	if len(t) > 1 && (t[0] == '-' || t[0] == '+') && allDigits(t[1:]) {
		return 0, true, notKEPNumber(tok, t)
	}
	if !allDigits(t) {
		return 0, false, nil
	}
	if len(t) > 6 {
		return 0, true, knowledge.BadInput("kep", "%q is too long for a KEP number.", knowledge.Echo(tok))
	}
	n, _ = strconv.Atoi(t)
	if n == 0 {
		return 0, true, knowledge.BadInput("kep", "KEP numbers start at 1.")
	}
	return n, true, nil
}

// parseVersionQuestion reads VERSION, VERSION STAGE and STAGE VERSION from
// lower-case tokens (and VERSION WORD, WORD VERSION for the words of
// releaseWords); one end of toks looks like a version. lead is a word that
// came before toks and belongs with them ("eol" of "eol 1.31"), or "".
func parseVersionQuestion(toks []string, lead string) (knowledge.Question, error) {
	var vtok string
	var rest []string
	switch {
	case len(toks) == 0:
		return knowledge.Question{}, knowledge.BadInput("release", "Which release?")
	case looksVersion(toks[0]):
		vtok, rest = toks[0], toks[1:]
	case looksVersion(toks[len(toks)-1]):
		vtok, rest = toks[len(toks)-1], toks[:len(toks)-1]
	default:
		return knowledge.Question{}, knowledge.BadInput("release", "Which release?")
	}
	v, err := knowledge.ParseVersion(vtok)
	if err != nil {
		return knowledge.Question{}, knowledge.BadInput("release", "%q is not a release like 1.29.", knowledge.Echo(vtok))
	}
	patch := patchOf(vtok)
	if lead != "" {
		rest = append([]string{lead}, rest...)
	}
	if len(rest) == 0 {
		return knowledge.Question{Kind: knowledge.AskRelease, Version: v, Patch: patch}, nil
	}
	word := strings.Join(rest, " ")
	if q, ok := releaseWords[word]; ok {
		q.Version, q.Patch = v, patch
		return q, nil
	}
	for _, w := range cveWords {
		if word == w {
			return knowledge.Question{Kind: knowledge.AskCVEs, Version: v, Patch: patch}, nil
		}
	}
	if len(rest) == 1 && looksVersion(word) {
		if w, err := knowledge.ParseVersion(word); err == nil {
			if w == v {
				return knowledge.Question{}, &knowledge.Error{Code: knowledge.EBADINPUT, Message: "That is one release twice. " + knowledge.Usage("release"), Suggestions: []string{v.String()}}
			}
			if w.Less(v) {
				v, w = w, v
			}
			d := knowledge.Question{Kind: knowledge.AskDiff, Version: v, To: w}
			return knowledge.Question{}, &knowledge.Error{Code: knowledge.EBADINPUT, Message: "That is two releases. " + knowledge.Usage("diff"), Suggestions: []string{d.Canonical()}}
		}
	}
	if word == "notices" || word == "notes" {
		return knowledge.Question{Kind: knowledge.AskNotices, Version: v}, nil
	}
	st, err := parseStage(word)
	if err != nil && len(rest) > 2 {
		return knowledge.Question{}, errNotUnderstood()
	}
	if err != nil {
		return knowledge.Question{}, knowledge.BadInput("stage", "%q is not a stage; use alpha, beta or ga, or deprecations or removals.", knowledge.Short(word))
	}
	switch st {
	case knowledge.StageDeprecated:
		return knowledge.Question{Kind: knowledge.AskNotices, Version: v, Notice: knowledge.NoticeDeprecation}, nil
	case knowledge.StageRemoved:
		return knowledge.Question{Kind: knowledge.AskNotices, Version: v, Notice: knowledge.NoticeRemoval}, nil
	}
	return knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v, Stage: st}, nil
}

// patchOf is the patch number a release token writes (8 in v1.35.8),
// nil when it writes none.
func patchOf(tok string) *int {
	parts := strings.Split(strings.TrimLeft(tok, "vV"), ".")
	if len(parts) != 3 {
		return nil
	}
	n, err := strconv.Atoi(parts[2])
	if err != nil || n < 0 {
		return nil
	}
	return &n
}

// releaseWords are the words that ask one thing of a release, besides
// stages: its support dates, its patch releases, its urgent upgrade notes.
var releaseWords = map[string]knowledge.Question{
	"eol": {Kind: knowledge.AskLifecycle}, "end of life": {Kind: knowledge.AskLifecycle}, "end-of-life": {Kind: knowledge.AskLifecycle},
	"lifecycle": {Kind: knowledge.AskLifecycle}, "support": {Kind: knowledge.AskLifecycle}, "supported": {Kind: knowledge.AskLifecycle},
	"停止支持": {Kind: knowledge.AskLifecycle}, "生命周期": {Kind: knowledge.AskLifecycle},
	"patches": {Kind: knowledge.AskPatches}, "patch": {Kind: knowledge.AskPatches}, "patch releases": {Kind: knowledge.AskPatches},
	"latest": {Kind: knowledge.AskPatches}, "latest patch": {Kind: knowledge.AskPatches}, "补丁": {Kind: knowledge.AskPatches},
	"action required": {Kind: knowledge.AskNotices, Notice: knowledge.NoticeUpgrade}, "urgent": {Kind: knowledge.AskNotices, Notice: knowledge.NoticeUpgrade},
	"urgent upgrade notes": {Kind: knowledge.AskNotices, Notice: knowledge.NoticeUpgrade}, "upgrade notes": {Kind: knowledge.AskNotices, Notice: knowledge.NoticeUpgrade},
	"urgent notes": {Kind: knowledge.AskNotices, Notice: knowledge.NoticeUpgrade},
	"gates":        {Kind: knowledge.AskGateChanges}, "feature gates": {Kind: knowledge.AskGateChanges}, "featuregates": {Kind: knowledge.AskGateChanges},
	"feature-gates": {Kind: knowledge.AskGateChanges}, "特性门控": {Kind: knowledge.AskGateChanges}, "功能门控": {Kind: knowledge.AskGateChanges},
}
