package knowledge

import (
	"strings"
	"unicode"
)

// One fact once: a document line that says a feature reached a stage in
// a release without naming its KEP ("OpenAPIV3 功能 GA", "Graduate
// Kubelet Topology Manager to GA.", "Node lifecycle separated from taint
// management") is tied to the KEP it speaks of, so that the release's
// stage list counts the KEP once, with every document that tells it.
//
// The KEP is looked for among those kep.yaml says reached that stage in
// that release (few: a dozen or two), by the words both use: the line's
// code names against the KEP's feature gates (OpenAPIV3, PodHostIPs; a
// gate that begins with the name: PodReadyToStartContainers), and the
// words of the line (English, CamelCase split, and a few Chinese terms
// read as their English words) against those of the KEP's name and
// gates. The line is tied to the one candidate that shares the most with
// it, two words at least, when no other shares as many; else it stays a
// line of its own.

// linkByName ties mentions without a KEP to the KEP they name in words
// (Via "name"), among the KEPs that reached the mention's stage in its
// release.
//
// A line that writes a feature gate some KEP owns (gates maps them to
// their owners) is that KEP's, whatever release kep.yaml puts it in
// (Via "gate"): "MinDomainsInPodTopologySpread 功能升级为 Beta" in 1.27 is
// KEP-3022's, which kep.yaml says went beta in 1.25, not a line about
// another KEP that shares its words.
func linkByName(mentions []Mention, keps map[int]*KEP, gates map[string]int) {
	type key struct {
		stage   Stage
		release Version
	}
	candidates := map[key][]*KEP{}
	for _, kp := range keps {
		if !kp.HasYAML() {
			continue
		}
		for s, v := range kp.Reached() {
			candidates[key{s, v}] = append(candidates[key{s, v}], kp)
		}
	}
	for i := range mentions {
		m := &mentions[i]
		if m.KEP > 0 || !m.Stage.IsGraduation() || m.Release.IsZero() {
			continue
		}
		if n := ownerOf(gates, codeNamesIn(m.Title)); n > 0 {
			m.KEP, m.Via = n, "gate"
			continue
		}
		if n := nameMatch(m.Title+" "+strings.Join(m.FeatureGates, " "), candidates[key{m.Stage, m.Release}]); n > 0 {
			m.KEP, m.Via = n, "name"
		}
	}
}

// nameMatch is the number of the one KEP of cs that line names (see
// above), or 0.
func nameMatch(line string, cs []*KEP) int {
	words := nameWords(line)
	codes := codeWordsIn(line)
	best, bestScore, tie := 0, 0, false
	for _, kp := range cs {
		score := 0
		for _, g := range kp.Gates() {
			lg := strings.ToLower(g)
			for _, c := range codes {
				if lg == c || len(c) >= 10 && strings.HasPrefix(lg, c) {
					score += 3 // the line writes one of the KEP's gates
				}
			}
		}
		kw := nameWords(kp.Title + " " + strings.Join(kp.Gates(), " "))
		for w := range words {
			if kw[w] {
				score++
			}
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = kp.Number, score, false
		case score == bestScore && score > 0:
			tie = true
		}
	}
	if bestScore < 2 || tie {
		return 0
	}
	return best
}

// codeNamesIn are the names written like a feature gate in a line, as
// written.
func codeNamesIn(line string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(line, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) {
		if len(f) >= 4 && InnerCapital(f) {
			out = append(out, f)
		}
	}
	return out
}

// codeWordsIn are the names written like code in a line, in lower case:
// CamelCase words and words in backticks or quotes.
func codeWordsIn(line string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(line, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) {
		if len(f) >= 4 && InnerCapital(f) {
			out = append(out, strings.ToLower(f))
		}
	}
	return out
}

// nameWords are the words a name is made of, in lower case and stemmed
// lightly: ASCII words, CamelCase split ("TaintManager" is taint and
// manager), and the English words of the Chinese terms zhTerms knows;
// words that name no feature ("the", "support", "kubernetes") are left
// out.
func nameWords(s string) map[string]bool {
	out := map[string]bool{}
	add := func(w string) {
		w = stemName(strings.ToLower(w))
		if len(w) > 1 && !fillerNameWords[w] {
			out[w] = true
		}
	}
	for zh, en := range zhTerms {
		if strings.Contains(s, zh) {
			for _, w := range strings.Fields(en) {
				add(w)
			}
		}
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) {
		add(f)
		for _, p := range splitCamel(f) {
			add(p)
		}
	}
	return out
}

// splitCamel splits a CamelCase word into its parts ("NodeLifeCycleController"
// is Node, Life, Cycle, Controller; "OpenAPIV3" is Open, API, V3).
func splitCamel(w string) []string {
	var out []string
	start := 0
	for i := 1; i < len(w); i++ {
		prev, c := w[i-1], w[i]
		upper := c >= 'A' && c <= 'Z'
		if upper && prev >= 'a' && prev <= 'z' || upper && i+1 < len(w) && w[i+1] >= 'a' && w[i+1] <= 'z' && prev >= 'A' && prev <= 'Z' {
			out = append(out, w[start:i])
			start = i
		}
	}
	if start > 0 {
		out = append(out, w[start:])
	}
	return out
}

// stemName cuts a plural "s" and the endings that make "management" and
// "manager", "replacement" and "replace" one word.
func stemName(w string) string {
	for _, suf := range []string{"ment", "er", "ing", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// fillerNameWords say nothing of which feature a line is about.
var fillerNameWords = map[string]bool{
	"the": true, "a": true, "an": true, "of": true, "for": true, "to": true, "in": true, "on": true, "and": true, "or": true,
	"with": true, "from": true, "by": true, "as": true, "is": true, "are": true, "now": true, "new": true, "add": true, "added": true,
	"support": true, "kubernetes": true, "k8s": true, "feature": true, "featur": true, "gate": true, "ga": true, "beta": true, "alpha": true,
	"stable": true, "graduat": true, "graduate": true, "promot": true, "promote": true, "io": true, "when": true, "allow": true,
	"enabl": true, "enable": true, "api": true, "v1": true, "v2": true, "v3": true, "kep": true, "level": true, "improv": true, "improve": true,
}

// zhTerms reads the Chinese words release notes use for parts of a
// feature's name as the English words KEP names use.
var zhTerms = map[string]string{
	"探针": "probe", "拓扑": "topology", "管理器": "manager", "默认": "default", "替换": "replacement", "策略": "policy",
	"插件": "plugin", "子命令": "subcommand", "污点": "taint", "解耦": "decouple", "时区": "timezone", "容器": "container",
	"边车": "sidecar", "卷": "volume", "调度": "scheduling", "就绪": "readiness", "条件": "condition", "节点": "node",
	"日志": "log", "上下文": "contextual", "授权": "authorization", "认证": "authentication", "结构化": "structured",
	"验证": "validation", "棘轮": "ratcheting", "分页": "chunking", "镜像": "image", "用户命名空间": "user namespaces",
	"交互式删除": "interactive delete", "原地": "place", "扩容": "expansion", "快照": "snapshot", "标签": "label",
	"亲和性": "affinity", "反亲和性": "anti affinity", "聚合发现": "aggregated discovery", "重试": "retry", "索引": "index",
}
