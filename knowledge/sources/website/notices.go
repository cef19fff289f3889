package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"regexp"
	"strings"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// noticeHeadingRe marks a heading (or a list label such as "Removals:") that
// announces deprecations, removals or upgrade actions.
var noticeHeadingRe = lazyre.New(`(?i)deprecat|\bremovals?\b|\bremoved\b|\bwithdraw|upgrade action|action required`)

var (
	removalHeadingRe     = lazyre.New(`(?i)\b(?:removals?|removed|removing|removes?|withdrawal|withdrawn)\b`)
	deprecationHeadingRe = lazyre.New(`(?i)\b(?:deprecations?|deprecating|deprecates?)\b|\b(?:is|are|now|been)\s+deprecated\b`)
	upgradeHeadingRe     = lazyre.New(`(?i)\bupgrade action|action required|before upgrading`)

	removalBodyRe = lazyre.New(`(?i)\b(?:has|have)\s+(?:now\s+)?been\s+(?:completely\s+|fully\s+)?removed\b` +
		`|\bwas\s+removed\b|\bwill\s+remove\b|\bremoves\b|\bwill\s+be\s+removed\b` +
		`|\bno\s+longer\s+(?:be\s+)?served\b|\bstop(?:s|ped)?\s+serving\b`)
	// laterRe follows "will be removed" in a deprecation: "in a future release".
	laterRe           = lazyre.New(`(?i)^\s+in\s+(?:a\s+)?(?:future|later)\b`)
	deprecationBodyRe = lazyre.New(`(?i)\bdeprecat`)
	upgradeBodyRe     = lazyre.New(`(?i)\bbefore\s+(?:you\s+)?upgrad|\baction\s+required\b|\byou\s+must\b`)
)

// noticeKind decides what a notice warns of: the heading's words first,
// then an upgrade-actions section, then the body's words, then what the
// section it sits in announces, else a deprecation.
func noticeKind(heading, context, body string) knowledge.NoticeKind {
	switch {
	case has(removalHeadingRe(), heading, "remov", "withdraw"):
		return knowledge.NoticeRemoval
	case has(deprecationHeadingRe(), heading, "deprecat"):
		return knowledge.NoticeDeprecation
	case has(upgradeHeadingRe(), heading, "upgrad", "action") || has(upgradeHeadingRe(), context, "upgrad", "action"):
		return knowledge.NoticeUpgrade
	case saysRemoved(body):
		return knowledge.NoticeRemoval
	case has(deprecationBodyRe(), body, "deprecat"):
		return knowledge.NoticeDeprecation
	case has(upgradeBodyRe(), body, "upgrad", "action", "must"):
		return knowledge.NoticeUpgrade
	case has(removalHeadingRe(), context, "remov", "withdraw") && !has(deprecationHeadingRe(), context, "deprecat"):
		return knowledge.NoticeRemoval
	}
	return knowledge.NoticeDeprecation
}

// has runs re on s only when s holds one of the lower-case hints (the
// literal words re needs): most texts hold none, and the test is cheap.
func has(re *regexp.Regexp, s string, hints ...string) bool {
	for _, h := range hints {
		if containsFold(s, h) {
			return re.MatchString(s)
		}
	}
	return false
}

// saysRemoved reports whether a body says something is or will be removed
// now: "will be removed in a future release" is a deprecation's promise.
func saysRemoved(body string) bool {
	if !containsFold(body, "remov") && !containsFold(body, "serv") {
		return false
	}
	for _, m := range removalBodyRe().FindAllStringIndex(body, -1) {
		if !laterRe().MatchString(body[m[1]:]) {
			return true
		}
	}
	return false
}

// gvRe matches an API group/version: "flowcontrol.apiserver.k8s.io/v1beta3",
// "batch/v1beta1", "extensions/v1beta1".
var gvRe = lazyre.New(`\b([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\b`)

var (
	// "The G/V API version of A and B is no longer served", also with
	// several versions before "API versions of".
	apiOfRe = lazyre.New(`(?i)\bAPI\s+versions?\s+of\s+(.+?)\s+(?:is|are|was|were|will|has|have)\b`)
	// "Kind in the G/V API version is no longer served".
	kindInRe = lazyre.New(`\b([A-Z][A-Za-z]+)\s+in\s+the\s+([a-z][a-z0-9.-]*/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\s+API\s+version`)
	// "Removal of G/V from Kind".
	fromKindRe = lazyre.New(`(?i)\bremoval\s+of\s+([a-z][a-z0-9.-]*/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\s+from\s+([A-Z][A-Za-z]+)\b`)
	// "use the G/V API version" names the replacement.
	useRe    = lazyre.New(`(?i)\buse\s+the\s+([a-z][a-z0-9.-]*/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\b`)
	kindRe   = lazyre.New(`^[A-Z][A-Za-z]+$`)
	kindSepR = lazyre.New(`\s*,\s*(?:and\s+)?|\s+and\s+`)
)

// apiRemovals reads the API versions a text says stop being served, with
// the kinds they serve and the version to use instead. It returns nil when
// the text names no such removal.
func apiRemovals(text string) []knowledge.APIChange {
	var out []knowledge.APIChange
	var kinds []string
	var gvs []string
	for _, s := range sentences(text) {
		if !strings.Contains(s, "/v") {
			continue // names no group/version
		}
		if m := apiOfRe().FindStringSubmatchIndex(s); m != nil {
			kinds = splitKinds(s[m[2]:m[3]])
			gvs = gvRe().FindAllString(s[:m[0]], -1)
		} else if m := kindInRe().FindStringSubmatch(s); m != nil {
			kinds, gvs = []string{m[1]}, []string{m[2]}
		} else if m := fromKindRe().FindStringSubmatch(s); m != nil {
			kinds, gvs = []string{m[2]}, []string{m[1]}
		}
		if len(kinds) > 0 && len(gvs) > 0 {
			break
		}
	}
	if len(kinds) == 0 || len(gvs) == 0 {
		return nil
	}
	replaced := ""
	if !containsFold(text, "use the") {
		text = ""
	}
	removed := map[string]bool{}
	for _, gv := range gvs {
		removed[gv] = true
	}
	for _, m := range useRe().FindAllStringSubmatch(text, -1) {
		if !removed[m[1]] {
			replaced = m[1]
			break
		}
	}
	seen := map[string]bool{}
	for _, gv := range gvs {
		if seen[gv] {
			continue
		}
		seen[gv] = true
		out = append(out, knowledge.APIChange{GroupVersion: gv, Kinds: kinds, ReplacedBy: replaced})
	}
	return out
}

// splitKinds reads "A, B, and C" into kinds, or nil if any is not a kind name.
func splitKinds(s string) []string {
	var out []string
	for _, k := range kindSepR().Split(strings.TrimSpace(s), -1) {
		k = strings.TrimSpace(strings.TrimPrefix(k, "and "))
		if k == "" {
			continue
		}
		if !kindRe().MatchString(k) {
			return nil
		}
		out = append(out, k)
	}
	return out
}

// apiTitle names an API removal: "FlowSchema and PriorityLevelConfiguration
// (flowcontrol.apiserver.k8s.io/v1beta3)".
func apiTitle(a knowledge.APIChange) string {
	ks := a.Kinds
	var names string
	switch len(ks) {
	case 0:
		return a.GroupVersion
	case 1:
		names = ks[0]
	default:
		names = strings.Join(ks[:len(ks)-1], ", ") + " and " + ks[len(ks)-1]
	}
	return names + " (" + a.GroupVersion + ")"
}

// dedupeNotices keeps the first of notices of one kind and release whose
// titles read the same once markup and case are set aside.
func dedupeNotices(ns []knowledge.Notice) []knowledge.Notice {
	seen := map[string]bool{}
	var out []knowledge.Notice
	for _, n := range ns {
		key := string(n.Kind) + "|" + n.Release.String() + "|" + normTitle(n.Title)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, n)
	}
	return out
}

// normTitle lower-cases a title and keeps only its words.
func normTitle(t string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(plain(t)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	}), " ")
}
