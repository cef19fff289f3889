package relnotes

import (
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The words of a sentence, as the effect rules (effects.go) read them.

// word is one word of a sentence: a run of characters between spaces, or
// a span in backticks or quotes (which may hold spaces: `kubectl run`).
type word struct {
	s    string // without backticks, quotes and the punctuation around it
	low  string // s in lower case
	code bool   // it stood in backticks or quotes
	// punct is the punctuation right after it that ends a clause or a
	// list item: ',', ';', ':', '.', ')' or 0.
	punct byte
	paren bool // it opens a parenthesis: "(the feature is GA)"
}

// maxWords bounds the words read of one sentence; the longest real
// sentences have about 120.
const maxWords = 160

// splitWords reads the words of one sentence; low is the sentence in
// lower case (asciiLower: the same length), which the words' low slice.
func splitWords(s string) []word {
	return appendWords(nil, s, asciiLower(s))
}

// appendWords appends the words of s, low its asciiLower, to out.
func appendWords(out []word, s, low string) []word {
	for i := 0; i < len(s) && len(out) < maxWords; {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		var w word
		start, from, to := i, 0, 0 // the word is s[from:to]
		switch {
		case c == '`':
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				i++
				continue
			}
			from, to, w.code = i+1, i+1+j, true
			i += j + 2
			if i < len(s) && isWordByte(s[i]) { // `GA`ed
				k := i
				for k < len(s) && isWordByte(s[k]) {
					k++
				}
				w.s = s[from:to] + s[i:k]
				w.low = asciiLower(w.s)
				i = k
			}
		case c == '"' || c == '\'' || strings.HasPrefix(s[i:], "“"):
			q, n := s[i:i+1], 1
			if c != '"' && c != '\'' {
				q, n = "”", len("“")
			}
			j := strings.Index(s[i+n:], q)
			if j > 0 && j <= 80 && !strings.Contains(s[i+n:i+n+j], ". ") {
				from, to, w.code = i+n, i+n+j, true
				i += n + j + len(q)
				break
			}
			i += n
			continue
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' && s[j] != '`' {
				j++
			}
			from, to = i, j
			i = j
		}
		if w.s == "" {
			for from < to && strings.IndexByte("([*_", s[from]) >= 0 {
				from++
			}
			if !w.code {
				to, w.punct = trimPunctAt(s, from, to)
			}
			w.s, w.low = s[from:to], low[from:to]
		}
		if start > 0 && s[start-1] == '(' || start < len(s) && s[start] == '(' {
			w.paren = true
		}
		if i < len(s) && w.punct == 0 {
			switch s[i] {
			case ',', ';', ':', ')':
				w.punct = s[i]
				i++
			case '.':
				if i+1 == len(s) || s[i+1] == ' ' {
					w.punct = '.'
					i++
				}
			}
		}
		if w.s == "" {
			if w.punct != 0 && len(out) > 0 && out[len(out)-1].punct == 0 {
				out[len(out)-1].punct = w.punct
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// asciiLower returns s with A-Z in lower case: the same length as s, so
// that a word's place in s is its place in the result.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// trimPunctAt is trimPunct of s[from:to]: it returns the new end.
func trimPunctAt(s string, from, to int) (int, byte) {
	t, p := trimPunct(s[from:to])
	return from + len(t), p
}

// trimPunct cuts the punctuation off the end of a word and says which
// of it ends a clause.
func trimPunct(s string) (string, byte) {
	var p byte
	for len(s) > 0 {
		c := s[len(s)-1]
		switch c {
		case ',', ';', ':', ')':
			if p == 0 || p == ')' || p == '.' {
				p = c
			}
		case '.', '!', '?':
			if p == 0 {
				p = '.'
			}
		case '*', '_', ']', '"', '\'':
		default:
			return s, p
		}
		s = s[:len(s)-1]
	}
	return s, p
}

// shape is what a word looks like it names.
type shape int

const (
	shapeNone       shape = iota
	shapeFlag             // --cloud-config, -v
	shapeAPIVersion       // resource.k8s.io/v1beta1, coordination.v1alpha1, v1alpha1
	shapeDomainPath       // seccomp.security.alpha.kubernetes.io/pod
	shapeSnake            // apiserver_storage_objects
	shapeUpperSnake       // KUBECTL_EXPLAIN_OPENAPIV3
	shapeCamel            // EtcdLearnerMode, FlowSchema
	shapeFieldPath        // spec.podOS, .status.hostIPs, nominalConcurrencyShares
	shapeKebab            // deleting-pods-qps, ecr-credential-provider
	shapeCommand          // kubectl run, kubeadm upgrade apply
	shapeLowerWord        // a lone lower-case word in backticks: userspace
)

// shapeOf says what w looks like it names; shapeNone for a word of the
// sentence.
func shapeOf(w word) shape {
	s := w.s
	switch {
	case s == "" || len(s) > maxNameBytes:
		return shapeNone
	case strings.HasPrefix(s, "--") && len(s) > 3 && isLowerAlnum(s[2]) && !strings.ContainsAny(s, " \t") || strings.HasPrefix(s, "--") && w.code && len(s) > 3 && isLowerAlnum(s[2]):
		return shapeFlag
	case w.code && len(s) >= 2 && s[0] == '-' && isLowerAlnum(s[1]) && !strings.ContainsAny(s, " /"):
		return shapeFlag
	case isAPIVersion(s):
		return shapeAPIVersion
	}
	if strings.ContainsAny(s, " \t") {
		if w.code && (strings.HasPrefix(w.low, "kubectl ") || strings.HasPrefix(w.low, "kubeadm ")) && !strings.Contains(s, "--") {
			return shapeCommand
		}
		return shapeNone
	}
	if strings.HasPrefix(s, "http") || strings.ContainsAny(s, "()<>{}=$,@") {
		return shapeNone
	}
	hasUpper, hasLower, hasUnder, hasDot, hasSlash, hasDash := false, false, false, false, false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			hasUpper = true
		case c >= 'a' && c <= 'z':
			hasLower = true
		case c == '_':
			hasUnder = true
		case c == '.':
			hasDot = true
		case c == '/':
			hasSlash = true
		case c == '-':
			hasDash = true
		case c >= '0' && c <= '9':
		case c == '[' || c == ']' || c == '*' || c == '"':
		default:
			return shapeNone
		}
	}
	if !hasUpper && !hasLower {
		return shapeNone // a number, a release
	}
	switch {
	case hasSlash && hasDot && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, ".") && !goModule(s):
		return shapeDomainPath
	case hasSlash:
		return shapeNone
	case hasUnder && !hasUpper && hasLower && !hasDot && !hasDash:
		return shapeSnake
	case hasUnder && hasUpper && !hasLower && !hasDot && !hasDash:
		return shapeUpperSnake
	case hasDot && w.code && !hasDash && !hasUnder:
		return shapeFieldPath
	case looksGate(s) && (w.code || knowledge.InnerCapital(s)):
		return shapeCamel
	case w.code && hasUpper && hasLower && s[0] >= 'a' && s[0] <= 'z' && !hasDash && !hasUnder:
		return shapeFieldPath
	case hasDash && hasLower && !hasUpper && !hasDot && s[0] != '-' && (w.code || components[w.low] != ""):
		return shapeKebab
	case w.code && hasLower && !hasUpper && !hasDot && !hasUnder:
		return shapeLowerWord
	}
	return shapeNone
}

// goModule reports whether s is a Go module's path, not an annotation:
// k8s.io/code-generator, sigs.k8s.io/yaml, github.com/x/y.
func goModule(s string) bool {
	for _, p := range []string{"k8s.io/", "sigs.k8s.io/", "github.com/", "golang.org/", "go.etcd.io/", "google.golang.org/", "gopkg.in/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// looksGate reports whether s is written like a feature gate or a kind:
// an upper-case letter first, then letters and digits, a lower-case
// letter among them.
func looksGate(s string) bool {
	if len(s) < 3 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	lower := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return lower
}

// isAPIVersion reports whether s is an API group/version
// ("resource.k8s.io/v1beta1", "policy/v1beta1", "coordination.v1alpha1")
// or a pre-release version alone ("v1alpha1").
func isAPIVersion(s string) bool {
	if g, v, ok := strings.Cut(s, "/"); ok {
		if v2, kind, ok := strings.Cut(v, "/"); ok && looksGate(kind) { // resource.k8s.io/v1beta1/ResourceClaim
			v = v2
		}
		if g == "" || strings.ContainsAny(g, "_ ") || g[0] < 'a' || g[0] > 'z' || strings.Contains(v, "/") {
			return false
		}
		return isVersion(v, true)
	}
	if i := strings.LastIndex(s, ".v"); i > 0 {
		if _, ok := shortGroups[s[:i]]; ok {
			return isVersion(s[i+1:], true)
		}
		return false
	}
	return isVersion(s, false)
}

// isVersion reports whether s is v1, v2beta1 or v1alpha3; a GA version
// alone (v1) only when ga is set.
func isVersion(s string, ga bool) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '1' || s[1] > '9' {
		return false
	}
	i := 2
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == len(s) {
		return ga
	}
	rest := s[i:]
	for _, p := range []string{"alpha", "beta"} {
		if n, ok := strings.CutPrefix(rest, p); ok {
			return n != "" && strings.Trim(n, "0123456789") == "" && n[0] != '0'
		}
	}
	return false
}

// components maps the words the notes call Kubernetes' programs by to
// their names.
var components = map[string]string{
	"kube-apiserver": "kube-apiserver", "apiserver": "kube-apiserver", "api-server": "kube-apiserver",
	"kube-controller-manager": "kube-controller-manager", "kcm": "kube-controller-manager",
	"kube-scheduler": "kube-scheduler", "scheduler": "kube-scheduler",
	"kubelet": "kubelet", "kubelets": "kubelet",
	"kube-proxy": "kube-proxy", "kubectl": "kubectl", "kubeadm": "kubeadm",
	"cloud-controller-manager": "cloud-controller-manager", "kccm": "cloud-controller-manager",
	"client-go": "client-go", "cadvisor": "cAdvisor", "kustomize": "kustomize", "kubeletplugin": "kubelet plugin",
}

// componentOf returns the program a word names ("kubelet's" is kubelet).
func componentOf(w word) (string, bool) {
	low := strings.TrimSuffix(strings.TrimSuffix(w.low, "'s"), "’s")
	c, ok := components[low]
	return c, ok
}

// typeWords maps the words that say what sort of thing a name is to it.
var typeWords = map[string]string{
	"gate": "gate", "gates": "gate", "feature-gate": "gate", "feature-gates": "gate", "featuregate": "gate", "featuregates": "gate",
	"feature": "feature", "features": "feature",
	"flag": "flag", "flags": "flag", "option": "flag", "options": "flag", "parameter": "flag", "parameters": "flag", "argument": "flag", "arguments": "flag",
	"metric": "metric", "metrics": "metric",
	"field": "field", "fields": "field",
	"annotation": "annotation", "annotations": "annotation", "label": "annotation", "labels": "annotation",
	"command": "command", "commands": "command", "subcommand": "command", "subcommands": "command",
	"subphase": "command", "subphases": "command",
	"plugin": "component", "plugins": "component", "provider": "component", "providers": "component",
	"driver": "component", "drivers": "component", "provisioner": "component", "mode": "component",
	"variable": "env", "variables": "env",
	"api": "api", "apis": "api",
	// Words for things of no type here: a name beside them is none of the above.
	"sysctl": "other", "function": "other", "functions": "other", "method": "other", "methods": "other",
	"package": "other", "packages": "other", "script": "other", "scripts": "other", "endpoint": "other",
	"endpoints": "other", "condition": "other", "conditions": "other", "struct": "other", "helper": "other",
	"callback": "other", "callbacks": "other", "column": "other", "rule": "other", "rules": "other",
	"event": "other", "events": "other", "value": "other", "values": "other", "profile": "other",
	"profiles": "other", "taint": "other", "taints": "other", "test": "other", "tests": "other",
	"directory": "other", "file": "other", "files": "other", "image": "other", "images": "other",
	"type": "other", "types": "other", "policy": "other", "repo": "other", "repository": "other",
	"library": "other", "module": "other", "binary": "other", "certificate": "other", "phase": "command",
	"phases": "command", "extension": "other", "status": "other", "reason": "other",
}

// notNames are words in backticks that are no thing's name: stages.
var notNames = map[string]bool{"GA": true, "GAed": true, "GAd": true, "Alpha": true, "Beta": true, "Stable": true,
	"BETA": true, "ALPHA": true, "STABLE": true, "Deprecated": true}

// stopWords end the words an action is read of: what follows says why,
// when, or what else happened.
var stopWords = map[string]bool{
	"which": true, "that": true, "since": true, "because": true, "as": true, "so": true, "instead": true,
	"when": true, "if": true, "until": true, "after": true, "before": true, "while": true, "where": true,
	"unless": true, "due": true, "with": true, "by": true, "please": true, "use": true, "now": true,
	"is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "will": true, "can": true,
	"should": true, "must": true, "would": true, "could": true, "may": true, "might": true, "does": true,
	"do": true, "did": true, "in": true, "from": true, "to": true, "on": true, "into": true, "via": true,
	"because of": true, "but": true, "than": true, "without": true, "at": true, "through": true, "per": true,
}

// fillers are the words before a name that say nothing of what it is.
var fillers = map[string]bool{
	"the": true, "a": true, "an": true, "all": true, "deprecated": true, "unused": true, "legacy": true, "old": true,
	"alpha": true, "beta": true, "ga": true, "gaed": true, "ga'd": true, "ga'ed": true, "generally": true, "general": true,
	"available": true, "following": true, "these": true, "those": true, "its": true, "their": true, "this": true,
	"new": true, "obsolete": true, "dead": true, "redundant": true, "stable": true, "remaining": true, "existing": true,
	"some": true, "two": true, "three": true, "several": true, "about": true, "for": true, "support": true, "of": true,
	"no-op": true, "previously": true, "now": true, "temporary": true, "experimental": true, "locked": true,
}
