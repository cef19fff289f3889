package knowledge

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// The kinds of source that give release-note entries and lifecycle dates.
const (
	// SourceReleaseNotesData is a release's official notes as data:
	// kubernetes/sig-release releases/release-1.N/release-notes/release-notes-draft.json.
	SourceReleaseNotesData SourceKind = "release-notes-data"
	// SourceReleasePage is a release cycle's page in kubernetes/sig-release
	// (releases/release-1.N/README.md): name, theme and dates.
	SourceReleasePage SourceKind = "release-page"
	// SourceLifecycle is endoflife.date's record of every minor release's
	// support dates (products/kubernetes.md).
	SourceLifecycle SourceKind = "lifecycle"
	// SourcePatches is the list of every patch release with its date
	// (endoflife-date/release-data releases/kubernetes.json).
	SourcePatches SourceKind = "patch-releases"
)

// Change is one entry of a release's official release notes: one pull
// request of kubernetes/kubernetes, as the release notes as data give it.
type Change struct {
	Release Version  `json:"release"`          // the minor release whose notes list it
	PR      int      `json:"pr"`               // pull request number, the entry's identity
	URL     string   `json:"url,omitempty"`    // the pull request
	Kinds   []string `json:"kinds,omitempty"`  // deprecation, api-change, feature, bug, cleanup, ...
	SIGs    []string `json:"sigs,omitempty"`   // as the notes give them: "node", "api-machinery"
	KEPs    []int    `json:"keps,omitempty"`   // the KEPs its documentation links to
	Names   []string `json:"names,omitempty"`  // code names its text mentions: flags, fields, gates, API versions
	Action  bool     `json:"action,omitempty"` // an Urgent Upgrade Note ("action required")
	// Notice is the notice this entry makes, if any: a deprecation, a
	// removal, or an upgrade note for an action required.
	Notice NoticeKind `json:"notice,omitempty"`
	Text   string     `json:"text,omitempty"`   // the entry's words, quoted at run time
	Source string     `json:"source,omitempty"` // Source.ID
	// Effects are the typed changes the entry's words state, read with
	// rules (knowledge/sources/relnotes): the facts its notice is made of, kept
	// where its words are not (the built-in snapshot).
	Effects []Effect `json:"effects,omitempty"`
}

// HasKind reports whether c carries kind k.
func (c *Change) HasKind(k string) bool {
	for _, x := range c.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Lifecycle is one minor release's support dates. Dates are 2006-01-02;
// empty when the source does not say.
type Lifecycle struct {
	Release      Version `json:"release"`
	Released     string  `json:"released,omitempty"`       // the release day of 1.N.0
	EndOfSupport string  `json:"end_of_support,omitempty"` // end of standard support: maintenance mode begins
	EOL          string  `json:"eol,omitempty"`            // end of life: no more patches
	Latest       string  `json:"latest,omitempty"`         // the newest patch release, "1.30.14"
	LatestDate   string  `json:"latest_date,omitempty"`    // its date
	Source       string  `json:"source"`                   // Source.ID
}

// Patch is one patch release, such as 1.30.2, and its date.
type Patch struct {
	Release Version `json:"release"` // 1.30
	Number  int     `json:"number"`  // 2 in 1.30.2; 0 for the minor release itself
	Date    string  `json:"date"`    // 2006-01-02
	Source  string  `json:"source"`  // Source.ID
}

// String returns "1.30.2".
func (p Patch) String() string {
	return p.Release.String() + "." + strconv.Itoa(p.Number)
}

// EffectWhat is the sort of thing a typed change is about.
type EffectWhat string

// The things release notes change.
const (
	EffectAPI        EffectWhat = "api"        // an API group/version, with kinds: resource.k8s.io/v1beta1 ResourceClaim
	EffectGate       EffectWhat = "gate"       // a feature gate: EtcdLearnerMode
	EffectFeature    EffectWhat = "feature"    // a feature named like a gate but not called one: JobReadyPods
	EffectFlag       EffectWhat = "flag"       // a command-line flag: --cloud-config
	EffectMetric     EffectWhat = "metric"     // a metric: apiserver_storage_objects
	EffectField      EffectWhat = "field"      // a field of an API or configuration: spec.podOS
	EffectAnnotation EffectWhat = "annotation" // an annotation or label: seccomp.security.alpha.kubernetes.io/pod
	EffectCommand    EffectWhat = "command"    // a command or subcommand: kubectl run
	EffectComponent  EffectWhat = "component"  // a plugin, provider, driver or mode: the in-tree Portworx volume plugin
	EffectEnv        EffectWhat = "env"        // an environment variable: KUBECTL_EXPLAIN_OPENAPIV3
	// EffectEnhancement is the enhancement the entry links, graduated
	// without a code name ("Graduated image volume sources to beta"):
	// Name is "KEP-4639".
	EffectEnhancement EffectWhat = "enhancement"
)

// EffectAction is what happened to the thing.
type EffectAction string

// The actions.
const (
	EffectAdded      EffectAction = "added"
	EffectDeprecated EffectAction = "deprecated"
	EffectRemoved    EffectAction = "removed"
	EffectGraduated  EffectAction = "graduated" // reached Stage
	EffectDefault    EffectAction = "default"   // its default changed to Value
)

// Effect is one typed change a release-note entry states: what it is
// about, what happened to it, and what replaces it. It holds names and
// words of a closed set, never a sentence of the notes.
type Effect struct {
	What EffectWhat `json:"what"`
	// Name is the thing's code name ("--wait-interval", "EtcdLearnerMode",
	// "resource.k8s.io/v1beta1"); for a component, the words that name
	// it ("in-tree Portworx volume plugin"). Empty only when Of says
	// whose unnamed things they are.
	Name  string   `json:"name,omitempty"`
	Kinds []string `json:"kinds,omitempty"` // an API's kinds
	// Of is the component or command the thing belongs to ("kube-proxy",
	// "kubectl"): an API version Of "kubectl" is kubectl's support for it,
	// not the API server's.
	Of     string       `json:"of,omitempty"`
	Action EffectAction `json:"action"`
	Stage  Stage        `json:"stage,omitempty"` // graduated: the stage reached
	Value  string       `json:"value,omitempty"` // default: the new default ("true", "false", "nftables")
	// Replacement is what to use instead, as the entry names it.
	Replacement string `json:"replacement,omitempty"`
}

// HasAction reports whether one of es is of action a.
func HasAction(es []Effect, a EffectAction) bool {
	for i := range es {
		if es[i].Action == a {
			return true
		}
	}
	return false
}

// A release-note entry's notice is titled by what it does, its typed
// changes written out ("Removed the feature gate EtcdLearnerMode of
// kubeadm"), the same on every database: the built-in snapshot keeps the
// effects, not the words.

// maxTitleNames is how many names one part of a title lists before "and
// N more".
const maxTitleNames = 4

// maxEffectsTitle is how many runes a title written from effects keeps:
// more than a sentence's (maxChangeTitle), since an API's group, version,
// kinds and replacement are one fact.
const maxEffectsTitle = 180

// EffectsTitle writes the effects of an entry whose notice is of kind k
// as a title: removals first for a removal, deprecations first for a
// deprecation, each action once with the things it acts on ("Removed the
// feature gates A and B; deprecated the flag --c of kubelet (use --d)"),
// within maxEffectsTitle runes. It is "" when no effect is of the kind's
// action (an upgrade note takes any effect): the title would not say
// what the notice warns of.
func EffectsTitle(es []Effect, k NoticeKind) string {
	first := EffectAction("")
	switch k {
	case NoticeRemoval:
		first = EffectRemoved
	case NoticeDeprecation:
		first = EffectDeprecated
	}
	if len(es) == 0 || first != "" && !HasAction(es, first) {
		return ""
	}
	order := []EffectAction{EffectRemoved, EffectDeprecated, EffectGraduated, EffectDefault, EffectAdded}
	if first != "" {
		order = append([]EffectAction{first}, order...)
	}
	var parts []string
	done := map[EffectAction]bool{}
	for _, a := range order {
		if done[a] {
			continue
		}
		done[a] = true
		for _, g := range groupEffects(es, a) {
			parts = append(parts, g.phrase())
		}
	}
	title := ""
	for i, p := range parts {
		next := title
		if i > 0 {
			next += "; " + lowerFirst(p)
		} else {
			next = p
		}
		if utf8.RuneCountInString(next) > maxEffectsTitle && i > 0 {
			title += fmt.Sprintf("; and %d more", len(parts)-i)
			break
		}
		title = next
	}
	return prose.ClipRunes(title, maxEffectsTitle)
}

// effectGroup is effects of one action on things of one sort, of one
// owner, with one replacement and stage: one part of a title.
type effectGroup struct {
	action      EffectAction
	what        EffectWhat
	of          string
	replacement string
	stage       Stage
	value       string
	names       []string
}

// groupEffects gathers the effects of action a into groups, in order.
func groupEffects(es []Effect, a EffectAction) []*effectGroup {
	var out []*effectGroup
	for _, e := range es {
		if e.Action != a {
			continue
		}
		name := effectName(e)
		joined := false
		for _, g := range out {
			if g.what == e.What && g.of == e.Of && g.replacement == e.Replacement && g.stage == e.Stage && g.value == e.Value && e.What != EffectComponent {
				g.names = append(g.names, name)
				joined = true
				break
			}
		}
		if !joined {
			out = append(out, &effectGroup{action: a, what: e.What, of: e.Of, replacement: e.Replacement, stage: e.Stage, value: e.Value, names: []string{name}})
		}
	}
	return out
}

// effectName is how a title names e's thing: an API with its kinds.
func effectName(e Effect) string {
	if e.What == EffectAPI && len(e.Kinds) > 0 {
		return e.Name + " (" + strings.Join(e.Kinds, ", ") + ")"
	}
	return e.Name
}

// whatWords names a sort of thing, one and several.
var whatWords = map[EffectWhat][2]string{
	EffectAPI:         {"the API", "the APIs"},
	EffectGate:        {"the feature gate", "the feature gates"},
	EffectFeature:     {"the feature", "the features"},
	EffectFlag:        {"the flag", "the flags"},
	EffectMetric:      {"the metric", "the metrics"},
	EffectField:       {"the field", "the fields"},
	EffectAnnotation:  {"the annotation", "the annotations"},
	EffectCommand:     {"the command", "the commands"},
	EffectComponent:   {"the", "the"},
	EffectEnv:         {"the environment variable", "the environment variables"},
	EffectEnhancement: {"the enhancement", "the enhancements"},
}

// phrase writes the group: "Removed the flags --a and --b of kubelet (use --c)".
func (g *effectGroup) phrase() string {
	words := whatWords[g.what]
	if words[0] == "" {
		words = [2]string{"the", "the"}
	}
	thing := ""
	switch {
	case g.what == EffectComponent:
		thing = "the " + listNames(g.names)
	case len(g.names) == 1 && g.names[0] == "":
		thing = strings.TrimPrefix(words[1], "the ")
	case len(g.names) == 1 && strings.Contains(g.names[0], " ") && g.what != EffectCommand && g.what != EffectAPI:
		// a thing named by words: "the iptables CLI wait interval flag"
		thing = "the " + g.names[0] + " " + strings.TrimPrefix(words[0], "the ")
	case len(g.names) == 1:
		thing = words[0] + " " + g.names[0]
	default:
		thing = words[1] + " " + listNames(g.names)
	}
	if g.of != "" {
		if g.what == EffectAPI {
			thing = g.of + "'s support for " + thing
		} else {
			thing += " of " + g.of
		}
	}
	var s string
	switch g.action {
	case EffectRemoved:
		s = "Removed " + thing
	case EffectDeprecated:
		s = "Deprecated " + thing
	case EffectAdded:
		s = "Added " + thing
	case EffectGraduated:
		s = "Graduated " + thing
		if g.stage != StageNone {
			s += " to " + g.stage.Label()
		}
	case EffectDefault:
		switch g.value {
		case "true":
			s = "Enabled " + thing + " by default"
		case "false":
			s = "Disabled " + thing + " by default"
		default:
			s = "Changed the default of " + thing + " to " + g.value
		}
	default:
		s = "Changed " + thing
	}
	if g.replacement != "" {
		s += " (use " + g.replacement + ")"
	}
	return s
}

// listNames joins names: "A", "A and B", "A, B and C", "A, B, C, D and 3 more".
func listNames(names []string) string {
	if len(names) > maxTitleNames+1 {
		return strings.Join(names[:maxTitleNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxTitleNames)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// lowerFirst writes s with a small first letter: the parts after the
// first go on the sentence.
func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}

// ChangeGates are the feature gates an entry names: the gates its
// effects are about, and the code names written like a gate in an entry
// whose words speak of feature gates (an entry known without its words
// keeps its gates in Names).
func ChangeGates(ch Change) []string {
	var out []string
	for _, e := range ch.Effects {
		if e.What == EffectGate && prose.LooksGate(e.Name) {
			out = prose.AddNames(out, []string{e.Name})
		}
	}
	return prose.AddNames(out, gateNames(ch))
}
