package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"sort"
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
	reGateRun  = lazyre.New(gateName + `(?:` + gateJoin + gateName + `)*`)
	reGateWord = lazyre.New(gateWord)
	// reGateAfter reads the run of names right after a gate word, and the
	// noun that may follow it.
	reGateAfter   = lazyre.New(`^\s*[:：]?\s*(` + "`?[A-Z][A-Za-z0-9]{2,80}`?" + `(?:` + gateJoin + "`?[A-Z][A-Za-z0-9]{2,80}`?" + `)*)(\s*(?:准入插件|插件|字段|标志|参数|控制器|环境变量|admission|plugin|API))?`)
	reGateFlag    = lazyre.New(`--feature-gates[= ]\s*((?:[A-Za-z0-9]+=[A-Za-z0-9]+,?)+)`)
	reGateFeature = lazyre.New(`功能\s*` + "`?([A-Z][A-Za-z0-9]{2,80})`?")
	reGateName    = lazyre.New(gateName)
)

// gateWindow is how far around a gate word a run of names is looked for.
const gateWindow = 800

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

// gateHit is a run of names found at a byte offset; hits are ordered by it.
type gateHit struct {
	pos   int
	names []string
}

// featureGates returns the feature gates text names, in order, without repeats.
func featureGates(text string) []string {
	words := gateWords(text)
	hasFlag, hasFeature := strings.Contains(text, "--feature-gates"), strings.Contains(text, "功能")
	if len(words) == 0 && !hasFlag && !hasFeature {
		return nil
	}
	var hits []gateHit
	for _, w := range words {
		hits = append(hits, gatesAround(text, w)...)
	}
	if hasFlag {
		for _, m := range reGateFlag().FindAllStringSubmatchIndex(text, -1) {
			var names []string
			for _, kv := range strings.Split(text[m[2]:m[3]], ",") {
				if k, _, ok := strings.Cut(kv, "="); ok {
					names = append(names, k)
				}
			}
			hits = append(hits, gateHit{m[2], names})
		}
	}
	if hasFeature {
		for _, m := range reGateFeature().FindAllStringSubmatchIndex(text, -1) {
			if !strings.Contains(clauseAt(text, m[0]), "依赖") {
				hits = append(hits, gateHit{m[2], []string{text[m[2]:m[3]]}})
			}
		}
	}
	if len(words) > 0 {
		hits = append(hits, clauseSubjects(text)...)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].pos < hits[j].pos })
	var out []string
	for _, h := range hits {
		for _, n := range h.names {
			n = strings.Trim(n, "`")
			if gateLike(n) && !hasString(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// gatesAround reads the runs of names right after and right before the gate
// word at w. The last name of a run after it that another noun follows
// ("特性门控 A 和 B 准入插件") is that noun's, not a gate.
func gatesAround(text string, w [2]int) []gateHit {
	var hits []gateHit
	after := text[w[1]:min(len(text), w[1]+gateWindow)]
	if m := reGateAfter().FindStringSubmatchIndex(after); m != nil {
		names := runNames(after[m[2]:m[3]])
		if m[4] >= 0 && len(names) > 0 {
			names = names[:len(names)-1]
		}
		hits = append(hits, gateHit{w[1] + m[2], names})
	}
	if start, names := runBefore(text, w[0]); len(names) > 0 {
		hits = append(hits, gateHit{start, names})
	}
	return hits
}

// clauseSubjects returns the names that open a clause naming a gate word:
// "X 外部云供应商特性门控已被删除".
func clauseSubjects(text string) []gateHit {
	var hits []gateHit
	pos := 0
	for _, c := range clauses(text) {
		i := strings.Index(text[pos:], c)
		if i >= 0 {
			i += pos
			pos = i + len(c)
		}
		c = strings.TrimLeft(c, " *_")
		if len(gateWords(c)) == 0 {
			continue
		}
		if m := reGateName().FindStringSubmatchIndex(c); m != nil && m[0] == 0 {
			hits = append(hits, gateHit{max(i, 0), []string{c[m[2]:m[3]]}})
		}
	}
	return hits
}

// gateWords returns the byte ranges of the gate words in text: 特性门控,
// 特征门控, 功能门控, feature gate(s), Feature-Gate ...
func gateWords(text string) [][2]int {
	var out [][2]int
	for i := 0; ; {
		j := strings.Index(text[i:], "门控")
		if j < 0 {
			break
		}
		j += i
		if p := j - len("特性"); p >= 0 {
			switch text[p:j] {
			case "特性", "特征", "功能":
				out = append(out, [2]int{p, j + len("门控")})
			}
		}
		i = j + len("门控")
	}
	if strings.Contains(text, "eature") {
		for _, m := range reGateWord().FindAllStringIndex(text, -1) {
			if text[m[0]] == 'F' || text[m[0]] == 'f' {
				out = append(out, [2]int{m[0], m[1]})
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	}
	return out
}

// runBefore reads backwards from end the run of names that ends there:
// "`A` 和 `B` " or "A、B、C". It returns where the run starts and its names.
func runBefore(text string, end int) (int, []string) {
	var names []string
	start := end
	i := end
	for {
		e := trimSpaceBack(text, i)
		k := e
		if k > 0 && text[k-1] == '`' {
			k--
		}
		nameEnd := k
		for k > 0 && isASCIIAlnum(text[k-1]) {
			k--
		}
		if nameEnd-k < 3 || text[k] < 'A' || text[k] > 'Z' {
			break
		}
		name := text[k:nameEnd]
		if k > 0 && text[k-1] == '`' {
			k--
		}
		names = append([]string{name}, names...)
		start = k
		j := trimSpaceBack(text, k)
		n := joinerBefore(text[:j])
		if n == 0 {
			break
		}
		i = j - n
	}
	return start, names
}

// joinerBefore returns the length of a name joiner (、 和 与 及 , and)
// ending s, or 0.
func joinerBefore(s string) int {
	for _, j := range []string{"、", "和", "与", "及", ",", " and"} {
		if strings.HasSuffix(s, j) {
			return len(j)
		}
	}
	return 0
}

func trimSpaceBack(s string, i int) int {
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n') {
		i--
	}
	return i
}

// runNames splits a run of names joined by 、 和 commas into the names.
func runNames(run string) []string {
	var out []string
	for _, m := range reGateRun().FindAllStringSubmatch(run, -1) {
		for _, n := range reGateName().FindAllStringSubmatch(m[0], -1) {
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
