package relnotes

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The two shapes of sentence the effect rules read (see effects.go).

// verbs maps the forms of the verbs a clause may open with to the action.
var verbs = map[string]knowledge.EffectAction{
	"remove": knowledge.EffectRemoved, "removed": knowledge.EffectRemoved, "removes": knowledge.EffectRemoved, "removing": knowledge.EffectRemoved,
	"drop": knowledge.EffectRemoved, "dropped": knowledge.EffectRemoved, "drops": knowledge.EffectRemoved, "dropping": knowledge.EffectRemoved,
	"deprecate": knowledge.EffectDeprecated, "deprecated": knowledge.EffectDeprecated, "deprecates": knowledge.EffectDeprecated, "deprecating": knowledge.EffectDeprecated,
	"promote": knowledge.EffectGraduated, "promoted": knowledge.EffectGraduated, "promotes": knowledge.EffectGraduated,
	"graduate": knowledge.EffectGraduated, "graduated": knowledge.EffectGraduated, "graduates": knowledge.EffectGraduated,
	"add": knowledge.EffectAdded, "added": knowledge.EffectAdded, "adds": knowledge.EffectAdded,
	"introduce": knowledge.EffectAdded, "introduced": knowledge.EffectAdded, "introduces": knowledge.EffectAdded,
	"enabled": knowledge.EffectDefault, "enable": knowledge.EffectDefault, "enables": knowledge.EffectDefault,
	"disabled": knowledge.EffectDefault, "disable": knowledge.EffectDefault, "disables": knowledge.EffectDefault,
	"enabling": knowledge.EffectDefault, "disabling": knowledge.EffectDefault,
	"flipped": knowledge.EffectDefault, "changed": knowledge.EffectDefault, "change": knowledge.EffectDefault, "changes": knowledge.EffectDefault,
	"marked": knowledge.EffectDeprecated, "mark": knowledge.EffectDeprecated, "marks": knowledge.EffectDeprecated,
}

// notAThing are the words after a removal verb that say what went is no
// thing users name: "removed the usage of the flag".
var notAThing = map[string]bool{
	"usage": true, "use": true, "uses": true, "cleanup": true, "mention": true, "mentions": true, "note": true, "notes": true,
	"statement": true, "restriction": true, "restrictions": true, "limitation": true, "limitations": true,
	"requirement": true, "requirements": true, "check": true, "checks": true, "warning": true, "warnings": true,
	"log": true, "logs": true, "message": true, "messages": true, "leftover": true, "disclaimer": true,
	"dependency": true, "dependencies": true, "reference": true, "references": true, "toleration": true,
	"validation": true, "defaulting": true, "handling": true, "logic": true, "code": true, "need": true,
}

// atClauseStart reports whether a verb at i opens a clause.
func (sr *sentenceReader) atClauseStart(i int) bool {
	ws := sr.ws
	switch {
	case i == sr.start:
		return true
	case i == sr.start+1:
		if _, ok := componentOf(ws[sr.start]); ok && ws[sr.start].punct == 0 {
			return true // "kube-controller-manager deprecate the flags"
		}
	}
	p := ws[i-1]
	switch {
	case p.punct == ',' || p.punct == ';' || p.punct == ':':
		return true
	case p.low == "and" || p.low == "started" || p.low == "start":
		return true
	case (p.low == "also" || p.low == "then") && (i-1 == sr.start || ws[i-2].low == "and" || ws[i-2].punct == ','):
		return true
	}
	return false
}

// verbFirst reads a clause opening with a verb at i; it returns how many
// words it read, 0 when none opens there.
func (sr *sentenceReader) verbFirst(i int) int {
	ws := sr.ws
	act, ok := verbs[ws[i].low]
	if !ok || ws[i].code || !sr.atClauseStart(i) {
		return 0
	}
	if (act == knowledge.EffectRemoved || act == knowledge.EffectDeprecated) && sr.conditional(i) {
		return 0 // "if the gate is enabled, remove the flag": what a tool does, not what changed
	}
	objStart := i + 1
	switch ws[i].low {
	case "marked", "mark", "marks": // Marked the feature gate X as deprecated.
		j := sr.find(i+1, 14, "as")
		if j < 0 || j+1 >= len(ws) || ws[j+1].low != "deprecated" {
			return 0
		}
		sr.act(knowledge.EffectDeprecated, ws[i+1:j], j+2, "")
		return j + 2 - i
	case "deprecated":
		if sr.laterCopula(i + 1) {
			return 0 // "Deprecated beta APIs ... are no longer served": an adjective
		}
	case "changed", "change", "changes": // Changed the default (value) of X to Y.
		j := i + 1
		for j < len(ws) && fillers[ws[j].low] {
			j++
		}
		if j >= len(ws) || ws[j].low != "default" {
			return 0
		}
		j++
		if j < len(ws) && (ws[j].low == "value" || ws[j].low == "values" || ws[j].low == "behavior") {
			j++
		}
		if j >= len(ws) || (ws[j].low != "of" && ws[j].low != "for") {
			return 0
		}
		objStart = j + 1
	case "enabled", "enable", "enables", "disabled", "disable", "disables":
		if !sr.byDefault(i+1, 12) {
			return 0
		}
	}
	value := ""
	switch ws[i].low {
	case "enabled", "enable", "enables", "enabling":
		value = "true"
	case "disabled", "disable", "disables", "disabling":
		value = "false"
	}
	sr.owner = ""
	if i == sr.start+1 {
		sr.owner, _ = componentOf(ws[sr.start]) // "kube-apiserver disabled the beta WatchList feature"
	}
	if objStart < len(ws) && ws[objStart].low == "the" && objStart+1 < len(ws) && ws[objStart+1].low == "deprecation" {
		objStart++
	}
	if objStart < len(ws) && (ws[objStart].low == "deprecation" || ws[objStart].low == "removal") && objStart+1 < len(ws) &&
		(ws[objStart+1].low == "of" || ws[objStart+1].low == "for") {
		objStart += 2 // started the deprecation of X
	}
	end := sr.phraseEnd(objStart)
	obj := ws[objStart:end]
	if len(obj) == 0 {
		sr.again(act, value) // "is deprecated and removed", "was promoted to beta and enabled by default"
		return end - i
	}
	if act == knowledge.EffectRemoved {
		if first := firstContent(obj); first >= 0 && notAThing[strings.TrimSuffix(obj[first].low, "s")] {
			return end - i
		}
	}
	if act == knowledge.EffectDefault && ws[i].low != "changed" && ws[i].low != "change" && ws[i].low != "changes" && ws[i].low != "flipped" && !defaultFollows(ws, end) {
		return end - i // "enable the gate (which was off by default)"
	}
	if act == knowledge.EffectRemoved && (sr.fromDefaults(end) || end < len(ws) && conditions[ws[end].low]) {
		return end - i // "Dropped the fields when the gate is off"
	}
	return sr.act(act, obj, end, value) - i
}

// act records the effects of action on what obj names, the clause's
// words ending at end; it returns where the clause ends, past a "to
// STAGE", "to VALUE" or "in PROGRAM" read there.
func (sr *sentenceReader) act(action knowledge.EffectAction, obj []word, end int, value string) int {
	ws := sr.ws
	var stage knowledge.Stage
	of := sr.of
	if sr.owner != "" {
		of = sr.owner
	}
	if c := ownerIn(obj); c != "" {
		of = c
	}
	// What the clause goes on with: to STAGE, to VALUE, by default, in/from PROGRAM.
	for k := end; k < len(ws) && k < end+6; k++ {
		w := ws[k]
		switch w.low {
		case "to":
			if k+1 < len(ws) {
				if st, ok := stageWord(ws[k+1:]); ok && action == knowledge.EffectGraduated {
					stage = st
				} else if action == knowledge.EffectDefault {
					value = ws[k+1].s
				} else if c, ok := programAt(ws, k+1); ok && action == knowledge.EffectAdded {
					of = c
				}
			}
			k = len(ws)
		case "from", "in", "of", "for", "on":
			if rel, ok := releaseAt(ws, k+1); ok && (action == knowledge.EffectRemoved || action == knowledge.EffectDeprecated) && rel.Less(sr.r.release) {
				return end // removed in an earlier release
			}
			c, ok := programAt(ws, k+1)
			if !ok {
				k = len(ws)
				break
			}
			of = c // "Graduated the `WinDSR` feature in the kube-proxy to beta"
			if k+1 < len(ws) && ws[k+1].low == "the" {
				k++
			}
			k++
		case "by":
			if k+1 < len(ws) && ws[k+1].low == "default" && action == knowledge.EffectDefault && value == "" {
				value = defaultValue(ws, k)
			}
			k = len(ws)
		default:
			k = len(ws)
		}
	}
	if action == knowledge.EffectDefault && value == "" {
		for k := end - 1; k > end-len(obj)-1 && k > 0; k-- {
			if ws[k].low == "default" && ws[k-1].low == "by" {
				value = defaultValue(ws, k-1)
			}
		}
		if value == "" {
			return end
		}
	}
	if action == knowledge.EffectGraduated && stage == knowledge.StageNone {
		// "Promoted the X feature gate general availability": the stage ends the words
		if n := len(obj); n > 1 && obj[n-2].low == "general" && obj[n-1].low == "availability" {
			stage, obj = knowledge.StageStable, obj[:n-2]
		} else {
			return end
		}
	}
	var things []thing
	if obj[len(obj)-1].punct == ':' {
		things = sr.listed(obj, end, action) // "Drop support for the kubectl run flags:" and a list
	}
	if len(things) == 0 {
		things = sr.things(obj, action)
	}
	if len(things) == 0 && refersBack(obj) {
		sr.again(action, value) // "Flipped X to false and deprecated it", "and enabled it by default"
		return end
	}
	for _, t := range things {
		e := knowledge.Effect{What: t.what, Name: t.name, Kinds: t.kinds, Of: t.of, Action: action, Stage: stage, Value: value, Replacement: t.rep}
		if e.Of == "" {
			e.Of = of
		}
		if e.Of == "" && e.What == knowledge.EffectFlag {
			e.Of = sr.flagOwner() // "Added `--cpu` to `kubectl autoscale`, started deprecating `--cpu-percent`"
		}
		if e.What == knowledge.EffectAPI && e.Of == "" && (sr.claimed(e) || !strings.Contains(e.Name, "/") && len(e.Kinds) == 0) {
			continue
		}
		sr.r.add(e)
	}
	return end
}

// again gives action to the things the sentence's last effect is of:
// "Flipped X to false and deprecated it".
func (sr *sentenceReader) again(action knowledge.EffectAction, value string) {
	if action == knowledge.EffectGraduated || action == knowledge.EffectAdded || action == knowledge.EffectDefault && value == "" {
		return
	}
	out := sr.r.out
	from := sr.from
	if len(out) == sr.from {
		from = sr.r.prevFrom // "Graduated X to beta; the gate is now enabled by default"
	}
	if len(out) == from {
		return
	}
	last := out[len(out)-1]
	for i := from; i < len(out); i++ {
		if e := out[i]; e.Action == last.Action && e.What != knowledge.EffectAPI {
			sr.r.add(knowledge.Effect{What: e.What, Name: e.Name, Kinds: e.Kinds, Of: e.Of, Action: action, Value: value})
		}
	}
}

// claimed reports whether the entry's API claims already say e.
func (sr *sentenceReader) claimed(e knowledge.Effect) bool {
	for _, o := range sr.r.out {
		if o.What == knowledge.EffectAPI && o.Of == "" && (o.Name == e.Name || strings.HasSuffix(o.Name, "/"+e.Name)) {
			return true
		}
	}
	return false
}

// refersBack reports whether obj names its thing by a pronoun or by its
// type alone ("it", "the feature gate").
func refersBack(obj []word) bool {
	for _, w := range obj {
		switch {
		case w.low == "it" || w.low == "them" || w.low == "they" || w.low == "this" || w.low == "these":
			return true
		case typeWords[w.low] != "" || fillers[w.low]:
		default:
			return false
		}
	}
	return len(obj) > 0
}
