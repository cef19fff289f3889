package relnotes

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// What an action acts on: the things its words name, typed.

// thing is what a clause names: a thing of some sort, with its name.
type thing struct {
	what  knowledge.EffectWhat
	name  string
	kinds []string
	of    string
	rep   string // what replaces it, as a list item says
}

// ownerIn returns the program the words name as the owner of what they
// name: "kubelet's", "the kube-controller-manager's", "API server's",
// "Kubelet flag", "from `kube-scheduler`".
func ownerIn(ws []word) string {
	for k, w := range ws {
		if w.low == "api" && k+1 < len(ws) && strings.HasPrefix(ws[k+1].low, "server") {
			return "kube-apiserver"
		}
		if c, ok := componentOf(w); ok {
			return c
		}
	}
	return ""
}

// programAt returns the program or command named at k (past "the"):
// "kubectl", "`kubectl run`".
func programAt(ws []word, k int) (string, bool) {
	if k < len(ws) && ws[k].low == "the" {
		k++
	}
	if k >= len(ws) {
		return "", false
	}
	if shapeOf(ws[k]) == shapeCommand {
		return ws[k].s, true
	}
	if ws[k].low == "api" && k+1 < len(ws) && strings.HasPrefix(ws[k+1].low, "server") {
		return "kube-apiserver", true
	}
	return componentOf(ws[k])
}

// releaseAt reads a release at k: "v1.28", "1.28", "`v1.28`".
func releaseAt(ws []word, k int) (knowledge.Version, bool) {
	if k < len(ws) && (ws[k].low == "kubernetes" || ws[k].low == "the") {
		k++
	}
	if k >= len(ws) {
		return knowledge.Version{}, false
	}
	s := strings.TrimPrefix(ws[k].low, "v")
	if !strings.HasPrefix(s, "1.") {
		return knowledge.Version{}, false
	}
	v, err := knowledge.ParseVersion(s)
	return v, err == nil
}

// releaseAfter reads "in v1.28" or "since 1.28" at k.
func releaseAfter(ws []word, k int) (knowledge.Version, bool) {
	if k < len(ws) && (ws[k].low == "in" || ws[k].low == "since") {
		return releaseAt(ws, k+1)
	}
	return knowledge.Version{}, false
}

// things types the names in ws (see effects.go), the words an action
// acts on: a CamelCase name no type word types is a feature when the
// action graduates it or changes its default; an unnamed flag, metric or
// component is described only when it is removed or deprecated.
func (sr *sentenceReader) things(ws []word, action knowledge.EffectAction) []thing {
	types := typeWordsIn(ws)
	var out []thing
	named := map[string]bool{}
	owner := ""
	for k := 0; k < len(ws); k++ {
		w := ws[k]
		sh := shapeOf(w)
		if sh == shapeNone || isValue(w.s) || notNames[w.s] {
			continue
		}
		if k > 0 && context[ws[k-1].low] && !(k > 1 && ws[k-2].low == "support") && action != knowledge.EffectRemoved && action != knowledge.EffectDeprecated {
			continue // "for the `X` feature", "behind the `X` gate": what it is for, not what changed
		}
		if sh == shapeCamel && !w.code && !typeBeside(ws, types, k) && !(len(types) == 0 && onlyContent(ws, k)) {
			continue // a capitalised word of the sentence
		}
		if _, ok := componentOf(w); ok {
			continue // a program, the owner (ownerIn), not a thing
		}
		if k > 0 && !ws[k-1].code {
			switch ws[k-1].low {
			case "for", "of", "to", "in", "from", "on", "with":
				if sh == shapeCommand {
					owner = w.s
					continue
				}
			}
		}
		t, ok := typeName(ws, w, sh, k, types)
		if !ok && sh == shapeCamel && len(types) == 0 && (action == knowledge.EffectGraduated || action == knowledge.EffectDefault) && (w.code || onlyContent(ws, k)) {
			t, ok = thing{what: knowledge.EffectFeature, name: w.s}, true
		}
		if !ok {
			continue
		}
		if t.what == knowledge.EffectAPI {
			for j := k + 1; j < len(ws); j++ {
				if shapeOf(ws[j]) == shapeCamel && !isTypeWordish(ws[j]) {
					t.kinds = append(t.kinds, ws[j].s)
					k = j
					continue
				}
				if ws[j].low == "and" {
					continue
				}
				break
			}
		}
		if t.what == knowledge.EffectComponent {
			t.name = strings.TrimSpace(t.name + " " + typePhrase(ws, types, k))
		}
		if t.what == knowledge.EffectAPI && strings.Contains(t.name, "/") {
			t.name = normGV(t.name)
		}
		named[string(t.what)] = true
		out = append(out, t)
	}
	if (action == knowledge.EffectRemoved || action == knowledge.EffectDeprecated || action == knowledge.EffectDefault) && len(out) == 0 {
		for _, ta := range types {
			switch ta.what {
			case "component", "flag", "metric":
				if action == knowledge.EffectDefault && ta.what != "component" {
					continue
				}
				if named[ta.what] {
					continue
				}
				if name := describe(ws, ta.at); name != "" {
					named[ta.what] = true
					out = append(out, thing{what: knowledge.EffectWhat(ta.what), name: name})
				}
			}
		}
	}
	if owner != "" {
		for i := range out {
			if out[i].of == "" && out[i].what != knowledge.EffectCommand {
				out[i].of = owner
			}
		}
	}
	return out
}

// describe names an unnamed thing by the words before its type word at
// k, from the first that is not a filler: "the iptables CLI wait interval
// flag" is "iptables CLI wait interval"; a component keeps its type word
// and a "for X" after it ("in-tree cloud provider for Azure").
func describe(ws []word, k int) string {
	s := k
	for s > 0 && k-s < 5 && !fillers[ws[s-1].low] && !stopWords[ws[s-1].low] && ws[s-1].punct == 0 && shapeOf(ws[s-1]) == shapeNone &&
		ws[s-1].low != "and" && ws[s-1].low != "or" && typeWords[ws[s-1].low] == "" && !ws[s-1].paren {
		if _, ok := componentOf(ws[s-1]); ok && !qualifiers[ws[s-1].low] {
			break
		}
		if _, verb := verbs[ws[s-1].low]; verb {
			break
		}
		s--
	}
	what := typeWords[ws[k].low]
	var parts []string
	for _, w := range ws[s:k] {
		parts = append(parts, w.s)
	}
	if what != "component" {
		if len(parts) == 0 {
			return ""
		}
		return strings.Join(parts, " ")
	}
	parts = append(parts, ws[k].s)
	if k+2 < len(ws) && ws[k+1].low == "for" && ws[k].punct == 0 && ws[k+2].s != "" && ws[k+2].s[0] >= 'A' && ws[k+2].s[0] <= 'Z' {
		parts = append(parts, "for", ws[k+2].s)
	} else if k+1 < len(ws) && ws[k].punct == 0 && !fillers[ws[k+1].low] && !stopWords[ws[k+1].low] && typeWords[ws[k+1].low] == "" && !ws[k+1].code && !ws[k+1].paren &&
		ws[k+1].low != "support" && ws[k+1].low != "and" && (k+2 == len(ws) || ws[k+2].low == "support") {
		parts = append(parts, ws[k+1].s) // "the intree volume plugin flocker [support]"
	}
	if len(parts) < 2 {
		return ""
	}
	return strings.Join(parts, " ")
}
