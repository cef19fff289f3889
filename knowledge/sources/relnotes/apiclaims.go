package relnotes

import (
	"regexp"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// The API claims of a release-note entry: what its text says happened, in
// the entry's release, to an API group/version or to some kinds of it. The
// rules, drawn from the notes of 1.25 to 1.36 and checked entry by entry
// against them (apiclaims_test.go), read one sentence at a time, and only
// sentences shaped like these:
//
//   - removed: "The G/V API version of A and B is no longer served [in
//     v1.N]", "G/V API is dropped [and replaced with G/V2]", "G/V was
//     replaced with G/V2", "Removed [support for] [the] G/V [A] API",
//     "Removed support for V version of A and B API kinds", "Removed the A
//     resource from the G/V API [in v1.N]", "G/V now only contains A" with
//     "all other types got removed" (all kinds but A);
//   - deprecated: "The G/V API [of A] is deprecated", "The v1 A API is now
//     officially deprecated", "Deprecated the G/V API", and "G/V will no
//     longer be served in v1.M" or "will be removed in v1.M" for a later
//     release M;
//   - introduced: "Introduced [the] G/V/A API type", "Introduced G/V A and
//     B API", "Added the A V API", "Added a new alpha API: A (G/V)", "Added
//     a A API (in the G/V API group)", "The [G/V] A API is promoted to /
//     moving to G/V2", "Promoted API A and B to G/V", "G/V.A was renamed to
//     G/V2.B".
//
// A sentence opens with the verb or the subject (after an optional
// "component:" or "ACTION REQUIRED:" label); a second verb may follow
// "and". A match must end its clause (a stop, a comma, or a word such as
// "and", "in", "from"), so "removed the v1beta1 field X" or "the v1alpha2
// kubelet gRPC API" are not read. The rules make no claim:
//
//   - when the sentence before the match, the match or the rest of its
//     clause names a client, a tool or test machinery (kubectl, client-go,
//     kubeadm, kubelet, gRPC, CRI, a plugin, a fixture, e2e, the scheme, a
//     conversion, OpenAPI, the storage version) or is a revert: "Dropped
//     support for policy/v1beta1 PodDisruptionBudget in kubectl" is
//     kubectl's change, not the API server's;
//   - for a removal in another release than the entry's ("removed in
//     v1.28" in the notes of 1.29), or for a future one without its
//     release ("will no longer be served");
//   - for component configuration APIs (a group *.config.k8s.io, kubeadm's
//     groups), which are read from files, never served; a version alone is
//     not read in an entry that names such a group, kubeadm or a component
//     config;
//   - for a version alone with no kinds ("kubeadm: removed the v1beta2
//     API"): nothing tells its group. Such a claim takes the kinds of the
//     sentence's other claims when they all name the same kinds and the
//     sentence names no other ("Added the A v1beta1 API and removed the
//     v1alpha1 API");
//   - for an introduction that names no kind.
//
// A removal or deprecation takes as ReplacedBy the version the entry says
// to use ("use the G/V2 API version, available since v1.29", "Use v1beta2
// instead"), of the same group (a version alone is read in the claim's
// group), and Since from "available since". A deprecation takes as
// ReplacedByKind another kind the entry says to use without a version
// ("use the EndpointSlice API instead"), and Kept when it says the API
// will not be removed.
//
// A group written short ("coordination.v1alpha1", "networking/v1beta1") is
// written in full from the list of built-in groups; the claims hold no
// text.

// shortGroups maps the short names of built-in API groups the notes write
// ("coordination.v1alpha1") to the groups' names.
var shortGroups = map[string]string{
	"admissionregistration": "admissionregistration.k8s.io",
	"apidiscovery":          "apidiscovery.k8s.io",
	"apiextensions":         "apiextensions.k8s.io",
	"apiregistration":       "apiregistration.k8s.io",
	"authentication":        "authentication.k8s.io",
	"authorization":         "authorization.k8s.io",
	"certificates":          "certificates.k8s.io",
	"coordination":          "coordination.k8s.io",
	"discovery":             "discovery.k8s.io",
	"events":                "events.k8s.io",
	"flowcontrol":           "flowcontrol.apiserver.k8s.io",
	"networking":            "networking.k8s.io",
	"node":                  "node.k8s.io",
	"rbac":                  "rbac.authorization.k8s.io",
	"resource":              "resource.k8s.io",
	"scheduling":            "scheduling.k8s.io",
	"storage":               "storage.k8s.io",
	"storagemigration":      "storagemigration.k8s.io",
}

// The pieces of the rules' expressions.
const (
	bq = "`?" // an optional backtick
	// gvFullX is a group and version: resource.k8s.io/v1alpha3, batch/v1.
	gvFullX = `[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*/v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?`
	// gvDotX is a short group and version joined by a dot: coordination.v1alpha1.
	gvDotX = `(?:admissionregistration|authentication|certificates|coordination|discovery|flowcontrol|networking|resource|scheduling|storage|storagemigration)\.v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?`
	// gvPreX is a pre-release version alone: v1alpha1, v2beta2.
	gvPreX = `v[1-9][0-9]*(?:alpha|beta)[1-9][0-9]*`
	// gvX is any of them, in backticks or not.
	gvX = bq + `\b(?:` + gvFullX + `|` + gvDotX + `|` + gvPreX + `)\b` + bq
	// gvGAX is a GA version alone, read only before kinds: "the v1 Endpoints API".
	gvGAX = `\bv[1-9][0-9]?\b`
	// kindX is a kind: Workload, `FlowSchema`, CSIStorageCapacity (a
	// capital, and two small letters in a row somewhere: APIs, CRDs are
	// no kinds).
	kindWordX = `[A-Z][A-Za-z0-9]*[a-z]{2}[A-Za-z0-9]*`
	kindX     = bq + `\b` + kindWordX + `\b` + bq
	kindsX    = kindX + `(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)` + kindX + `)*`
	// relX is a release: v1.32, `v1.35`, 1.36.
	relX = bq + `v?(?P<rel>1\.[0-9]{1,2})\b` + bq
	// openX starts a sentence (or what follows "and"): an optional label
	// ("DRA API:", "ACTION REQUIRED:", "kube-apiserver:").
	openX = `^(?:[\w./\[\] -]{1,40}:\s*)?(?i:action[- ]required:?\s*)?`
	// apiWordX is what follows a group/version: API, API version, APIs.
	apiWordX = `(?i:API\s+versions?|API\s+groups?|API\s+kinds?|API\s+types?|APIs|API)`
	// subjectX is a group/version, with or without kinds, as a sentence's
	// subject: "The G/V API version of A and B", "The G/V A and B APIs",
	// "The v1 Endpoints API".
	subjectX = openX + `(?i:the\s+)?(?:(?P<gv>` + gvX + `)(?:\s+(?P<kinds>` + kindsX + `))?|(?P<gv>` + gvGAX + `)\s+(?P<kinds>` + kindsX + `))` +
		`(?:\s+` + apiWordX + `)?(?:\s+(?i:of)\s+(?i:the\s+)?(?P<kinds>` + kindsX + `)(?:\s+` + apiWordX + `|\s+(?i:kinds?|resources?))?)?`
	// endX ends a match: the clause goes on no further, or only with a
	// release, a place or another clause.
	endX = `(?P<end>\s*[.;,:!()]|\s*$|\s+(?i:and|but|because|since|as|in|from|with|before|after|to|which|so|if|on)\b)`
)

// apiRule is one shape of sentence and the action it states. The
// expressions name their parts: gv (what the claim is of), kinds, except,
// rel (the release the sentence names), to (the version it moves to or is
// replaced by), gv0 and kinds0 (parts read but not claimed); end is where
// the clause goes on.
type apiRule struct {
	action knowledge.APIAction
	re     func() *regexp.Regexp
	// future: the sentence speaks of a later release; it is a
	// deprecation when it names one after the entry's, a removal when it
	// names the entry's, and nothing without one.
	future bool
	// introduce: the claim is of the version the sentence moves to (to),
	// not of its subject.
	introduce bool
	// exceptAll: the claim is of every kind but those named (except), and
	// holds only if the entry says the others were removed.
	exceptAll bool
	// words are the rule's own words, in lower case: a sentence holding
	// none of them is not matched (most are not, and the test is cheap).
	words []string
	// andToo: the rule opens with its verb, which may also follow "and"
	// ("Added A and removed B"); it is tried there too. Every rule is
	// anchored at where it is tried, which keeps it cheap.
	andToo bool
	// subject: the rule opens with a group/version, the sentence's subject.
	subject bool
}

var apiRules = []apiRule{
	// The G/V API version of A and B is no longer served [in v1.N].
	// coordination.v1alpha1 API is dropped [and replaced with G/V2].
	{
		action: knowledge.APIRemoved, subject: true, words: []string{"no longer", "removed", "dropped"},
		re: lazyre.New(subjectX + `\s+(?i:is|are|was|were|has\s+been|have\s+been|got)\s+(?i:now\s+)?` +
			`(?i:no\s+longer\s+served|no\s+longer\s+supported|removed|dropped)(?:\s+(?i:in|as\s+of)\s+` + relX + `)?` +
			`(?:\s+(?i:and\s+replaced\s+(?:with|by))\s+(?P<to>` + gvX + `))?` + endX),
	},
	// G/V was replaced with G/V2.
	{
		action: knowledge.APIRemoved, subject: true, words: []string{"replaced"},
		re: lazyre.New(subjectX + `\s+(?i:was|were|has\s+been|have\s+been)\s+(?i:replaced\s+(?:with|by))\s+(?P<to>` + gvX + `)` + endX),
	},
	// G/V will no longer be served in v1.N.
	{
		action: knowledge.APIRemoved, future: true, subject: true, words: []string{"will"},
		re: lazyre.New(subjectX + `\s+(?i:will\s+(?:no\s+longer\s+be\s+served|be\s+removed|stop\s+being\s+served))` +
			`(?:\s+(?i:in|as\s+of|from|starting\s+(?:in|with))\s+` + relX + `)?` + endX),
	},
	// The G/V API is deprecated. The v1 Endpoints API is now officially deprecated.
	{
		action: knowledge.APIDeprecated, subject: true, words: []string{"deprecated"},
		re: lazyre.New(subjectX + `\s+(?i:is|are|was|were|has\s+been|have\s+been)\s+(?i:now\s+)?(?i:officially\s+)?(?i:deprecated)` + endX),
	},
	// Removed [support for] [the] [deprecated] G/V [A] API [of A and B API kinds] [in v1.N].
	{
		action: knowledge.APIRemoved, andToo: true, words: []string{"remov", "drop"},
		re: lazyre.New(openX + `(?i:removed|dropped|removes|drops)\s+(?i:(?:all\s+)?support\s+for\s+)?(?i:the\s+)?(?i:deprecated\s+)?` +
			`(?P<gv>` + gvX + `)(?:\s+(?P<kinds>` + kindsX + `))?(?:\s+` + apiWordX + `|\s+(?i:versions?))?` +
			`(?:\s+(?i:of)\s+(?i:the\s+)?(?P<kinds>` + kindsX + `)(?:\s+` + apiWordX + `|\s+(?i:kinds?|resources?))?)?` +
			`(?:\s+(?i:in)\s+` + relX + `)?` + endX),
	},
	// Removed the A resource from the G/V API [in v1.N].
	{
		action: knowledge.APIRemoved, andToo: true, words: []string{"remov", "drop"},
		re: lazyre.New(openX + `(?i:removed|dropped|removes|drops)\s+(?i:the\s+)?(?P<kinds>` + kindsX + `)\s+(?i:resources?|kinds?|types?|APIs?)\s+` +
			`(?i:from)\s+(?i:the\s+)?(?P<gv>` + gvX + `)(?:\s+` + apiWordX + `)?(?:\s+(?i:in)\s+` + relX + `)?` + endX),
	},
	// G/V now only contains A. (All other types got removed.)
	{
		action: knowledge.APIRemoved, exceptAll: true, subject: true, words: []string{"contains"},
		re: lazyre.New(openX + `(?i:the\s+)?(?P<gv>` + gvX + `)(?:\s+` + apiWordX + `)?\s+(?i:now\s+)?(?i:only\s+contains|contains\s+only)\s+` +
			`(?i:the\s+)?(?P<except>` + kindsX + `)` + endX),
	},
	// Deprecated the G/V [A] API [of A and B].
	{
		action: knowledge.APIDeprecated, andToo: true, words: []string{"deprecate"},
		re: lazyre.New(openX + `(?i:deprecated|deprecates)\s+(?i:the\s+)?(?P<gv>` + gvX + `)(?:\s+(?P<kinds>` + kindsX + `))?(?:\s+` + apiWordX + `)?` +
			`(?:\s+(?i:of)\s+(?i:the\s+)?(?P<kinds>` + kindsX + `))?` + endX),
	},
	// Introduced [the] [API type] G/V/A [API type]. Introduced [the] G/V A and B API.
	{
		action: knowledge.APIIntroduced, andToo: true, words: []string{"introduc", "add"},
		re: lazyre.New(openX + `(?i:introduced|introduces|added|adds)\s+(?i:the\s+|an?\s+)?(?i:new\s+)?(?i:API\s+type\s+)?` +
			`(?:` + bq + `(?P<gv>` + gvFullX + `)/(?P<kinds>` + kindWordX + `)` + bq + `(?:\s+` + apiWordX + `|\s+(?i:types?|kinds?))?` +
			`|(?P<gv>` + gvX + `)\s+(?P<kinds>` + kindsX + `)(?:\s+` + apiWordX + `|\s+(?i:types?|kinds?)))` + endX),
	},
	// Added the A V API.
	{
		action: knowledge.APIIntroduced, andToo: true, words: []string{"introduc", "add"},
		re: lazyre.New(openX + `(?i:introduced|introduces|added|adds)\s+(?i:the\s+|an?\s+)?(?i:new\s+)?(?P<kinds>` + kindsX + `)\s+(?P<gv>` + gvX + `)\s+` +
			apiWordX + endX),
	},
	// Added a new alpha API: A (G/V). Added a A API (in the G/V API group).
	{
		action: knowledge.APIIntroduced, andToo: true, words: []string{"introduc", "add"},
		re: lazyre.New(openX + `(?i:introduced|introduces|added|adds)\s+(?i:the\s+|an?\s+)?(?i:new\s+)?(?i:(?:alpha|beta)\s+)?` +
			`(?:(?i:API):\s+(?P<kinds>` + kindsX + `)|(?P<kinds>` + kindsX + `)\s+(?i:API))\s+\((?i:in\s+)?(?i:the\s+)?` +
			bq + `(?P<gv>` + gvFullX + `)` + bq + `(?:\s+` + apiWordX + `)?(?P<end>[)\s])`),
	},
	// The [G/V] A API is promoted to / moving to G/V2.
	{
		action: knowledge.APIIntroduced, introduce: true, words: []string{"promoted", "moving", "moved", "graduated"},
		re: lazyre.New(openX + `(?i:the\s+)?(?:(?P<gv0>` + gvX + `)\s+)?(?P<kinds>` + kindsX + `)\s+` + apiWordX +
			`\s+(?i:is|are|has\s+been|have\s+been|was|were)\s+(?i:now\s+)?(?i:promoted|moving|moved|graduated)\s+(?i:to)\s+(?P<to>` + gvX + `)` + endX),
	},
	// Promoted API [groups] A and B to G/V. Graduated the A API to G/V.
	{
		action: knowledge.APIIntroduced, introduce: true, andToo: true, words: []string{"promoted", "graduated"},
		re: lazyre.New(openX + `(?i:promoted|graduated)\s+(?i:the\s+)?(?:` + apiWordX + `\s+(?P<kinds>` + kindsX + `)|(?P<kinds>` + kindsX + `)\s+` + apiWordX + `)` +
			`\s+(?i:to)\s+(?P<to>` + gvX + `)` + endX),
	},
	// G/V.A was renamed to G/V2.B.
	{
		action: knowledge.APIIntroduced, introduce: true, words: []string{"renamed"},
		re: lazyre.New(openX + bq + `(?P<gv0>` + gvFullX + `)\.(?P<kinds0>` + kindWordX + `)` + bq + `\s+(?i:was|has\s+been)\s+(?i:renamed)\s+(?i:to)\s+` +
			bq + `(?P<to>` + gvFullX + `)\.(?P<kinds>` + kindWordX + `)` + bq + endX),
	},
}

var (
	// apiClauseEndRe ends the clause a match stands in.
	apiClauseEndRe = lazyre.New(`(?i)[.;,!?](?:\s|$)|\n|\s(?:and|but)\s`)
	// notServerRe names what is not the API server: clients, tools, tests,
	// internals, reverts.
	notServerRe = lazyre.New(`(?i)\b(?:kubectl|client-go|clients?|kubeadm|kubelet|kubeletplugin|grpc|cri|plugins?|fixtures?|e2e|tests?|testing|scheme|conversions?|code-generator|kube-openapi|openapi|storage\s+version|reverts?|reverted|reverting)\b`)
	// configRe names component configuration: a file's API, not a served one.
	configRe = lazyre.New(`(?i)\.config\.k8s\.io\b|\bkubeadm\b|\bcomponent\s*config|\bconfiguration\s+files?\b`)
	// othersRemovedRe says the kinds a version no longer contains were removed.
	othersRemovedRe = lazyre.New(`(?i)\b(?:all\s+)?other\s+(?:types|kinds|resources|APIs)\s+(?:got|were|have\s+been|are|was)\s+(?:now\s+)?removed\b`)
	// useRe names the version to use instead.
	useRe = lazyre.New(`(?i:\buse\s+(?:the\s+)?)` + bq + `(?P<to>\b(?:` + gvFullX + `|` + gvDotX + `|v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?)\b)` + bq +
		`(?:\s+` + apiWordX + `)?(?:,?\s+(?i:available\s+since)\s+` + relX + `|\s+(?i:instead)\b)?`)
	// keptRe says a deprecated API stays: "The API will not be removed".
	keptRe = lazyre.New(`(?i)\b(?:will\s+not|won't|is\s+not\s+going\s+to)\s+be\s+removed\b|\bno\s+plans?\s+to\s+remove\b`)
	// useKindRe names another kind to use instead: "use the EndpointSlice
	// API instead".
	useKindRe = lazyre.New(`(?i:\buse\s+(?:the\s+)?)` + bq + `(` + kindWordX + `)` + bq + `\s+(?i:API|APIs|resource|kind)\b(?:\s+(?i:instead))?`)
	// kindWordRe is a word that may be a kind: in backticks, or with two
	// capitals (a sentence's first word is not a kind).
	kindWordRe = lazyre.New("`" + kindWordX + "`" + `|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b`)
)

// kindStopWords are capitalised words that stand where a kind would but are not kinds.
var kindStopWords = map[string]bool{
	"The": true, "This": true, "That": true, "These": true, "Those": true, "All": true, "And": true,
	"Alpha": true, "Beta": true, "Stable": true, "Kubernetes": true, "Users": true, "Support": true,
}

// apiClaims reads the claims of one entry's text, of release v (see the
// rules above). The claims carry no PR or source; the caller sets them.
func apiClaims(v knowledge.Version, text string) []knowledge.APIClaim {
	if !mayNameAPIVersion(text) {
		return nil
	}
	t := unwrapQuotes(strings.TrimSpace(text))
	low := strings.ToLower(t)
	if !slices.ContainsFunc(apiRuleWords, func(w string) bool { return strings.Contains(low, w) }) ||
		strings.HasPrefix(strings.TrimLeft(low, "\"'`[(* "), "revert") {
		return nil
	}
	r := apiReader{release: v, text: t}
	for _, s := range sentences(t) {
		r.sentence(s)
	}
	return r.finish()
}

// apiRuleWords are the words of every rule: a text holding none states
// no claim.
var apiRuleWords = func() []string {
	var out []string
	for _, r := range apiRules {
		for _, w := range r.words {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}()

// mayNameAPIVersion reports, cheaply, whether text holds something shaped
// like an API version: "v1alpha1", "/v1", ".v1", or "v1 Kind". Most
// entries hold none (a release, "v1.32", is none) and cost no more.
func mayNameAPIVersion(text string) bool {
	for i := 0; i < len(text); i++ {
		k := strings.IndexByte(text[i:], 'v')
		if k < 0 {
			return false
		}
		i += k
		j := i + 1
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j == i+1 || text[i+1] == '0' {
			continue
		}
		rest := text[j:]
		var prev byte = ' '
		if i > 0 {
			prev = text[i-1]
		}
		switch {
		case strings.HasPrefix(rest, "alpha") || strings.HasPrefix(rest, "beta"):
			return true
		case prev == '/' || prev == '.':
			return true
		case !isWordByte(prev):
			rest = strings.TrimPrefix(rest, "`")
			if len(rest) > 1 && rest[0] == ' ' && rest[1] >= 'A' && rest[1] <= 'Z' {
				return true
			}
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

// sentences splits a text into its sentences and list items, each without
// a list's bullet: a sentence ends at a stop (. ; ! ?) before a space or
// the text's end, or at a new line.
func sentences(t string) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "-*•"))
		if s != "" {
			out = append(out, s)
		}
	}
	at := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\n':
			add(t[at:i])
			at = i + 1
		case '.', ';', '!', '?':
			if i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t' || t[i+1] == '\n' || t[i+1] == '\r' {
				add(t[at : i+1])
				at = i + 1
			}
		}
	}
	add(t[at:])
	return out
}

// apiReader gathers the claims of one entry.
type apiReader struct {
	release knowledge.Version
	text    string
	claims  []knowledge.APIClaim
}

// sentence reads the claims of one sentence.
func (r *apiReader) sentence(s string) {
	if !mayNameAPIVersion(s) {
		return
	}
	from := len(r.claims)
	low := strings.ToLower(s)
	for i := range apiRules {
		rule := &apiRules[i]
		if !slices.ContainsFunc(rule.words, func(w string) bool { return strings.Contains(low, w) }) {
			continue
		}
		re := rule.re()
		for _, at := range starts(s, rule.andToo) {
			if rule.andToo && !opensWith(s[at:], rule.words) || rule.subject && !opensWithVersion(s) {
				continue // the verb, or the version, opens what a rule matches
			}
			m := re.FindStringSubmatchIndex(s[at:])
			if m == nil {
				continue
			}
			parts := namedParts(re, s[at:], m)
			end := m[1]
			if e := re.SubexpIndex("end"); e >= 0 && m[2*e] >= 0 {
				end = m[2*e]
			}
			if notServer(s, at+end) {
				continue
			}
			if c, ok := r.claim(rule, parts); ok {
				r.claims = append(r.claims, c)
			}
		}
	}
	carryKinds(s, r.claims[from:])
}

// opensWith reports whether s opens with one of words (lower case),
// at its start or past a label ("DRA API:", "ACTION REQUIRED:").
func opensWith(s string, words []string) bool {
	opens := func(s string) bool {
		for _, w := range words {
			if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
				return true
			}
		}
		return false
	}
	return opens(s) || opens(pastLabel(s))
}

// opensWithVersion reports whether s, at its start or past a label, and
// past "The", opens with a word holding an API version: "`g/v1beta1`",
// "v1alpha1", "coordination.v1alpha1", "v1".
func opensWithVersion(s string) bool {
	return opensWithVersion1(s) || opensWithVersion1(pastLabel(s))
}

// pastLabel returns s past the label a sentence may open with, as openX
// reads it: up to 40 bytes and a colon ("DRA API:", "kube-apiserver:"),
// then "ACTION REQUIRED:"; "" when s opens with no label.
func pastLabel(s string) string {
	i := strings.IndexByte(s, ':')
	if i <= 0 || i > 41 {
		return ""
	}
	s = strings.TrimLeft(s[i+1:], " \t")
	if len(s) >= 15 && strings.EqualFold(s[:15], "action required") {
		s = strings.TrimLeft(strings.TrimPrefix(s[15:], ":"), " \t")
	}
	return s
}

func opensWithVersion1(s string) bool {
	if len(s) > 4 && strings.EqualFold(s[:4], "the ") {
		s = strings.TrimLeft(s[4:], " \t")
	}
	word, _, _ := strings.Cut(strings.TrimLeft(s, "`"), " ")
	word, _, _ = strings.Cut(word, "`")
	if len(word) >= 2 && word[0] == 'v' && word[1] >= '1' && word[1] <= '9' && strings.Trim(word[1:], "0123456789") == "" {
		return true // v1, before a kind
	}
	return mayNameAPIVersion(word)
}

// starts returns where a rule is tried in s: its start, and after each
// "and " when andToo.
func starts(s string, andToo bool) []int {
	out := []int{0}
	if !andToo {
		return out
	}
	for i := 0; ; {
		k := strings.Index(s[i:], "and ")
		if k < 0 {
			return out
		}
		i += k + len("and ")
		if j := i - len("and "); j == 0 || !isWordByte(s[j-1]) {
			for i < len(s) && s[i] == ' ' {
				i++
			}
			out = append(out, i)
		}
	}
}

// carryKinds gives a version alone that names no kinds ("and removed the
// v1alpha1 API") the kinds the sentence's other claims name, when they
// all name the same and the sentence names no other kind.
func carryKinds(s string, cs []knowledge.APIClaim) {
	var shared []string
	for _, c := range cs {
		switch {
		case len(c.Kinds) == 0:
		case shared == nil:
			shared = c.Kinds
		case !slices.Equal(shared, c.Kinds):
			return
		}
	}
	if shared == nil {
		return
	}
	for _, w := range kindWordRe().FindAllString(s, -1) {
		if !slices.Contains(shared, strings.Trim(w, "`")) {
			return
		}
	}
	for i := range cs {
		if len(cs[i].Kinds) == 0 && len(cs[i].Except) == 0 && !strings.Contains(cs[i].GroupVersion, "/") {
			cs[i].Kinds = shared
		}
	}
}

// notServer reports whether a sentence up to the end of a match, or the
// rest of the match's clause, speaks of something other than the API
// server.
func notServer(s string, end int) bool {
	tail := s[end:]
	if m := apiClauseEndRe().FindStringIndex(tail); m != nil {
		tail = tail[:m[0]]
	}
	low := strings.ToLower(s[:end] + " " + tail)
	if !slices.ContainsFunc(notServerWords, func(w string) bool { return strings.Contains(low, w) }) {
		return false
	}
	return notServerRe().MatchString(s[:end]) || notServerRe().MatchString(tail)
}

// notServerWords are the words notServerRe needs, one at least.
var notServerWords = []string{"kubectl", "client", "kubeadm", "kubelet", "grpc", "cri", "plugin", "fixture", "e2e",
	"test", "scheme", "conversion", "code-generator", "openapi", "storage", "revert"}

// namedParts returns the text of each named group of a match: the first
// that matched, for names used more than once.
func namedParts(re *regexp.Regexp, s string, m []int) map[string]string {
	out := map[string]string{}
	for i, name := range re.SubexpNames() {
		if name == "" || out[name] != "" || m[2*i] < 0 {
			continue
		}
		out[name] = s[m[2*i]:m[2*i+1]]
	}
	return out
}

// claim makes the claim a rule's match states, or false when it states none.
func (r *apiReader) claim(rule *apiRule, p map[string]string) (knowledge.APIClaim, bool) {
	c := knowledge.APIClaim{Action: rule.action, Release: r.release}
	gv := p["gv"]
	if rule.introduce {
		gv = p["to"]
	} else if p["to"] != "" {
		c.ReplacedBy = normGV(p["to"])
	}
	c.GroupVersion = normGV(gv)
	if c.GroupVersion == "" {
		return c, false
	}
	var ok bool
	if c.Kinds, ok = kindList(p["kinds"]); !ok {
		return c, false
	}
	if c.Except, ok = kindList(p["except"]); !ok {
		return c, false
	}
	if rule.exceptAll && (len(c.Except) == 0 || !othersRemovedRe().MatchString(r.text)) {
		return c, false
	}
	if rel := p["rel"]; rel != "" || rule.future {
		named, err := knowledge.ParseVersion(rel)
		switch {
		case rel == "" || err != nil:
			return c, false // a future without a release, or an unreadable one
		case named == r.release:
			c.Action = knowledge.APIRemoved
		case rule.future && r.release.Less(named):
			c.Action = knowledge.APIDeprecated
		default:
			return c, false // a removal of another release
		}
	}
	if isConfigGroup(c.GroupVersion) {
		return c, false
	}
	return c, true
}

// finish completes the entry's claims: a version alone with no kinds goes,
// replacements are found, claims saying the same are joined.
func (r *apiReader) finish() []knowledge.APIClaim {
	var out []knowledge.APIClaim
	for _, c := range r.claims {
		alone := !strings.Contains(c.GroupVersion, "/")
		if len(c.Kinds) == 0 && (alone || c.Action == knowledge.APIIntroduced) || alone && configRe().MatchString(r.text) {
			continue
		}
		if c.Action != knowledge.APIIntroduced && c.ReplacedBy == "" {
			c.ReplacedBy, c.Since = r.replacement(c.GroupVersion)
		}
		if c.ReplacedBy != "" && !sameGroup(c.GroupVersion, c.ReplacedBy) {
			c.ReplacedBy, c.Since = "", knowledge.Version{}
		}
		if c.Action == knowledge.APIDeprecated {
			c.Kept = keptRe().MatchString(r.text)
			if c.ReplacedBy == "" {
				c.ReplacedByKind = r.replacementKind(c.Kinds)
			}
		}
		out = joinClaim(out, c)
	}
	return out
}

// replacement finds the version the entry says to use instead of gv, in
// gv's group, and the release it says that is available since.
func (r *apiReader) replacement(gv string) (string, knowledge.Version) {
	group, _, _ := strings.Cut(gv, "/")
	if !strings.Contains(gv, "/") || !containsFold(r.text, "use ") {
		return "", knowledge.Version{}
	}
	re := useRe()
	to, rel := re.SubexpIndex("to"), re.SubexpIndex("rel")
	for _, m := range re.FindAllStringSubmatchIndex(r.text, -1) {
		if after := r.text[m[2*to+1]:]; len(after) > 1 && after[0] == '.' && after[1] >= '0' && after[1] <= '9' {
			continue // a release, v1.32, not a version
		}
		rep := normGV(r.text[m[2*to]:m[2*to+1]])
		if !strings.Contains(rep, "/") {
			rep = group + "/" + rep
		}
		if rep == gv || !sameGroup(gv, rep) {
			continue
		}
		var since knowledge.Version
		if m[2*rel] >= 0 {
			since, _ = knowledge.ParseVersion(r.text[m[2*rel]:m[2*rel+1]])
		}
		return rep, since
	}
	return "", knowledge.Version{}
}

// replacementKind is the kind the entry says to use instead of kinds,
// named without a version ("use the EndpointSlice API instead"); "" when
// it names none, or one of kinds.
func (r *apiReader) replacementKind(kinds []string) string {
	m := useKindRe().FindStringSubmatch(r.text)
	if m == nil || slices.Contains(kinds, m[1]) || kindStopWords[m[1]] {
		return ""
	}
	return m[1]
}

// joinClaim adds c to cs unless a claim of the same action, version and
// kinds is there; that one then takes what c adds.
func joinClaim(cs []knowledge.APIClaim, c knowledge.APIClaim) []knowledge.APIClaim {
	for i := range cs {
		o := &cs[i]
		if o.Action == c.Action && o.GroupVersion == c.GroupVersion && slices.Equal(o.Kinds, c.Kinds) && slices.Equal(o.Except, c.Except) {
			if o.ReplacedBy == "" {
				o.ReplacedBy, o.Since = c.ReplacedBy, c.Since
			}
			return cs
		}
	}
	return append(cs, c)
}

// normGV writes a group/version without backticks, its group in full:
// "coordination.v1alpha1" and "coordination/v1alpha1" are
// "coordination.k8s.io/v1alpha1".
func normGV(s string) string {
	s = strings.Trim(s, "`")
	if s == "" {
		return ""
	}
	if i := strings.Index(s, ".v"); i > 0 && !strings.Contains(s, "/") {
		if full, ok := shortGroups[s[:i]]; ok {
			return full + "/" + s[i+1:]
		}
	}
	if g, v, ok := strings.Cut(s, "/"); ok {
		if full, short := shortGroups[g]; short {
			return full + "/" + v
		}
	}
	return s
}

// kindList reads "`A`, B and C" into kinds, without list kinds whose item
// kind is there (AList beside A); false when a word is not a kind.
func kindList(s string) ([]string, bool) {
	if s == "" {
		return nil, true
	}
	var out []string
	for _, k := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		k = strings.Trim(k, "`")
		if k == "" || k == "and" {
			continue
		}
		if kindStopWords[k] {
			return nil, false
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	var kinds []string
	for _, k := range out {
		if base, ok := strings.CutSuffix(k, "List"); ok && slices.Contains(out, base) {
			continue
		}
		kinds = append(kinds, k)
	}
	return kinds, len(kinds) > 0
}

// isConfigGroup reports whether gv is of a component configuration group.
func isConfigGroup(gv string) bool {
	group, _, ok := strings.Cut(gv, "/")
	return ok && (strings.HasSuffix(group, ".config.k8s.io") || group == "config.k8s.io" || strings.Contains(group, "kubeadm"))
}

// sameGroup reports whether two group/versions are of one group.
func sameGroup(a, b string) bool {
	ga, _, _ := strings.Cut(a, "/")
	gb, _, _ := strings.Cut(b, "/")
	return ga == gb
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}

// changeClaims returns the API claims of the changes' texts, in their
// order, each with its change's release, PR and source.
func changeClaims(changes []knowledge.Change) []knowledge.APIClaim {
	var out []knowledge.APIClaim
	for i := range changes {
		ch := &changes[i]
		for _, c := range apiClaims(ch.Release, ch.Text) {
			c.PR, c.Source = ch.PR, ch.Source
			out = append(out, c)
		}
	}
	return out
}
