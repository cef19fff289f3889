package question

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// The grammar's questions about feature gates in a release, besides gate
// NAME: is NAME on by default in VERSION (and is NAME enabled [by default]
// in VERSION, is NAME on in VERSION, NAME default in VERSION, NAME on by
// default in VERSION), and VERSION gates (gates VERSION).

// gateDefaultWords are the words that may stand between a gate's name and
// "in VERSION" in a default question.
var gateDefaultWords = map[string]bool{
	"on by default": true, "enabled by default": true, "enabled": true, "on": true, "default": true,
	"default on": true, "default enabled": true, "turned on": true, "turned on by default": true, "by default": true,
}

// parseGateDefault reads toks (as typed) and low (lower case) as a default
// question; ok is false when they are not one.
func parseGateDefault(toks, low []string) (knowledge.Question, bool, error) {
	i := 0
	if low[0] == "is" || low[0] == "are" {
		i = 1
	}
	n := len(low)
	if n-i < 4 || low[n-2] != "in" || !looksVersion(low[n-1]) {
		return knowledge.Question{}, false, nil
	}
	name, words := toks[i], strings.Join(low[i+1:n-2], " ")
	if !gateDefaultWords[words] || !isGateName(name) || low[i] == "kep" || looksVersion(low[i]) {
		return knowledge.Question{}, false, nil
	}
	if i == 0 && words != "default" && words != "on by default" && words != "enabled by default" {
		return knowledge.Question{}, false, nil // NAME enabled in 1.33 is not a question without "is"
	}
	v, err := knowledge.ParseVersion(low[n-1])
	if err != nil {
		return knowledge.Question{}, true, knowledge.BadInput("gate", "%q is not a release like 1.33.", knowledge.Echo(low[n-1]))
	}
	if _, isKEP, _ := kepToken(name); isKEP {
		return knowledge.Question{}, false, nil
	}
	return knowledge.Question{Kind: knowledge.AskGateDefault, Words: name, Version: v}, true, nil
}

// gatesWords are the words that, with a release, ask which gates changed
// in it (VERSION gates, gates VERSION).
var gatesWords = map[string]bool{"gates": true, "feature gates": true, "featuregates": true, "feature-gates": true, "特性门控": true, "功能门控": true}

// Free text about gates in a release: "which feature gates changed in
// 1.34", "1.34 有哪些特性门控变化", "1.33 中 ImageVolume 默认开启吗",
// "ImageVolume 在 1.33 中默认开启吗".
var (
	gateChangesEnRe = lazyre.New(`(?i)^(?:which|what)?\s*(?:feature[ -]?gates?|gates)\s*(?:have\s+|were\s+|did\s+)?(?:changed?|changes)\s*(?:in|with|for)\s*v?(1\.\d{1,3})\s*\??$`)
	gateChangesEn2  = lazyre.New(`(?i)^(?:what|which)\s+(?:feature[ -]?gates?\s+)?changes?\s+(?:to|of|in)\s+(?:the\s+)?(?:feature[ -]?gates?\s+)(?:in|with)\s+v?(1\.\d{1,3})\s*\??$`)
	gateChangesZhRe = lazyre.New(`^v?(1\.\d{1,3})\s*(?:版本)?\s*(?:的|中|里)?\s*(?:有)?\s*(?:哪些)?\s*(?:特性门控|功能门控|feature\s*gates?)\s*(?:有)?\s*(?:哪些)?\s*(?:变化|改变|变更|变了)(?:了)?\s*(?:吗)?\s*[?？]?$`)
	gateChangesZh2  = lazyre.New(`^v?(1\.\d{1,3})\s*(?:版本)?\s*(?:中|里)?\s*(?:改了|改变了|变更了|变了|调整了)\s*哪些\s*(?:特性门控|功能门控|feature\s*gates?)\s*(?:吗)?\s*[?？]?$`)
	gateDefaultZhRe = lazyre.New(`^v?(1\.\d{1,3})\s*(?:版本)?\s*(?:中|里|的)?\s*,?\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:特性门控|门控)?\s*(?:是)?\s*(?:默认)\s*(?:开启|启用|打开|开)(?:的)?\s*(?:吗|么)?\s*[?？]?$`)
	gateDefaultZh2  = lazyre.New(`^([A-Za-z][A-Za-z0-9_]*)\s*(?:特性门控|门控)?\s*在\s*v?(1\.\d{1,3})\s*(?:版本)?\s*(?:中|里)?\s*(?:是)?\s*(?:默认)\s*(?:开启|启用|打开|开)(?:的)?\s*(?:吗|么)?\s*[?？]?$`)
	gateDefaultEnRe = lazyre.New(`(?i)^(?:is|are)\s+(?:the\s+)?(?:feature\s+gate\s+)?([A-Za-z][A-Za-z0-9_]*)\s+(?:feature\s+gate\s+)?(?:on|enabled|turned\s+on)(?:\s+by\s+default)?\s+in\s+v?(1\.\d{1,3})\s*\??$`)
)

// readGateFree reads text typed in chat that asks about gates in a
// release; ok is false when it does not.
func readGateFree(text string) (knowledge.Question, bool) {
	s := strings.TrimSpace(strings.Join(strings.Fields(clean(text)), " "))
	for _, re := range []func() *regexp.Regexp{gateChangesEnRe, gateChangesEn2, gateChangesZhRe, gateChangesZh2} {
		if m := re().FindStringSubmatch(s); m != nil {
			if v, err := knowledge.ParseVersion(m[1]); err == nil {
				return knowledge.Question{Kind: knowledge.AskGateChanges, Version: v}, true
			}
		}
	}
	if m := gateDefaultZhRe().FindStringSubmatch(s); m != nil {
		if v, err := knowledge.ParseVersion(m[1]); err == nil && isGateName(m[2]) {
			return knowledge.Question{Kind: knowledge.AskGateDefault, Words: m[2], Version: v}, true
		}
	}
	for _, re := range []func() *regexp.Regexp{gateDefaultZh2, gateDefaultEnRe} {
		if m := re().FindStringSubmatch(s); m != nil {
			if v, err := knowledge.ParseVersion(m[2]); err == nil && isGateName(m[1]) && !strings.EqualFold(m[1], "kep") {
				return knowledge.Question{Kind: knowledge.AskGateDefault, Words: m[1], Version: v}, true
			}
		}
	}
	return knowledge.Question{}, false
}

// CodeGateSource gives the names of the feature gates the releases' code
// declares: gates the knowledge answers though no kep.yaml or notice names
// them. *engine.Engine is one (Engine.CodeGates).
type CodeGateSource interface {
	CodeGates(ctx context.Context) ([]string, error)
}

// codeGate reports whether the source's code declares gate.
func (r *Reader) codeGate(ctx context.Context, gate string) bool {
	if r == nil {
		return false
	}
	src, ok := r.src.(CodeGateSource)
	if !ok {
		return false
	}
	gates, err := src.CodeGates(ctx)
	if err != nil {
		return true // unsure: as typed
	}
	return slices.ContainsFunc(gates, func(g string) bool { return strings.EqualFold(g, gate) })
}
