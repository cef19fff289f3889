package relnotes

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// A subject, then its state: "X is removed", "X graduated to beta".

// copulas are the words a subject's state follows.
var copulas = map[string]bool{"is": true, "are": true, "was": true, "were": true, "got": true, "has": true, "have": true, "now": true}

// adverbs may stand between a copula and its participle.
var adverbs = map[string]bool{"now": true, "also": true, "officially": true, "completely": true, "entirely": true, "fully": true,
	"partially": true, "permanently": true, "finally": true, "been": true, "considered": true, "going": true, "set": true}

// subjectFirst reads "SUBJECT is removed" with its copula at i.
func (sr *sentenceReader) subjectFirst(i int) {
	ws := sr.ws
	w := ws[i]
	if w.code || i == sr.start {
		return
	}
	j := i
	intransitive := false
	switch {
	case w.low == "has" || w.low == "have":
		if i+1 >= len(ws) || (ws[i+1].low != "been" && !(ws[i+1].low == "now" && i+2 < len(ws) && ws[i+2].low == "been")) {
			return
		}
	case copulas[w.low]:
		if w.low == "now" && (i+1 >= len(ws) || ws[i+1].low != "removed") {
			return
		}
	case w.low == "graduated" || w.low == "graduates" || w.low == "moves" || w.low == "moved" || w.low == "promoted":
		intransitive = true
		j = i - 1
	default:
		return
	}
	relative := ws[i-1].low == "which" || ws[i-1].low == "that" || ws[i-1].low == "who"
	if relative && !(w.low == "has" || w.low == "have") || ws[i-1].low == "it" && i-1 > sr.start && ws[i-2].low == "as" {
		return // a relative clause: what was, before
	}
	k := j + 1
	for k < len(ws) && adverbs[ws[k].low] {
		k++
	}
	if k >= len(ws) {
		return
	}
	action, stage, value, rep, n := participle(ws, k, intransitive)
	if action == "" {
		return
	}
	after := k + n
	if rel, ok := releaseAfter(ws, after); ok && rel.Less(sr.r.release) && (action == knowledge.EffectRemoved || action == knowledge.EffectDeprecated || action == knowledge.EffectGraduated) {
		return // removed in an earlier release
	}
	subj := sr.subject(i)
	if relative { // "the `--x` flag, which has been deprecated"
		subj = sr.nounBefore(i - 1)
	} else if sr.reason(subj) {
		return
	}
	subj = cutRelative(subj)
	if !relative && !hasName(subj) {
		if first := cutRelative(sr.firstSubject(i)); firstContent(subj) < 0 && hasName(first) && !sr.reason(first) {
			// "X were deprecated since v1.19, now have been removed": the
			// subject of the sentence's first clause.
			subj = first
		} else if name, ok := sr.antecedent(i, subj); ok {
			subj = append([]word{name}, subj...) // "`X`, GA since 1.24, ... and the feature gate has been removed"
		}
	}
	if len(subj) == 0 || refersBack(subj) && !(ws[after-1].punct == ':' && after < len(ws)) {
		if len(sr.r.out) == sr.from && sr.r.prevFrom == sr.from && len(subj) > 0 {
			if name, ok := sr.r.prevName(); ok { // "stopped applying the `--x` flag. The flag has been deprecated"
				subj = append([]word{name}, subj...)
			}
		}
		if refersBack(subj) || len(subj) == 0 {
			sr.again(action, value)
			return
		}
	}
	of := sr.of
	if c := ownerIn(subj); c != "" {
		of = c
	}
	if after < len(ws) && (ws[after].low == "from" || ws[after].low == "in") {
		if c, ok := programAt(ws, after+1); ok {
			of = c // "have been removed from kube-scheduler"
		}
	}
	if action == knowledge.EffectRemoved && sr.fromDefaults(after) {
		return
	}
	things := sr.things(subj, action)
	if len(things) == 0 && ws[after-1].punct == ':' {
		things = sr.listed(subj, after, action)
	} else if len(things) == 0 && hasWord(subj, "following") {
		if c := sr.colonAfter(after); c > 0 { // "The following feature gates have been removed and must ...: A, B"
			things = sr.listed(subj, c, action)
		}
	}
	for _, t := range things {
		if t.what == knowledge.EffectField && ws[k].low == "replaced" {
			continue // a field replaced by another is renamed in a new version, not removed
		}
		e := knowledge.Effect{What: t.what, Name: t.name, Kinds: t.kinds, Of: t.of, Action: action, Stage: stage, Value: value, Replacement: rep}
		if e.Replacement == "" {
			e.Replacement = t.rep
		}
		if e.Of == "" {
			e.Of = of
		}
		if e.What == knowledge.EffectAPI && e.Of == "" && (sr.claimed(e) || !strings.Contains(e.Name, "/") && len(e.Kinds) == 0) {
			continue
		}
		sr.r.add(e)
	}
}

// participle reads the state after a copula at k: removed, deprecated,
// no longer served, replaced with Y, promoted to STAGE, GA, enabled by
// default. It returns the action and how many words it read.
func participle(ws []word, k int, intransitive bool) (act knowledge.EffectAction, st knowledge.Stage, value, rep string, n int) {
	w := ws[k]
	next := func(d int) string {
		if k+d < len(ws) {
			return ws[k+d].low
		}
		return ""
	}
	if intransitive {
		if next(1) == "to" {
			if st, ok := stageWord(ws[k+2:]); ok {
				return knowledge.EffectGraduated, st, "", "", 2
			}
		}
		return "", 0, "", "", 0
	}
	switch w.low {
	case "removed", "dropped":
		return knowledge.EffectRemoved, 0, "", "", 1
	case "deprecated":
		return knowledge.EffectDeprecated, 0, "", "", 1
	case "marked":
		if next(1) == "deprecated" || next(1) == "as" && next(2) == "deprecated" {
			return knowledge.EffectDeprecated, 0, "", "", 2
		}
	case "no":
		if next(1) == "longer" {
			switch next(2) {
			case "served", "supported", "available":
				return knowledge.EffectRemoved, 0, "", "", 3
			}
		}
	case "replaced":
		if next(1) == "with" || next(1) == "by" {
			switch {
			case k+2 < len(ws) && shapeOf(ws[k+2]) != shapeNone:
				return knowledge.EffectRemoved, 0, "", ws[k+2].s, 3
			case next(2) == "this" || next(2) == "it":
				return knowledge.EffectRemoved, 0, "", "", 3
			}
		}
	case "promoted", "graduated", "moved", "moving", "graduating":
		if next(1) == "to" {
			if st, ok := stageWord(ws[k+2:]); ok {
				return knowledge.EffectGraduated, st, "", "", 2
			}
		}
	case "ga", "stable", "generally":
		if k > 0 && ws[k-1].low == "now" || next(1) == "now" || w.punct == '.' && next(1) == "" {
			return knowledge.EffectGraduated, knowledge.StageStable, "", "", 1
		}
	case "beta":
		if k > 0 && ws[k-1].low == "now" {
			return knowledge.EffectGraduated, knowledge.StageBeta, "", "", 1
		}
	case "enabled", "on", "disabled", "off", "re-enabled":
		if next(1) == "by" && next(2) == "default" {
			return knowledge.EffectDefault, 0, defaultValue(ws, k+1), "", 3
		}
	case "turned", "switched":
		if (next(1) == "on" || next(1) == "off") && next(2) == "by" && next(3) == "default" {
			return knowledge.EffectDefault, 0, defaultValue(ws, k+2), "", 4
		}
	case "added", "introduced":
		return knowledge.EffectAdded, 0, "", "", 1
	}
	return "", 0, "", "", 0
}

// stageWord reads a stage: GA, stable, general availability, beta,
// alpha, or an API version's level (v1beta1 is beta).
func stageWord(ws []word) (knowledge.Stage, bool) {
	if len(ws) == 0 {
		return 0, false
	}
	w := ws[0].low
	switch {
	case w == "ga" || w == "stable" || w == "general" || w == "ga/stable":
		return knowledge.StageStable, true
	case w == "beta":
		return knowledge.StageBeta, true
	case w == "alpha":
		return knowledge.StageAlpha, true
	case isVersion(w, true):
		switch {
		case strings.Contains(w, "beta"):
			return knowledge.StageBeta, true
		case strings.Contains(w, "alpha"):
			return knowledge.StageAlpha, true
		}
		return knowledge.StageStable, true
	}
	return 0, false
}

// defaultValue reads the default "by default" at k says, from the word
// before it: "enabled by default" is true.
func defaultValue(ws []word, k int) string {
	for j := k - 1; j >= 0 && j >= k-2; j-- {
		switch ws[j].low {
		case "enabled", "on", "enable", "enables", "re-enabled", "enabling":
			return "true"
		case "disabled", "off", "disable", "disables", "disabling":
			return "false"
		}
	}
	return ""
}

// flagOwner is the owner of the flags the sentence named before, if one.
func (sr *sentenceReader) flagOwner() string {
	for i := len(sr.r.out) - 1; i >= sr.from; i-- {
		if e := sr.r.out[i]; e.What == knowledge.EffectFlag && e.Of != "" {
			return e.Of
		}
	}
	return ""
}

// conditions open a clause that says when something happens.
var conditions = map[string]bool{"when": true, "if": true, "unless": true, "while": true, "whenever": true}

// conditional reports whether the sentence before i sets a condition or
// a modal ("if X is enabled, remove", "Admins can ... then remove"), or
// the sentence is an item of a list of what a tool will do.
func (sr *sentenceReader) conditional(i int) bool {
	if sr.r.future {
		return true
	}
	for _, w := range sr.ws[sr.start:i] {
		if !w.code && (conditions[w.low] || modals[w.low]) {
			return true
		}
	}
	return false
}

// defaultFollows reports whether "by default" follows k within a few
// words, outside parentheses: "Enabled the X feature in kube-scheduler
// by default".
func defaultFollows(ws []word, k int) bool {
	for j := k; j < len(ws) && j < k+4; j++ {
		if ws[j].paren {
			return false
		}
		if ws[j].low == "by" && j+1 < len(ws) && ws[j+1].low == "default" {
			return true
		}
	}
	return false
}

// hasName reports whether ws hold a name of some shape.
func hasName(ws []word) bool {
	for _, w := range ws {
		if namesThing(w) && !notNames[w.s] {
			return true
		}
	}
	return false
}

// hasWord reports whether ws hold the word low.
func hasWord(ws []word, low string) bool {
	for _, w := range ws {
		if !w.code && w.low == low {
			return true
		}
	}
	return false
}

// firstSubject returns the words from the sentence's start to its first
// copula or verb before i: the subject of its first clause.
func (sr *sentenceReader) firstSubject(i int) []word {
	for k := sr.start; k < i; k++ {
		w := sr.ws[k]
		if w.code {
			continue
		}
		if _, verb := verbs[w.low]; verb && k > sr.start || copulas[w.low] && w.low != "now" {
			return sr.ws[sr.start:k]
		}
	}
	return sr.ws[sr.start:i]
}

// antecedent finds the name a subject with a type word but no name
// stands for ("the feature gate"): the last name before it in the
// sentence.
func (sr *sentenceReader) antecedent(i int, subj []word) (word, bool) {
	if len(typeWordsIn(subj)) == 0 {
		return word{}, false
	}
	for k := i - len(subj) - 1; k >= sr.start; k-- {
		if w := sr.ws[k]; namesThing(w) && w.code && !notNames[w.s] {
			return w, true
		}
	}
	return word{}, false
}

// colonAfter returns the index after the first word from k ending in a
// colon, 0 when there is none.
func (sr *sentenceReader) colonAfter(k int) int {
	for j := k; j < len(sr.ws); j++ {
		if sr.ws[j].punct == ':' && j+1 < len(sr.ws) {
			return j + 1
		}
	}
	return 0
}
