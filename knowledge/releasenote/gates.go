package releasenote

import (
	"regexp"
	"strings"
)

// Feature gates are read only where the note says a name is one. A
// CamelCase word alone is not enough: notes name API kinds, fields, plugins
// and admission controllers the same way. A name is a gate when it is
//
//   - next to a gate word (特性门控, 特征门控, 功能门控, feature gate), alone or
//     in a run joined by 、 和 与 及 or commas: "`A` 和 `B` 特性门控",
//     "特性门控 A、B", the last of a run that another noun follows ("特性门控 A
//     和 B 准入插件") being that noun's, not a gate;
//   - set in --feature-gates=Name=value;
//   - right after 功能 ("功能 MinimizeIPTablesRestore"), unless the clause says
//     the feature depends on it (依赖);
//   - the subject a clause opens with, when that clause names a gate word
//     ("X 外部云供应商特性门控已被删除").
const (
	gateName = "`?([A-Z][A-Za-z0-9]{2,80})`?"
	gateJoin = `\s*(?:、|和|与|及|,|and)\s*`
	gateWord = `(?:特性门控|特征门控|功能门控|[Ff]eature[ -]?[Gg]ates?)`
)

var (
	reGateRun     = regexp.MustCompile(gateName + `(?:` + gateJoin + gateName + `)*`)
	reGateWord    = regexp.MustCompile(gateWord)
	reGateAfter   = regexp.MustCompile(gateWord + `\s*[:：]?\s*(` + "`?[A-Z][A-Za-z0-9]{2,80}`?" + `(?:` + gateJoin + "`?[A-Z][A-Za-z0-9]{2,80}`?" + `)*)(\s*(?:准入插件|插件|字段|标志|参数|控制器|环境变量|admission|plugin|API))?`)
	reGateBefore  = regexp.MustCompile("(`?[A-Z][A-Za-z0-9]{2,80}`?" + `(?:` + gateJoin + "`?[A-Z][A-Za-z0-9]{2,80}`?" + `)*)\s*` + gateWord)
	reGateFlag    = regexp.MustCompile(`--feature-gates[= ]\s*((?:[A-Za-z0-9]+=[A-Za-z0-9]+,?)+)`)
	reGateFeature = regexp.MustCompile(`功能\s*` + "`?([A-Z][A-Za-z0-9]{2,80})`?")
	reGateName    = regexp.MustCompile(gateName)
)

// gateLike reports whether s looks like a feature gate name: CamelCase
// letters and digits with at least two capitals and one small letter
// ("NFTablesProxyMode", "KMSv2"), not "APPS", "Alpha2" or "Sidecar".
func gateLike(s string) bool {
	if len(s) < 4 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	upper, lower := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return upper >= 2 && lower >= 1
}

// featureGates returns the feature gates text names, in order, without repeats.
func featureGates(text string) []string {
	var out []string
	add := func(names ...string) {
		for _, n := range names {
			n = strings.Trim(n, "`")
			if gateLike(n) && !hasString(out, n) {
				out = append(out, n)
			}
		}
	}
	type hit struct {
		pos   int
		names []string
	}
	var hits []hit
	for _, m := range reGateAfter.FindAllStringSubmatchIndex(text, -1) {
		names := runNames(text[m[2]:m[3]])
		if m[4] >= 0 && len(names) > 0 {
			names = names[:len(names)-1] // "特性门控 A 和 B 准入插件": B is the plugin
		}
		hits = append(hits, hit{m[2], names})
	}
	for _, m := range reGateBefore.FindAllStringSubmatchIndex(text, -1) {
		hits = append(hits, hit{m[2], runNames(text[m[2]:m[3]])})
	}
	for _, m := range reGateFlag.FindAllStringSubmatchIndex(text, -1) {
		var names []string
		for _, kv := range strings.Split(text[m[2]:m[3]], ",") {
			if k, _, ok := strings.Cut(kv, "="); ok {
				names = append(names, k)
			}
		}
		hits = append(hits, hit{m[2], names})
	}
	for _, m := range reGateFeature.FindAllStringSubmatchIndex(text, -1) {
		if !strings.Contains(clauseAt(text, m[0]), "依赖") {
			hits = append(hits, hit{m[2], []string{text[m[2]:m[3]]}})
		}
	}
	pos := 0
	for _, c := range clauses(text) {
		i := strings.Index(text[pos:], c)
		if i >= 0 {
			i += pos
			pos = i + len(c)
		}
		c = strings.TrimLeft(c, " *_")
		if !reGateWord.MatchString(c) {
			continue
		}
		if m := reGateName.FindStringSubmatchIndex(c); m != nil && m[0] == 0 {
			hits = append(hits, hit{max(i, 0), []string{c[m[2]:m[3]]}})
		}
	}
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].pos < hits[j-1].pos; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	for _, h := range hits {
		add(h.names...)
	}
	return out
}

// runNames splits a run of names joined by 、 和 commas into the names.
func runNames(run string) []string {
	var out []string
	for _, m := range reGateRun.FindAllStringSubmatch(run, -1) {
		for _, n := range reGateName.FindAllStringSubmatch(m[0], -1) {
			out = append(out, n[1])
		}
	}
	return out
}

// clauseAt returns the clause of text that contains byte offset i.
func clauseAt(text string, i int) string {
	start := strings.LastIndexAny(text[:i], "，。；,;\n") + 1
	end := strings.IndexAny(text[i:], "，。；,;\n")
	if end < 0 {
		return text[start:]
	}
	return text[start : i+end]
}

func hasString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
