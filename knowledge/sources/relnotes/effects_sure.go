package relnotes

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// A typed change is kept only when the entry's words give it with
// certainty: a summary written from it then names only what the note
// names, as the note writes it. Where the rules read a change they cannot
// be sure of, the change is dropped, and the entry's title quotes its
// first sentence instead (knowledge.ChangeTitle). An effect is sure when:
//
//   - its name is written in the text as the effect names it: a flag with
//     its dashes (`etcd` is no flag --etcd), a gate, field, metric,
//     annotation, variable or command letter for letter, an API's version
//     and each of its kinds (a group may be written short:
//     networking/v1beta1 is networking.k8s.io/v1beta1);
//   - a thing named only by words (no code name) has more than one of
//     them, and no code name stands right before them: "Legacy klog
//     flags" names no flag "klog", and "the `azureFile` in-tree storage
//     plugin" is not "the in-tree storage plugin";
//   - the words say what sort of thing it is where its shape does not: an
//     annotation beside "annotation" or "label" (an appProtocol value
//     written like a domain path is none), a feature gate beside "gate", a
//     field beside "field", a metric beside "metric" or named like one
//     (snake_case with two underscores at least);
//   - its owner ("of kube-proxy") and what replaces it are written in the
//     text;
//   - a graduation or a new default is of this release: a text that names
//     an earlier release ("promoted to beta in Kubernetes 1.25") may tell
//     a past step;
//   - a removal is of the thing itself, not of its use ("Removed usage of
//     the deprecated flags") or of some of an API's types ("now only
//     contains DeviceTaintRule. All other types got removed").
func sureEffects(v knowledge.Version, text string, es []knowledge.Effect) []knowledge.Effect {
	if len(es) == 0 {
		return es
	}
	t := text
	low := strings.ToLower(t)
	past := namesEarlierRelease(v, low)
	out := es[:0]
	for _, e := range es {
		if sureEffect(t, low, past, e) && !(e.Action == knowledge.EffectDeprecated && removes(es, e)) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sureEffect reports whether the text (low: in lower case) gives e with
// certainty (see sureEffects); past says the text names an earlier
// release.
func sureEffect(t, low string, past bool, e knowledge.Effect) bool {
	if e.What == knowledge.EffectEnhancement {
		return !past // a KEP the entry's links name, graduated in this release
	}
	if !writtenName(t, e) {
		return false
	}
	if e.Of != "" && !writtenOwner(low, e.Of) {
		return false
	}
	if e.Replacement != "" && !writtenAs(t, e.What, e.Replacement) && !writtenVersionOf(t, e) {
		return false
	}
	switch e.What {
	case knowledge.EffectAnnotation:
		if !strings.Contains(low, "annotation") && !strings.Contains(low, "label") {
			return false
		}
	case knowledge.EffectGate:
		if !strings.Contains(low, "gate") && !strings.Contains(low, "feature flag") {
			return false
		}
	case knowledge.EffectField:
		if !strings.Contains(low, "field") && !strings.Contains(t, "."+e.Name) && !fieldPathRe().MatchString(e.Name) {
			return false
		}
	case knowledge.EffectMetric:
		if !strings.Contains(low, "metric") && !metricPrefixRe().MatchString(e.Name) {
			return false // `container_engine_t`, an SELinux type
		}
	case knowledge.EffectFeature:
		if !strings.Contains(t, "`"+e.Name+"`") && camelBeside(t, e.Name) {
			return false // "Promoted DaemonSet MaxSurge to GA": one feature, not two
		}
	}
	switch e.Action {
	case knowledge.EffectGraduated, knowledge.EffectDefault:
		if past || e.What == knowledge.EffectFlag && strings.Contains(t, e.Name+"=") {
			return false // a value of the flag graduated ("--proxy-mode=nftables"), not the flag
		}
	case knowledge.EffectRemoved:
		if useRemovedRe().MatchString(t) || onOnePlatform(t, e.Name) {
			return false
		}
		if e.What == knowledge.EffectAPI && len(e.Kinds) == 0 && partRemovedRe().MatchString(t) {
			return false
		}
	case knowledge.EffectAdded:
		if !addedItself(t, e) {
			return false
		}
	}
	return true
}

// removes reports whether es removes the thing e is of: a deprecation an
// entry tells of a thing it removes is of an earlier release ("This flag
// was deprecated in 2017").
func removes(es []knowledge.Effect, e knowledge.Effect) bool {
	for _, o := range es {
		if o.Action == knowledge.EffectRemoved && o.What == e.What && strings.EqualFold(o.Name, e.Name) {
			return true
		}
	}
	return false
}

// addedItself reports whether the text adds the thing e names, not
// something for it: where its name first follows "Added" or
// "Introduced" in a sentence, no word between them says that what was
// added is support, a validation, metrics, an example or a function for
// it ("Added a validation for the `revisionHistoryLimit` field", "Added
// metrics for the `MaxUnavailable` feature"), and no word after it makes
// the name a qualifier ("`hostNetwork` field selector", "`kubectl node
// drain` helper callbacks"), adds it to a list (of allowed flags) or gives
// a flag a value ("--for=create").
func addedItself(t string, e knowledge.Effect) bool {
	name := e.Name
	switch {
	case e.What == knowledge.EffectField:
		name = strings.TrimPrefix(name, ".")
	case e.What == knowledge.EffectAPI && len(e.Kinds) > 0:
		name = e.Kinds[0] // "Added a `ResourceClaim` API (in the `resource.k8s.io/v1alpha1` API group"
	}
	at := strings.Index(t, name)
	if e.What == knowledge.EffectField {
		if i := strings.Index(t, "`."+name); i >= 0 {
			at = i + 2 // "`.includes`": the dot is the name's
		}
	}
	if at < 0 {
		return true // written otherwise (an API's group), checked by writtenName
	}
	after := t[at+len(name):]
	if e.What == knowledge.EffectFlag && strings.HasPrefix(after, "=") {
		return false
	}
	if qualifiedRe().MatchString(after) {
		return false
	}
	start := 0
	if ms := sentenceEndRe().FindAllStringIndex(t[:at], -1); len(ms) > 0 {
		start = ms[len(ms)-1][1]
	}
	before := strings.ToLower(t[start:at])
	m := addVerbRe().FindStringIndex(before)
	if m == nil {
		return true // the thing is the subject: "A new metric `x` was added"
	}
	between := before[m[1]:]
	if i := strings.LastIndexByte(between, ':'); i >= 0 {
		between = between[i+1:] // "Added metrics for X: `a`, `b`": a list
	}
	if e.What == knowledge.EffectMetric {
		between = strings.ReplaceAll(strings.ReplaceAll(between, "metrics", ""), "metric", "")
	}
	return !notItselfRe().MatchString(between)
}

// onOnePlatform reports whether the sentence that names name narrows
// what it says to one platform ("Dropped support for `X` feature in
// Windows"), not naming the other ("on either Linux or Windows").
func onOnePlatform(t, name string) bool {
	at := strings.Index(t, name)
	if at < 0 {
		at = 0
	}
	start := strings.LastIndexAny(t[:at], ".;\n") + 1
	end := len(t)
	if i := strings.IndexAny(t[at:], ".;\n"); i >= 0 {
		end = at + i
	}
	s := t[start:end]
	return platformRe().MatchString(s) && !strings.Contains(strings.ToLower(s), "linux")
}

// camelBeside reports whether the text writes name beside another name
// with a capital inside ("DaemonSet MaxSurge"): the two are likely one
// thing's name in words.
func camelBeside(t, name string) bool {
	at := strings.Index(t, name)
	if at < 0 {
		return false
	}
	before := strings.Fields(t[:at])
	after := strings.Fields(t[at+len(name):])
	return len(before) > 0 && knowledge.InnerCapital(before[len(before)-1]) || len(after) > 0 && knowledge.InnerCapital(after[0])
}

// writtenName reports whether the text writes e's name (and an API's
// kinds) as e names it; a thing named by words needs two of them at
// least, with no code name right before them.
func writtenName(t string, e knowledge.Effect) bool {
	if e.Name == "" {
		return e.Of != ""
	}
	if e.What == knowledge.EffectAPI {
		for _, k := range e.Kinds {
			if !containsWord(t, k) {
				return false
			}
		}
		return writtenAs(t, e.What, e.Name)
	}
	if e.What == knowledge.EffectFlag && strings.HasPrefix(e.Name, "-") {
		return writtenFlag(t, strings.ToLower(t), e.Name)
	}
	if named(e) {
		return strings.Contains(t, e.Name)
	}
	if e.What != knowledge.EffectComponent && !strings.Contains(e.Name, " ") {
		return false // "klog" of "Legacy klog flags": the words name flags, not a flag
	}
	plain := strings.ReplaceAll(t, "`", "")
	lowPlain := strings.ToLower(plain)
	for _, w := range strings.Fields(strings.ToLower(e.Name)) {
		if !containsWord(lowPlain, w) && !containsWord(lowPlain, w+"s") {
			return false
		}
	}
	// the words as written, in their order: is a code name right before
	// them, one the name leaves out?
	i := strings.Index(lowPlain, strings.ToLower(e.Name))
	if i < 0 {
		return true // a component named from words in another order ("admission plugin `X`")
	}
	before := strings.Fields(plain[:i])
	return len(before) == 0 || !codeWord(t, before[len(before)-1])
}

// codeWord reports whether the text writes w in backticks.
func codeWord(t, w string) bool {
	return strings.Contains(t, "`"+strings.Trim(w, ",;:()")+"`")
}

// named reports whether e's name is a code name (a flag with its dashes,
// a CamelCase, snake_case, dotted or slashed name, a command) rather than
// words describing the thing.
func named(e knowledge.Effect) bool {
	switch e.What {
	case knowledge.EffectFlag:
		return strings.HasPrefix(e.Name, "-")
	case knowledge.EffectComponent:
		return !strings.Contains(e.Name, " ")
	}
	return true
}

// writtenAs reports whether the text writes name, a thing of sort what:
// letter for letter, or for an API group/version its version with its
// group's first label ("networking/v1beta1" for networking.k8s.io/v1beta1).
func writtenAs(t string, what knowledge.EffectWhat, name string) bool {
	if strings.Contains(t, name) {
		return true
	}
	if what != knowledge.EffectAPI {
		return false
	}
	g, ver, ok := strings.Cut(name, "/")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(g, ".")
	return strings.Contains(t, first+"/"+ver) || strings.Contains(t, first+"."+ver)
}

// writtenVersionOf reports whether the text writes e's replacement, an
// API version of e's own group, by its version alone ("Use `v1beta2`
// instead").
func writtenVersionOf(t string, e knowledge.Effect) bool {
	if e.What != knowledge.EffectAPI {
		return false
	}
	g, _, _ := strings.Cut(e.Name, "/")
	rg, ver, ok := strings.Cut(e.Replacement, "/")
	return ok && rg == g && containsWord(t, ver)
}

// writtenFlag reports whether the text names the flag: with its dashes
// as the effect writes it, or in backticks without them where the text
// speaks of flags ("Removed flags `a`, `b`") and the name is not a word
// qualifying other flags ("the deprecated `etcd` flags `--x`").
func writtenFlag(t, low, name string) bool {
	if strings.Contains(t, name) {
		return true
	}
	bare := "`" + strings.TrimLeft(name, "-") + "`"
	if !strings.Contains(t, bare) || strings.Contains(t, bare+" flags `") {
		return false
	}
	return strings.Contains(low, "flag") || strings.Contains(low, "cli option") || strings.Contains(low, "command line option") || strings.Contains(low, "command-line option")
}

// ownerNames are the words a text may give an owner by: "API server" for
// kube-apiserver.
var ownerNames = map[string][]string{
	"kube-apiserver": {"api server", "apiserver", "api-server"},
	"kube-scheduler": {"scheduler"},
}

// writtenOwner reports whether the text (in lower case) names the owner.
func writtenOwner(low, of string) bool {
	of = strings.ToLower(strings.Trim(of, "`"))
	if strings.Contains(low, of) || strings.Contains(low, strings.ReplaceAll(of, "-", " ")) {
		return true
	}
	for _, alt := range ownerNames[of] {
		if strings.Contains(low, alt) {
			return true
		}
	}
	return false
}

// containsWord reports whether w is written in t as a whole word.
func containsWord(t, w string) bool {
	for i := 0; ; {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(w)
		if (at == 0 || !isWordByte(t[at-1])) && (end == len(t) || !isWordByte(t[end])) {
			return true
		}
		i = end
	}
}

var (
	// releaseNamedRe is a release a text names after "in", "since",
	// "from" or "to" ("in Kubernetes v1.25").
	releaseNamedRe = lazyre.New(`\b(?:in|since)\s+(?:kubernetes\s+)?` + "`?" + `v?1\.(\d{1,3})\b`)
	// fieldPathRe is a field written as its path from the object.
	fieldPathRe = lazyre.New(`^(?:spec|status|metadata)\.`)
	// useRemovedRe is a removal of a thing's use, not of the thing.
	useRemovedRe = lazyre.New(`(?i)\bremov(?:e|ed|es|ing)\s+(?:the\s+)?(?:usage|use)\s+of\b`)
	// partRemovedRe says an API version keeps some of its types.
	partRemovedRe = lazyre.New(`(?i)\bonly\s+contains?\b|\ball other (?:types|kinds|resources)\b`)
	// platformRe narrows a removal to one platform.
	platformRe = lazyre.New(`(?i)\b(?:in|on|for)\s+windows\b`)
	// metricPrefixRe opens a metric's name: the component or library that
	// exposes it.
	metricPrefixRe = lazyre.New(`^(?:apiserver|kubelet|kubeproxy|kube|scheduler|etcd|rest_client|workqueue|node|storage|authentication|authorization|aggregator|cloudprovider|csi|volume|job|cronjob|endpoint|leader_election|plugin|garbagecollector|replicaset|ttl|resourceclaim|dra|kubectl|registered|watch|admission)_.*_`)
	// sentenceEndRe ends a sentence or a clause before a name.
	sentenceEndRe = lazyre.New(`[.;]\s|\n`)
	// addVerbRe is the verb that adds what follows it.
	addVerbRe = lazyre.New(`\b(?:added|adds|add|introduced|introduces|introduce)\b`)
	// notItselfRe, between "Added" and a name, says what was added is
	// something for the thing, not the thing.
	notItselfRe = lazyre.New(`\b(?:support|supports|validation|validations|example|examples|metrics?|callbacks?|function|functions|for|of|to|in|on)\b`)
	// qualifiedRe, right after a name, makes it a qualifier of what was
	// added.
	qualifiedRe = lazyre.New("^`?\\s*(?:field selectors?|selectors?|helpers?|callbacks?|plugins in|support|(?:flag|field|option)?\\s*to the list)\\b")
)

// namesEarlierRelease reports whether the text (in lower case) names a
// release before v: a graduation or default it states may be that
// release's.
func namesEarlierRelease(v knowledge.Version, low string) bool {
	for _, m := range releaseNamedRe().FindAllStringSubmatch(low, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && v.Major == 1 && n < v.Minor {
			return true
		}
	}
	return false
}
