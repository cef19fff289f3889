package relnotes

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// Classify says which notice a release-note entry makes, from what its
// text says it does (its effects, see Effects) and whether the notes mark
// it action required:
//
//  1. An entry that removes something (an effect of action removed) is
//     a removal; else one that deprecates something is a deprecation;
//     whatever its kinds ("kube-proxy: Removed the iptables CLI wait
//     interval flag" is a bug fix by its kind, and a removal).
//  2. An entry none of whose effects removes or deprecates, or with no
//     effect read, is still a removal or a deprecation when its words
//     state one in a way the effect rules do not read, and its kinds
//     allow it (the rules of kepbot before typed effects, kept as a
//     fallback): a kind "deprecation", "api-change" or "cleanup" entry
//     stating a removal of a thing users name ("Deprecated beta APIs
//     ... are no longer served"), a kind "deprecation", "api-change",
//     "cleanup" or "feature" entry stating a deprecation ("X is
//     deprecated", "deprecation of X"). A bug fix ("Fix", "Fixed") states
//     neither. A kind "deprecation" alone is no reading of the words: the
//     notes give it to entries that deprecate nothing. (The notice lists
//     still hold every such entry by its label: see knowledge's noticeOf.)
//     An entry of kind "deprecation" that turns a thing off by default
//     (an effect of action default, value false) is a deprecation.
//  3. An entry that turns an API group/version off by default is an
//     upgrade note: clusters stop serving it unless asked to.
//  4. Otherwise an entry marked action_required is an upgrade note; an
//     action-required removal or deprecation stays a removal or a
//     deprecation (Change.Action still says it is urgent).
//
// A text states a removal with "removed", "dropped", "no longer served",
// "no longer supported" or "stopped serving", or by opening with "Remove",
// "Removing", "Drop". A removal word does not count when the words before
// it in its clause put it in the future or the past ("will be removed",
// "until ... removed", "since X was removed", "given ..."), when it removes
// only a use, a cleanup, a note, a statement or a restriction ("removed the
// usage of the flag"), or when it takes a thing out of the defaults only
// ("removed them from the defaults").
func Classify(kinds []string, text string, action bool, effects []knowledge.Effect) knowledge.NoticeKind {
	switch {
	case knowledge.HasAction(effects, knowledge.EffectRemoved):
		return knowledge.NoticeRemoval
	case knowledge.HasAction(effects, knowledge.EffectDeprecated):
		return knowledge.NoticeDeprecation
	}
	has := map[string]bool{}
	for _, k := range kinds {
		has[k] = true
	}
	if has["deprecation"] && turnsOff(effects) {
		return knowledge.NoticeDeprecation // "Disabled the `git-repo` volume plugin by default"
	}
	if turnsOffAPI(effects) {
		return knowledge.NoticeUpgrade // "`apidiscovery.k8s.io/v2beta1` API group is disabled by default": served no more unless asked for
	}
	t := unwrapQuotes(strings.TrimSpace(text))
	if !fixRe().MatchString(t) {
		if (has["deprecation"] || has["api-change"] || has["cleanup"]) && statesRemoval(t) && (has["deprecation"] || removedThingRe().MatchString(t)) {
			return knowledge.NoticeRemoval
		}
		if (has["deprecation"] || has["api-change"] || has["cleanup"] || has["feature"]) && statesDeprecation(t) {
			return knowledge.NoticeDeprecation
		}
	}
	if action {
		return knowledge.NoticeUpgrade
	}
	return ""
}

// prefix is an optional "component: " and "ACTION REQUIRED: " before a text's first verb.
const prefix = `^(?:[\w./\[\] -]{1,40}:\s*)?(?:action[- ]required:?\s*)?`

var (
	fixRe = lazyre.New(`(?i)^fix(?:es|ed)?\b`)

	removalOpenRe = lazyre.New(`(?i)` + prefix + `(?:remove|removes|removing|drop|drops|dropping)\b`)
	removalWordRe = lazyre.New(`(?i)\b(?:removed|dropped|no longer served|no longer supported|no longer supports?|stopped serving)\b`)
	// clauseEndRe ends a clause: a sentence's end, a comma, a bracket, a
	// new line, a list dash.
	clauseEndRe = lazyre.New(`[.;:!?](?:\s|$)|[,()\n]|\s-\s`)
	// notNowRe, before a removal word in its clause, puts the removal in
	// the future or in an earlier release.
	notNowRe = lazyre.New(`(?i)\b(?:will|be|before|once|until|would|should|could|can|may|might|planned|when|if|given|since|because|after)\b`)
	// notAThingRe, right after a removal word, says what went is no thing
	// users name.
	notAThingRe    = lazyre.New(`(?i)^\s+(?:(?:the|an?)\s+)?(?:(?:inaccurate|misleading|incorrect|unused)\s+)?(?:usage|use|cleanup|mention|note|statement|restrictions?|limitations?|requirements?|a purpose)\b`)
	fromDefaultsRe = lazyre.New(`(?i)^[^.;]{0,60}?\bfrom\s+(?:the\s+)?defaults?\b`)

	removedThingRe = lazyre.New(`(?i:deprecat|feature[- ]?gates?|featuregate|feature flag|\bflags?\b|\bv\d+(?:alpha|beta)\d+\b|in-?tree|plugins?|providers?|annotations?|\bfields?\b|metrics?|support for|environment variable|generally available)|\bAPIs?\b|\bGA\b`)

	deprecationOpenRe = lazyre.New(`(?i)` + prefix + `deprecat(?:e|ed|es|ing)\b`)
	deprecationRe     = lazyre.New(`(?i)\b(?:(?:is|are|was|were|been|be|now|being|as)\s+(?:now\s+|officially\s+|also\s+)?deprecated|deprecates?|deprecation (?:of|for))\b`)
)

// maxClauseLook bounds how far before a removal word its clause is read.
const maxClauseLook = 200

// statesRemoval reports whether t says something was removed in this
// release (see Classify).
func statesRemoval(t string) bool {
	if !containsFoldAny(t, "remov", "drop", "no longer", "stopped serving") {
		return false
	}
	if removalOpenRe().MatchString(t) {
		return true
	}
	ends := clauseEndRe().FindAllStringIndex(t, -1)
	e := 0 // ends[:e] end before the current match
	for _, m := range removalWordRe().FindAllStringIndex(t, -1) {
		for e < len(ends) && ends[e][1] <= m[0] {
			e++
		}
		start := max(0, m[0]-maxClauseLook)
		if e > 0 {
			start = max(start, ends[e-1][1])
		}
		if notNowRe().MatchString(t[start:m[0]]) {
			continue
		}
		after := t[m[1]:]
		if notAThingRe().MatchString(after) || fromDefaultsRe().MatchString(after) {
			continue
		}
		return true
	}
	return false
}

// statesDeprecation reports whether t says something is deprecated (see
// Classify). "un-deprecated" and "the deprecated X" do not.
func statesDeprecation(t string) bool {
	if !containsFoldAny(t, "deprecat") {
		return false
	}
	return deprecationOpenRe().MatchString(t) || deprecationRe().MatchString(t)
}

// unwrapQuotes drops one pair of quotes around a whole text: some entries
// carry the YAML quoting of the PR's release-note block.
func unwrapQuotes(t string) string {
	if len(t) > 1 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
		return strings.TrimSpace(t[1 : len(t)-1])
	}
	return t
}

// turnsOff reports whether an effect turns a thing off by default.
func turnsOff(effects []knowledge.Effect) bool {
	for _, e := range effects {
		if e.Action == knowledge.EffectDefault && e.Value == "false" {
			return true
		}
	}
	return false
}

// turnsOffAPI reports whether an effect turns an API group/version off by
// default: clusters stop serving it unless --runtime-config asks for it.
func turnsOffAPI(effects []knowledge.Effect) bool {
	for _, e := range effects {
		if e.Action == knowledge.EffectDefault && e.Value == "false" && e.What == knowledge.EffectAPI && strings.Contains(e.Name, "/") {
			return true
		}
	}
	return false
}

// containsFoldAny reports whether s holds one of the lower-case words, in
// any case, without copying s.
func containsFoldAny(s string, words ...string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		for _, w := range words {
			if c == w[0] && len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}
