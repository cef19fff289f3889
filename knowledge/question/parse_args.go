package question

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// The forms of the grammar that take arguments: help TOPIC, gate NAME,
// search WORDS, diff and upgrade FROM TO, sig NAME [VERSION], the yes/no
// questions after is, and subscribe's filters.

func parseHelp(args []string) (knowledge.Question, error) {
	if len(args) == 0 {
		return knowledge.Question{Kind: knowledge.AskHelp}, nil
	}
	topic := strings.Join(args, " ")
	t, ok := knowledge.HelpTopic(topic)
	if !ok {
		topics := knowledge.HelpTopics()
		return knowledge.Question{}, &knowledge.Error{Code: knowledge.EBADINPUT,
			Message:     "I have no help on that topic. Topics: " + strings.Join(topics, ", ") + ".",
			Suggestions: prefixAll("help ", knowledge.ClosestWords(topic, topics))}
	}
	return knowledge.Question{Kind: knowledge.AskHelp, Words: t}, nil
}

func parseGate(args []string) (knowledge.Question, error) {
	// gate NAME in VERSION, gate NAME VERSION: the gate in that release,
	// as is NAME on by default in VERSION answers it
	if n := len(args); (n == 3 && strings.EqualFold(args[1], "in") || n == 2) && looksVersion(strings.ToLower(args[n-1])) {
		q, err := parseGate(args[:1])
		if err != nil {
			return q, err
		}
		v, err := knowledge.ParseVersion(strings.ToLower(args[n-1]))
		if err != nil {
			return knowledge.Question{}, knowledge.BadInput("gate", "%q is not a release like 1.33.", knowledge.Echo(args[n-1]))
		}
		return knowledge.Question{Kind: knowledge.AskGateDefault, Words: q.Words, Version: v}, nil
	}
	if len(args) != 1 {
		return knowledge.Question{}, knowledge.BadInput("gate", "Give one feature gate name, written as one word.")
	}
	name := args[0]
	if len(name) > 100 || !isGateName(name) {
		return knowledge.Question{}, knowledge.BadInput("gate", "%q is not a feature gate name; those are one word of letters and digits.", knowledge.Echo(name))
	}
	return knowledge.Question{Kind: knowledge.AskGate, Words: name}, nil
}

func parseSearch(args []string) (knowledge.Question, error) {
	words := strings.Join(args, " ")
	if !strings.ContainsFunc(words, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return knowledge.Question{}, knowledge.BadInput("search", "What should I search for?")
	}
	return knowledge.Question{Kind: knowledge.AskSearch, Words: words}, nil
}

func parseDiff(head string, args []string) (knowledge.Question, error) {
	sig := ""
	for i := 0; i < len(args); i++ { // a SIG to keep to: sig-node, sig:node, sig node
		a := strings.ToLower(args[i])
		switch {
		case a == "sig" && i+1 < len(args):
			sig = "sig-" + strings.ToLower(args[i+1])
			args = append(args[:i:i], args[i+2:]...)
			i--
		case strings.HasPrefix(a, "sig-") || strings.HasPrefix(a, "sig:"):
			sig = "sig-" + a[4:]
			args = append(args[:i:i], args[i+1:]...)
			i--
		}
	}
	if sig == "sig-" {
		return knowledge.Question{}, knowledge.BadInput(head, "Name the SIG to keep to, such as sig-node.")
	}
	q, err := parseDiffReleases(head, args)
	if err == nil && sig != "" {
		q.Filters = map[string]string{"sig": sig}
	}
	return q, err
}

// parseDiffReleases reads the two releases of diff and upgrade.
func parseDiffReleases(head string, args []string) (knowledge.Question, error) {
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
		return knowledge.Question{}, knowledge.BadInput(head, "Give two releases, the one you run and the one you go to.")
	}
	from, err1 := knowledge.ParseVersion(vs[0])
	to, err2 := knowledge.ParseVersion(vs[1])
	if err1 != nil || err2 != nil {
		bad := vs[0]
		if err1 == nil {
			bad = vs[1]
		}
		return knowledge.Question{}, knowledge.BadInput(head, "%q is not a release like 1.29.", knowledge.Echo(bad))
	}
	fromPatch, toPatch := patchOf(strings.ToLower(vs[0])), patchOf(strings.ToLower(vs[1]))
	if head == "upgrade" && from == to && fromPatch != nil && toPatch != nil && *fromPatch < *toPatch {
		// a patch upgrade: what the later patch fixes
		return knowledge.Question{Kind: knowledge.AskUpgrade, Version: from, To: to, Patch: fromPatch, ToPatch: toPatch}, nil
	}
	switch from.Compare(to) {
	case 0:
		if fromPatch != nil && toPatch != nil && *fromPatch > *toPatch && head == "upgrade" {
			fix := fmt.Sprintf("upgrade %s %s", vs[1], vs[0])
			return knowledge.Question{}, &knowledge.Error{Code: knowledge.EBADINPUT,
				Message:     fmt.Sprintf("%s is older than %s: give the patch you run first, then the one you go to: %s.", vs[1], vs[0], fix),
				Suggestions: []string{fix}}
		}
		return knowledge.Question{}, knowledge.BadInput(head, "Those are the same release; give two different ones.")
	case 1:
		fix := head + " " + to.String() + " " + from.String()
		return knowledge.Question{}, &knowledge.Error{Code: knowledge.EBADINPUT,
			Message:     fmt.Sprintf("%s is older than %s: give the release you run first, then the one you go to: %s.", to, from, fix),
			Suggestions: []string{fix}}
	}
	if head == "upgrade" {
		return knowledge.Question{Kind: knowledge.AskUpgrade, Version: from, To: to, Patch: fromPatch, ToPatch: toPatch}, nil
	}
	return knowledge.Question{Kind: knowledge.AskDiff, Version: from, To: to}, nil
}

// parseSIG reads a SIG name and an optional release after "sig": the name
// may be several words (sig api machinery is sig-api-machinery).
func parseSIG(name string, rest []string) (knowledge.Question, error) {
	parts := append([]string{name}, rest...)
	versions := 0
	for _, p := range parts {
		if looksVersion(p) {
			versions++
		}
	}
	var v knowledge.Version
	switch last := parts[len(parts)-1]; {
	case versions > 1 || len(parts) > 5:
		return knowledge.Question{}, knowledge.BadInput("sig", "Give one SIG name and at most one release.")
	case versions == 1 && !looksVersion(last):
		return knowledge.Question{}, knowledge.BadInput("sig", "Give the release after the SIG name.")
	case versions == 1:
		w, err := knowledge.ParseVersion(last)
		if err != nil {
			return knowledge.Question{}, knowledge.BadInput("sig", "%q is not a release like 1.29.", knowledge.Echo(last))
		}
		v, parts = w, parts[:len(parts)-1]
	}
	joined := strings.TrimPrefix(strings.Join(parts, "-"), "sig-")
	if len(parts) == 0 || !knowledge.IsSIGName(joined) || strings.ContainsFunc(joined, isHan) {
		return knowledge.Question{}, knowledge.BadInput("sig", "%q is not a SIG name.", knowledge.Echo(joined))
	}
	return knowledge.Question{Kind: knowledge.AskSIG, Words: joined, Version: v}, nil
}

// parseIs reads the yes/no questions of the grammar after "is": kep N
// STAGE [in VERSION] (KEP-N, N and #N too) and VERSION supported. They are
// the canonical forms the free-text reader writes for "is sidecar
// containers stable?" and "is 1.31 still supported?".
func parseIs(args []string) (knowledge.Question, error) {
	if q, ok, err := parseIsAffected(args); ok {
		return q, err
	}
	if len(args) == 2 && looksVersion(args[0]) && args[1] == "supported" {
		v, err := knowledge.ParseVersion(args[0])
		if err != nil {
			return knowledge.Question{}, knowledge.BadInput("is", "%q is not a release like 1.29.", knowledge.Echo(args[0]))
		}
		return knowledge.Question{Kind: knowledge.AskSupported, Version: v}, nil
	}
	if len(args) > 0 && args[0] == "kep" {
		args = args[1:]
	}
	if len(args) < 2 {
		return knowledge.Question{}, knowledge.BadInput("is", "Ask whether a KEP is at a stage, or a release supported.")
	}
	n, ok, err := kepToken(args[0])
	if !ok {
		return knowledge.Question{}, knowledge.BadInput("is", "%q is not a KEP number.", knowledge.Echo(args[0]))
	}
	if err != nil {
		return knowledge.Question{}, err
	}
	rest := args[1:]
	var v knowledge.Version
	if k := len(rest); k >= 3 && rest[k-2] == "in" {
		if v, err = knowledge.ParseVersion(rest[k-1]); err != nil {
			return knowledge.Question{}, knowledge.BadInput("is", "%q is not a release like 1.29.", knowledge.Echo(rest[k-1]))
		}
		rest = rest[:k-2]
	}
	st, err := parseStage(strings.Join(rest, " "))
	if err != nil {
		return knowledge.Question{}, knowledge.BadInput("is", "%q is not a stage; use alpha, beta, ga, deprecated or removed.", knowledge.Short(strings.Join(rest, " ")))
	}
	return knowledge.Question{Kind: knowledge.AskKEP, KEP: n, Stage: st, Version: v}, nil
}

// isHan reports whether r is a Chinese character: never part of a SIG's
// name (sig storage 有哪些 KEP asks about sig storage).
func isHan(r rune) bool { return r >= 0x2E80 && unicode.Is(unicode.Han, r) }

func isDeprecationWord(w string) bool {
	st, err := parseStage(w)
	return err == nil && st == knowledge.StageDeprecated
}

// parseSubscribe reads "deprecations" and the filters after "subscribe".
func parseSubscribe(args []string) (knowledge.Question, error) {
	topic, ok := subscriptionTopic(args)
	if !ok {
		return knowledge.Question{}, knowledge.BadInput("subscribe", "I can subscribe a channel to deprecation digests or CVE digests: subscribe deprecations, subscribe cves.")
	}
	f, err := parseFilters(args[1:])
	if err != nil {
		return knowledge.Question{}, err
	}
	return knowledge.Question{Kind: knowledge.AskSubscribe, Filters: f, Words: topic}, nil
}

// subscriptionTopic reads the topic a subscribe or unsubscribe names
// first: "" for deprecations (as before topics), "cves" for
// vulnerabilities.
func subscriptionTopic(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	w := strings.ToLower(args[0])
	switch {
	case isDeprecationWord(w):
		return "", true
	case w == "cves" || w == "cve" || w == "vulnerabilities" || w == "security" || w == "漏洞":
		return "cves", true
	}
	return "", false
}

// parseFilters reads key:value filters ("sig: network" and "sig=network"
// too): the syntax here, each value by digest.ParseFilter. It returns
// the filters given, their values normalised (sig without "sig-", from as
// 1.29, lower case), and fails naming the filter and what it allows.
func parseFilters(args []string) (map[string]string, error) {
	var joined []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if i+1 < len(args) && (strings.HasSuffix(a, ":") || strings.HasSuffix(a, "=") ||
			strings.HasPrefix(args[i+1], ":") || strings.HasPrefix(args[i+1], "=")) {
			a += args[i+1]
			i++
		}
		joined = append(joined, a)
	}
	if len(joined) == 0 {
		return nil, nil
	}
	keys := knowledge.FilterKeys()
	given := make(map[string]string, len(joined))
	for _, a := range joined {
		k, v, ok := cutFilter(a)
		if !ok {
			return nil, knowledge.BadInput("subscribe", "%q is not a filter; filters look like sig:network.", knowledge.Echo(a))
		}
		k = strings.ToLower(k)
		if !slices.Contains(keys, k) {
			return nil, knowledge.BadInput("subscribe", "I don't know the filter %q; the filters are sig, from, schedule and format.", knowledge.Echo(k))
		}
		if _, dup := given[k]; dup {
			return nil, knowledge.BadInput("subscribe", "The filter %s: is given twice; give it once.", k)
		}
		if v == "" {
			return nil, knowledge.BadInput("subscribe", "The filter %s: needs a value.", k)
		}
		given[k] = v
	}
	f, err := digest.ParseFilter(given)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(given))
	for k := range given {
		switch k {
		case "sig":
			out[k] = f.SIG
		case "from":
			out[k] = f.From.String()
		case "schedule":
			out[k] = f.Schedule
		case "format":
			out[k] = f.Format
		}
	}
	return out, nil
}

// cutFilter splits "key:value" or "key=value".
func cutFilter(a string) (key, value string, ok bool) {
	i := strings.IndexAny(a, ":=")
	if i <= 0 {
		return "", "", false
	}
	return a[:i], a[i+1:], true
}
