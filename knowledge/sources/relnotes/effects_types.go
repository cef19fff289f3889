package relnotes

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// How a name is typed: its shape and the type words beside it.

// typeAt is a type word and where it stands.
type typeAt struct {
	at   int
	what string
}

// typeName types the name w (of shape sh, at k) by its shape and the
// nearest type word that fits it.
func typeName(ws []word, w word, sh shape, k int, types []typeAt) (thing, bool) {
	// nearest is the type word nearest the name if it is one of allowed
	// (the one after the name first, at the same distance); "" if the
	// nearest is another, or there is none.
	nearest := func(allowed ...string) string {
		best, dist := "", 1<<30
		for _, t := range types {
			d := t.at - k
			if d < 0 {
				d = -d*2 + 1
			} else {
				d *= 2
			}
			if d < dist {
				best, dist = t.what, d
			}
		}
		for _, a := range allowed {
			if a == best {
				return best
			}
		}
		return ""
	}
	switch sh {
	case shapeFlag:
		name, _, _ := strings.Cut(w.s, "=")
		if name == "--feature-gates" {
			if _, v, ok := strings.Cut(w.s, "="); ok {
				if g, _, _ := strings.Cut(v, "="); looksGate(g) {
					return thing{what: knowledge.EffectGate, name: g}, true
				}
			}
			return thing{}, false
		}
		return thing{what: knowledge.EffectFlag, name: name}, true
	case shapeAPIVersion:
		if nearest("field", "annotation", "flag", "other") != "" {
			return thing{}, false
		}
		if g, v, ok := strings.Cut(w.s, "/"); ok {
			if v2, kind, ok := strings.Cut(v, "/"); ok {
				return thing{what: knowledge.EffectAPI, name: normGV(g + "/" + v2), kinds: []string{kind}}, true
			}
		}
		return thing{what: knowledge.EffectAPI, name: normGV(w.s)}, true
	case shapeCommand:
		return thing{what: knowledge.EffectCommand, name: w.s}, true
	case shapeUpperSnake:
		return thing{what: knowledge.EffectEnv, name: w.s}, true
	case shapeDomainPath:
		switch nearest("annotation", "field", "api", "flag", "component") {
		case "annotation":
			return thing{what: knowledge.EffectAnnotation, name: w.s}, true
		case "":
			if !w.paren {
				return thing{what: knowledge.EffectAnnotation, name: w.s}, true
			}
		}
	case shapeSnake:
		switch nearest("metric", "field", "flag") {
		case "metric":
			return thing{what: knowledge.EffectMetric, name: w.s}, true
		case "field":
			return thing{what: knowledge.EffectField, name: w.s}, true
		case "":
			if strings.Count(w.s, "_") >= 2 && len(types) == 0 {
				return thing{what: knowledge.EffectMetric, name: w.s}, true
			}
		}
	case shapeCamel:
		switch nearest("gate", "feature", "field", "component", "annotation") {
		case "gate":
			return thing{what: knowledge.EffectGate, name: w.s}, true
		case "feature":
			return thing{what: knowledge.EffectFeature, name: w.s}, true
		case "field":
			return thing{what: knowledge.EffectField, name: w.s}, true
		case "component":
			if componentNear(ws, types, k) {
				return thing{what: knowledge.EffectComponent, name: w.s}, true
			}
		}
	case shapeFieldPath:
		if nearest("field", "flag", "annotation") == "annotation" && strings.Contains(w.s, ".") {
			return thing{what: knowledge.EffectAnnotation, name: w.s}, true
		}
		if nearest("field", "flag", "annotation") == "field" || strings.HasPrefix(w.s, ".") || strings.HasPrefix(w.s, "spec.") || strings.HasPrefix(w.s, "status.") {
			return thing{what: knowledge.EffectField, name: strings.TrimPrefix(w.s, ".")}, true
		}
	case shapeKebab, shapeLowerWord:
		switch nearest("flag", "component", "command", "metric", "field", "annotation") {
		case "flag":
			return thing{what: knowledge.EffectFlag, name: "--" + w.s}, true
		case "component":
			if (w.code || sh == shapeKebab) && componentNear(ws, types, k) {
				return thing{what: knowledge.EffectComponent, name: w.s}, true
			}
		case "command":
			if w.code {
				return thing{what: knowledge.EffectCommand, name: w.s}, true
			}
		case "field":
			if w.code {
				return thing{what: knowledge.EffectField, name: w.s}, true
			}
		}
	}
	return thing{}, false
}

// componentNear reports whether a component's type word follows the
// name at k, with only qualifiers and names between: "`SecurityContextDeny`
// admission plugin", "`selectorSpread` plugin".
func componentNear(ws []word, types []typeAt, k int) bool {
	for _, t := range types {
		if t.what != "component" {
			continue
		}
		if t.at == k-1 || t.at == k-2 && qualifiers[ws[k-1].low] {
			return true // "admission plugin `PersistentVolumeLabel`"
		}
		if t.at <= k || t.at > k+8 {
			continue
		}
		ok := true
		for _, w := range ws[k+1 : t.at] {
			if !qualifiers[w.low] && !w.code && w.low != "and" && w.low != "or" {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// typeWordsIn finds the type words of ws: "feature gate" and "feature
// flag" are gates, "option/flag" a flag, "environment variable" an env.
func typeWordsIn(ws []word) []typeAt {
	var types []typeAt
	inParen := false
	for k, w := range ws {
		if w.paren {
			inParen = true
		}
		if inParen && w.punct == ')' {
			inParen = false
			continue
		}
		if w.code || inParen {
			continue // a type word in parentheses says what a name in them is
		}
		t, ok := typeWords[w.low]
		if !ok && strings.Contains(w.low, "/") {
			for _, part := range strings.Split(w.low, "/") {
				if pt, ok2 := typeWords[part]; ok2 {
					t, ok = pt, true
				}
			}
		}
		if !ok {
			continue
		}
		next := ""
		if k+1 < len(ws) {
			next = ws[k+1].low
		}
		switch {
		case t == "feature" && (typeWords[next] == "gate" || next == "flag" || next == "flags" || next == "feature-flag"):
			types = append(types, typeAt{k, "gate"})
			continue
		case t == "flag" && k > 0 && ws[k-1].low == "feature":
			continue // "feature flag": a gate
		case w.low == "feature-flag" || w.low == "feature-flags":
			t = "gate"
		case t == "env" && (k == 0 || ws[k-1].low != "environment"):
			continue
		case t == "component" && w.low == "mode" && k > 0 && ws[k-1].low == "default":
			continue
		}
		types = append(types, typeAt{k, t})
	}
	return types
}

// context are the words before a name that say what a change is for or
// behind, not what changed: "behind the `X` feature gate".
var context = map[string]bool{"for": true, "behind": true, "by": true, "via": true, "using": true, "with": true}

// typeBeside reports whether a type word stands within two words of k,
// with only fillers and qualifiers between: "the feature gate X", "X
// feature gate".
func typeBeside(ws []word, types []typeAt, k int) bool {
	for _, t := range types {
		switch t.what {
		case "gate", "feature", "field", "component":
		default:
			continue
		}
		lo, hi := t.at, k
		if lo > hi {
			lo, hi = hi, lo
		}
		if hi-lo > 3 {
			continue
		}
		ok := true
		for _, w := range ws[lo+1 : hi] {
			if !fillers[w.low] && !qualifiers[w.low] && typeWords[w.low] == "" {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// onlyContent reports whether the word at k is the only word of ws that
// is not a filler: "Graduated SeccompDefault to beta".
func onlyContent(ws []word, k int) bool {
	for i, w := range ws {
		if i != k && !fillers[w.low] && w.low != "feature" && w.low != "features" && w.low != "and" && shapeOf(w) != shapeCamel {
			return false // "SELinuxChangePolicy and SELinuxMount graduated": names alone
		}
	}
	return true
}

// isTypeWordish reports whether a CamelCase word is a word of the
// sentence written with a capital, not a kind: "API", "Alpha".
func isTypeWordish(w word) bool { return kindStopWords[w.s] || typeWords[w.low] != "" }

// qualifiers are the words that say what sort of component a type word
// is: "admission plugin", "in-tree storage driver".
var qualifiers = map[string]bool{"admission": true, "volume": true, "storage": true, "cloud": true, "credential": true,
	"scheduler": true, "auth": true, "in-tree": true, "intree": true, "proxy": true, "network": true, "csi": true,
	"scheduling": true, "score": true, "filter": true, "kubelet": true, "image": true}

// typePhrase is the type word nearest after k with its qualifiers:
// "admission plugin".
func typePhrase(ws []word, types []typeAt, k int) string {
	for _, t := range types {
		if t.what != "component" || t.at < k {
			continue
		}
		j := t.at
		for j > k+1 && qualifiers[ws[j-1].low] {
			j--
		}
		var parts []string
		for _, w := range ws[j : t.at+1] {
			parts = append(parts, w.s)
		}
		return singular(strings.Join(parts, " "))
	}
	for _, t := range types { // a type word before the name
		if t.what == "component" && (t.at == k-1 || t.at == k-2) {
			j := t.at
			for j > 0 && t.at-j < 2 && qualifiers[ws[j-1].low] {
				j--
			}
			var parts []string
			for _, w := range ws[j : t.at+1] {
				parts = append(parts, strings.ToLower(w.s))
			}
			return singular(strings.Join(parts, " "))
		}
	}
	return ""
}

// singular writes a component's plural type word in the singular: each
// name is one plugin.
func singular(s string) string {
	for _, p := range []string{"plugins", "providers", "drivers", "provisioners"} {
		if strings.HasSuffix(s, p) {
			return strings.TrimSuffix(s, "s")
		}
	}
	return s
}
