package knowledge

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

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
