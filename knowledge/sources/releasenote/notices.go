package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"regexp"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	reRemovalVerb     = lazyre.New(`(?i)删除|移除|撤回|removed|removal|remove`)
	reDeprecationVerb = lazyre.New(`(?i)弃用|废弃|deprecat`)
	reFuture          = lazyre.New(`(?i)将|未来|计划|will|plan`)
	// reGroupVersion is an API group/version: flowcontrol.apiserver.k8s.io/v1beta3.
	reGroupVersion = lazyre.New(`([a-z0-9]+(?:[.-][a-z0-9]+)*\.k8s\.io)/(v[0-9]+(?:(?:alpha|beta)[0-9]+)?)`)
	reKindWord     = lazyre.New(`[A-Z][A-Za-z0-9]{3,80}`)
)

// noticeKind decides what an item in a notice section warns of. Sections
// that say it ("弃用", "移除") decide for their items; in a mixed section the
// item's heading says ("gitRepo 卷类型弃用说明", "API 移除"), else its words.
// Headings in an upgrade section are upgrade notes whatever they mention;
// list entries and paragraphs there are deprecations or removals when their
// words say so ("移除 ... 特性门控", "已被弃用").
func (b *builder) noticeKind(it item) knowledge.NoticeKind {
	switch it.sec.kind {
	case secDeprecation:
		return knowledge.NoticeDeprecation
	case secRemoval:
		return knowledge.NoticeRemoval
	case secNotices:
		if k := verbKind(inline(it.raw)); k != "" {
			return k
		}
		if k := classifyNotice(inline(it.raw)+"\n"+bodyText(it.body), b.rel); k != "" {
			return k
		}
		return knowledge.NoticeDeprecation
	}
	if it.kind == itemHeading {
		return knowledge.NoticeUpgrade
	}
	if k := classifyNotice(it.title+"\n"+inline(it.raw), b.rel); k != "" {
		return k
	}
	return knowledge.NoticeUpgrade
}

// verbKind returns the kind of the first deprecation or removal word in s,
// or "".
func verbKind(s string) knowledge.NoticeKind {
	d := reDeprecationVerb().FindStringIndex(s)
	r := reRemovalVerb().FindStringIndex(s)
	switch {
	case d != nil && (r == nil || d[0] < r[0]):
		return knowledge.NoticeDeprecation
	case r != nil:
		return knowledge.NoticeRemoval
	}
	return ""
}

// classifyNotice reads whether text says something was removed, or else
// deprecated, in release rel. A clause about the future ("将在未来版本移除")
// counts only when it names rel itself ("将在 v1.27 中被移除").
func classifyNotice(text string, rel knowledge.Version) knowledge.NoticeKind {
	for _, want := range []struct {
		re   *regexp.Regexp
		kind knowledge.NoticeKind
	}{{reRemovalVerb(), knowledge.NoticeRemoval}, {reDeprecationVerb(), knowledge.NoticeDeprecation}} {
		for _, c := range clauses(text) {
			loc := want.re.FindStringIndex(c)
			if loc == nil {
				continue
			}
			if reFuture().MatchString(c[:loc[0]]) && !namesRelease(c, rel) {
				continue
			}
			return want.kind
		}
	}
	return ""
}

// addNotices records the Notices of an item in a notice section.
func (b *builder) addNotices(it item, kind knowledge.NoticeKind) {
	b.addNoticesFrom(it, b.facts(it), kind)
}

// addNoticesFrom records one Notice per KEP the item names, or one with KEP 0.
func (b *builder) addNoticesFrom(it item, f itemFacts, kind knowledge.NoticeKind) {
	n := knowledge.Notice{
		Kind: kind, Release: b.rel, Title: f.title, Text: f.text,
		FeatureGates: f.gates, Source: b.name, Line: it.line,
	}
	if kind == knowledge.NoticeRemoval {
		n.API = apiChange(inline(it.raw) + "\n" + f.body)
	}
	if len(f.refs) == 0 {
		b.notices = append(b.notices, n)
		return
	}
	for _, r := range f.refs {
		m := n
		m.KEP = r.num
		m.FeatureGates = append([]string(nil), f.gates...)
		b.notices = append(b.notices, m)
	}
}

// apiChange reads the API group/version a removal names: the first beta or
// alpha version is the one removed, the kinds are the CamelCase names in its
// clause, and a later version of the same group is the replacement. It
// returns nil when the text names no group/version.
func apiChange(text string) *knowledge.APIChange {
	ms := reGroupVersion().FindAllStringSubmatchIndex(text, -1)
	if len(ms) == 0 {
		return nil
	}
	pick := ms[0]
	for _, m := range ms {
		if v := text[m[4]:m[5]]; strings.Contains(v, "alpha") || strings.Contains(v, "beta") {
			pick = m
			break
		}
	}
	group, version := text[pick[2]:pick[3]], text[pick[4]:pick[5]]
	ch := &knowledge.APIChange{GroupVersion: group + "/" + version}
	for _, w := range reKindWord().FindAllString(clauseAt(text, pick[0]), -1) {
		if gateLike(w) && !strings.Contains(group, strings.ToLower(w)) && !hasString(ch.Kinds, w) {
			ch.Kinds = append(ch.Kinds, w)
		}
	}
	for _, m := range ms {
		if text[m[2]:m[3]] == group && text[m[4]:m[5]] != version && m[0] > pick[0] {
			ch.ReplacedBy = group + "/" + text[m[4]:m[5]]
			break
		}
	}
	return ch
}
