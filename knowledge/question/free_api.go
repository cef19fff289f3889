package question

import (
	"context"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/kepbot/kepbot/knowledge"
)

// APISource gives the API lifecycle table whose kinds a Reader knows by
// name. *knowledge.Engine is one (Engine.APIs).
type APISource interface {
	APIs(ctx context.Context) (*knowledge.APITable, error)
}

// apiKinds is the kinds of one table, lower case to spelling.
type apiKinds struct {
	table *knowledge.APITable
	kinds map[string]string
}

// commonKinds are kinds that are also everyday words: named without
// "api" or "apiVersion" near them, they are not taken for a kind.
var commonKinds = map[string]bool{
	"event": true, "service": true, "role": true, "binding": true, "scale": true, "status": true, "list": true,
	"secret": true, "node": true, "pod": true, "job": true, "lease": true, "endpoints": true, "namespace": true,
	"eviction": true, "workload": true, "policy": true, "review": true, "token": true, "class": true,
}

// apiCues are the words that make a question about an API's lifecycle.
var apiCues = []string{"removed", "remove", "removal", "deprecated", "deprecate", "deprecation", "served", "serve", "serving",
	"still", "supported", "gone", "dropped", "api", "apis", "apiversion", "移除", "删除", "弃用", "废弃", "下线", "还能用", "支持", "可用"}

// readAPIFree reads chat text that asks about an API's lifecycle: it
// names a group/version ("is batch/v1beta1 still served in 1.24"), or an
// API kind together with a word of lifecycle ("when was PodSecurityPolicy
// removed", "PodSecurityPolicy 什么时候移除的"). ok is false for any other
// text, which the rest of the reader then reads.
func readAPIFree(text string, kinds map[string]string) (knowledge.Question, bool) {
	if len(text) > 4*MaxRunes {
		return knowledge.Question{}, false
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
	var gv, kind string
	var at knowledge.Version
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/' || r == '.' || r == '-') || unicode.Is(unicode.Han, r)
	}) {
		w = strings.Trim(w, ".-/")
		switch {
		case strings.Contains(w, "/"):
			if _, _, ok := knowledge.ParseAPIVersion(w); ok && gv == "" {
				gv = w
			}
		case looksVersion(strings.ToLower(w)):
			if v, err := knowledge.ParseVersion(w); err == nil && at.IsZero() {
				at = v
			}
		default:
			if k, ok := kinds[strings.ToLower(w)]; ok && kind == "" && (explicit || (cue && kindWritten(w, k))) {
				kind = k
			}
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

// kindsOf returns the kinds of src's table by lower-case name, built once
// per table; nil without a source or when it fails.
func (r *Reader) kindsOf(ctx context.Context) map[string]string {
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
		return k.kinds
	}
	m := map[string]string{}
	for _, k := range t.Kinds() {
		m[strings.ToLower(k)] = k
	}
	r.kinds.Store(&apiKinds{table: t, kinds: m})
	return m
}

// kindsCache is the Reader's field for kindsOf.
type kindsCache = atomic.Pointer[apiKinds]
