package question

import (
	"context"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// APISource gives the API lifecycle table whose kinds a Reader knows by
// name. *engine.Engine is one (Engine.APIs).
type APISource interface {
	APIs(ctx context.Context) (*knowledge.APITable, error)
}

// apiKinds is the names one table knows: its kinds, lower case to
// spelling, and its group/versions by a group's first label and a version
// ("flowcontrol v1beta3" to flowcontrol.apiserver.k8s.io/v1beta3), for the
// groups no other group shares a first label with.
type apiKinds struct {
	table    *knowledge.APITable
	kinds    map[string]string
	shortGVs map[string]string
}

// commonKinds are kinds that are also everyday words: named without
// "api" or "apiVersion" near them, they are not taken for a kind.
var commonKinds = map[string]bool{
	"event": true, "service": true, "role": true, "binding": true, "scale": true, "status": true, "list": true,
	"secret": true, "node": true, "pod": true, "job": true, "lease": true, "endpoints": true, "namespace": true,
	"eviction": true, "workload": true, "policy": true, "review": true, "token": true, "class": true,
}

// apiCues are the words that make a question about an API's lifecycle
// (traditional Chinese as written: the text is read as typed).
var apiCues = []string{"removed", "remove", "removal", "deprecated", "deprecate", "deprecation", "served", "serve", "serving",
	"still", "supported", "gone", "dropped", "api", "apis", "apiversion", "移除", "删除", "删掉", "弃用", "废弃", "下线",
	"还能用", "支持", "可用", "還能用", "刪除", "刪掉", "棄用", "廢棄", "支援", "下線", "停用", "还有", "還有"}

// kindAliases are the short names people give API kinds in chat, lower
// case: PSP is PodSecurityPolicy. Like a kind written with its capitals,
// an alias is a kind only with a word of lifecycle near it.
var kindAliases = map[string]string{
	"psp": "PodSecurityPolicy", "psps": "PodSecurityPolicy", "hpa": "HorizontalPodAutoscaler", "hpas": "HorizontalPodAutoscaler",
	"pdb": "PodDisruptionBudget", "pdbs": "PodDisruptionBudget", "crd": "CustomResourceDefinition", "crds": "CustomResourceDefinition",
	"csr": "CertificateSigningRequest", "csrs": "CertificateSigningRequest", "pvc": "PersistentVolumeClaim", "pvcs": "PersistentVolumeClaim",
	"netpol": "NetworkPolicy", "sts": "StatefulSet", "cronjobs": "CronJob", "ingresses": "Ingress",
}

// readAPIFree reads chat text that asks about an API's lifecycle: it
// names a group/version ("is batch/v1beta1 still served in 1.24"; a group
// by its first label, "flowcontrol v1beta3", when shortGVs knows it), or an
// API kind together with a word of lifecycle ("when was PodSecurityPolicy
// removed", "PodSecurityPolicy 什么时候移除的", "when was PSP removed"). A
// kind written with its capitals and misspelt by a little (not a feature
// gate v knows) is kept as written, for Reader.mended to offer the kinds
// near it. ok is false for any other text, which the rest of the reader
// then reads.
func readAPIFree(text string, kinds, shortGVs map[string]string, v *Vocabulary) (knowledge.Question, bool) {
	if len(text) > 4*MaxRunes || len(kinds) == 0 && !strings.Contains(text, "/") {
		return knowledge.Question{}, false
	}
	var gv string
	var at knowledge.Version
	var maybe [4]string // words that may name a kind: they decide with the cues
	n := 0
	prev := ""
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/' || r == '.' || r == '-') || unicode.Is(unicode.Han, r)
	}) {
		w = strings.Trim(w, ".-/")
		last := prev
		prev = strings.ToLower(w)
		if full, ok := shortGVs[last+" "+prev]; ok && gv == "" && last != "" {
			gv = full // flowcontrol v1beta3: flowcontrol.apiserver.k8s.io/v1beta3
			continue
		}
		switch {
		case strings.Contains(w, "/"):
			if _, _, ok := knowledge.ParseAPIVersion(w); ok && gv == "" {
				gv = w
			}
		case looksVersion(strings.ToLower(w)):
			if v, err := knowledge.ParseVersion(w); err == nil && at.IsZero() {
				at = v
			}
		case n < len(maybe) && mayBeKind(w, kinds):
			maybe[n] = w
			n++
		}
	}
	if gv == "" && n == 0 {
		return knowledge.Question{}, false // most questions: no API in them
	}
	low := strings.ToLower(text)
	cue := false
	for _, c := range apiCues {
		if containsWord(low, c) {
			cue = true
			break
		}
	}
	explicit := containsWord(low, "api") || containsWord(low, "apiversion")
	kind := ""
	for _, w := range maybe[:n] {
		if kind = kindOf(w, kinds, explicit, cue, v); kind != "" {
			break
		}
	}
	words := gv
	switch {
	case gv != "" && kind != "":
		words = gv + " " + kind
	case gv == "" && kind != "":
		words = kind
	case gv == "":
		return knowledge.Question{}, false
	}
	return knowledge.Question{Kind: knowledge.AskAPI, Words: words, Version: at, Text: strings.Join(strings.Fields(text), " "), Free: true}, true
}

// mayBeKind reports whether w may name an API kind, cues aside: a kind of
// kinds, its plural, an alias, or a word written with a capital that a
// misspelt kind may be.
func mayBeKind(w string, kinds map[string]string) bool {
	if len(kinds) == 0 || len(w) < 2 || !isLetters(w) {
		return false // U024BE7LH, of a mention: no kind
	}
	if isASCIIUpper(w[0]) {
		if len(w) >= 4 {
			return true // CronJob, PodSecurityPolcy: kindOf reads it
		}
		w = strings.ToLower(w) // PSP, HPA
	}
	_, kind := kinds[w]
	_, alias := kindAliases[w]
	_, plural := singularKind(w, kinds)
	return kind || alias || plural
}

// isLetters reports whether w is ASCII letters only.
func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isASCIILetter(w[i]) {
			return false
		}
	}
	return true
}

func isASCIIUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// kindOf is the API kind word w names in a question, "" for none: a kind
// of kinds, its plural (CronJobs), an alias (PSP), or, as written, a kind
// misspelt with its capitals (PodSecurityPolcy) that no feature gate of v
// is spelt like. explicit says the question says "api"; cue, that it says
// a word of lifecycle.
func kindOf(w string, kinds map[string]string, explicit, cue bool, v *Vocabulary) string {
	lw := strings.ToLower(w)
	if k, ok := kinds[lw]; ok {
		if explicit || (cue && kindWritten(w, k)) {
			return k
		}
		return ""
	}
	if k, ok := singularKind(w, kinds); ok && (explicit || cue && kindWritten(w, k)) {
		return k // CronJobs
	}
	if k, ok := kindAliases[lw]; ok && (explicit || cue) {
		if _, known := kinds[strings.ToLower(k)]; known {
			return k
		}
	}
	// Misspelt: written with its capitals, next to "api" (api Ingres) or a
	// word of lifecycle (PodSecurityPolcy 什么时候移除的).
	if !(camelWord(w) && (explicit || cue) || explicit && len(w) >= 4 && unicode.IsUpper(rune(w[0]))) {
		return ""
	}
	near := nearKinds(w, kinds)
	if len(near) == 0 {
		return ""
	}
	if _, spelt, gate := v.gateNamed(w); gate && !explicit && !strings.EqualFold(spelt, near[0]) {
		return "" // SidecarContainers: a feature, by its gate
	}
	return w // PodDisruptonBudget: misspelt, the kinds near it are offered (Reader.mended)
}

// camelWord reports whether w is written like a Go name of two words or
// more: letters and digits, a capital first and another after.
func camelWord(w string) bool {
	return len(w) >= 4 && isGateName(w) && unicode.IsUpper(rune(w[0])) && strings.IndexFunc(w[1:], unicode.IsUpper) >= 0 &&
		strings.IndexFunc(w, unicode.IsLower) >= 0
}

// kindWritten reports whether w names the kind spelt k by itself: written
// with its capitals (ingress is a word; Ingress a kind) and not an
// everyday word, or with two capitals or more (PodSecurityPolicy).
func kindWritten(w, k string) bool {
	capitals := 0
	for _, r := range w {
		if unicode.IsUpper(r) {
			capitals++
		}
	}
	if capitals >= 2 {
		return true
	}
	return w == k && !commonKinds[strings.ToLower(k)]
}

// containsWord reports whether low holds w as a word (Han words anywhere).
func containsWord(low, w string) bool {
	for i := 0; ; {
		j := strings.Index(low[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if unicode.Is(unicode.Han, []rune(w)[0]) {
			return true
		}
		before := start == 0 || !isWordByte(low[start-1])
		after := end == len(low) || !isWordByte(low[end])
		if before && after {
			return true
		}
		i = end
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_'
}

// kindsOf returns the kinds of src's table by lower-case name (see
// apiNames); nil without a source or when it fails.
func (r *Reader) kindsOf(ctx context.Context) map[string]string {
	if n := r.apiNames(ctx); n != nil {
		return n.kinds
	}
	return nil
}

// apiNames returns the names of src's table, built once per table; nil
// without a source or when it fails.
func (r *Reader) apiNames(ctx context.Context) *apiKinds {
	if r == nil || r.src == nil {
		return nil
	}
	src, ok := r.src.(APISource)
	if !ok {
		return nil
	}
	t, err := src.APIs(ctx)
	if err != nil || t == nil || !t.Known() {
		return nil
	}
	if k := r.kinds.Load(); k != nil && k.table == t {
		return k
	}
	n := &apiKinds{table: t, kinds: map[string]string{}, shortGVs: map[string]string{}}
	for _, k := range t.Kinds() {
		n.kinds[strings.ToLower(k)] = k
	}
	short := map[string]string{} // a first label to its one group, "" when several share it
	for _, l := range t.All() {
		g := strings.ToLower(l.API.Group)
		label, _, _ := strings.Cut(g, ".")
		if other, ok := short[label]; label != "" && (!ok || other == g) {
			short[label] = g
		} else if label != "" {
			short[label] = ""
		}
	}
	for _, l := range t.All() {
		g := strings.ToLower(l.API.Group)
		if label, _, _ := strings.Cut(g, "."); g != "" && short[label] == g {
			n.shortGVs[label+" "+strings.ToLower(l.API.Version)] = l.API.Group + "/" + l.API.Version
		}
	}
	r.kinds.Store(n)
	return n
}

// kindsCache is the Reader's field for kindsOf.
type kindsCache = atomic.Pointer[apiKinds]
