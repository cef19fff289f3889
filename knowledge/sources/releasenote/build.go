package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// builder turns items into Mentions and Notices for one document.
type builder struct {
	name    string
	rel     knowledge.Version
	found   []found
	notices []knowledge.Notice
}

// found is a Mention with what the later passes need to know of it.
type found struct {
	m        knowledge.Mention
	secID    int
	heading  bool // from a heading item
	list     bool // a list entry standing directly in its section
	textOnly bool // the KEP number came from text, not a link
}

// itemFacts are what every item gives, Mention or Notice.
type itemFacts struct {
	sig   string
	refs  []kepRef
	name  string // the title with tags and KEP numbers removed, Markdown
	title string
	text  string
	body  string // the body as text (headings); the entry itself otherwise
	gates []string
}

var (
	reStageSuffix = lazyre.New(`(?i)\s*(?:[（(]\s*(?:alpha|beta|ga|stable)\s*[)）]|(?:特性|功能)?\s*(?:升级为|进入|达到)?\s*(?:alpha|beta|GA))\s*$`)
	reReleased    = lazyre.New(`\s*(?:现已|已)?正式发布\s*`)
	reBracketLead = lazyre.New(`^\s*\[[^\[\]()]{1,30}\](?:[^(]|$)`)
)

// facts reads the parts of an item every rule needs.
func (b *builder) facts(it item) itemFacts {
	var f itemFacts
	sig, rest := leadingTag(it.raw)
	f.refs = kepRefs(it.raw)
	if len(f.refs) == 0 && it.kind == itemHeading {
		// 1.30's headings name no KEP; the first link in the prose under them does.
		for _, bb := range it.body {
			if bb.kind == blockParagraph || bb.kind == blockQuote {
				if r := kepRefs(bb.text); len(r) > 0 {
					f.refs = r[:1]
					break
				}
			}
		}
	}
	s2, name := leadingTag(stripKEPs(rest))
	f.sig = firstNonEmpty(sig, s2, it.tagSIG)
	f.name = name
	plainName := strings.ReplaceAll(inline(name), "`", "")
	switch it.kind {
	case itemHeading:
		f.title = clip(strings.TrimSpace(reStageSuffix().ReplaceAllString(reReleased().ReplaceAllString(plainName, ""), "")), maxTitleRunes)
		if f.title == "" {
			f.title = clip(plainName, maxTitleRunes)
		}
		f.body = bodyText(it.body)
		f.text = clip(strings.TrimSpace(inline(it.raw)+"\n"+f.body), maxTextRunes)
		f.gates = featureGates(inline(it.raw) + "\n" + f.body)
	case itemPara:
		f.title = firstNonEmpty(it.title, titleOf(plainName))
		f.body = inline(it.raw)
		f.text = f.body
		if it.title != "" {
			f.text = it.title + "\n" + f.body
		}
		f.text = clip(f.text, maxTextRunes)
		f.gates = featureGates(f.body)
	default:
		f.title = titleOf(plainName)
		f.body = inline(name)
		f.text = clip(inline(it.raw), maxTextRunes)
		f.gates = featureGates(inline(it.raw))
	}
	return f
}

// bodyText is the prose under a heading: paragraphs, quotes and list entries,
// not code or HTML, one per line.
func bodyText(body []block) string {
	var b strings.Builder
	for _, bb := range body {
		var t string
		switch bb.kind {
		case blockParagraph, blockQuote, blockHeading:
			t = inline(bb.text)
		case blockItem:
			t = "- " + inline(bb.text)
		}
		if t == "" || t == "- " {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t)
	}
	return b.String()
}

// add turns one item into Mentions or Notices, or nothing: a section of
// history or references says nothing about this release, and a
// contributions section lists people as well as [tagged] features.
func (b *builder) add(it item) {
	switch {
	case it.sec.kind == secSkip:
		return
	case it.sec.kind == secContrib && (it.kind != itemList || !reBracketLead().MatchString(it.raw)):
		return
	case it.sec.kind.isNoticeKind():
		b.addNotices(it, b.noticeKind(it))
		return
	}
	f := b.facts(it)
	if it.kind == itemList && it.sec.kind != secStage && !it.inHeading {
		// "[APIMachinery] 已弃用 ..." in a list of features is a deprecation.
		if k := verbKind(firstClause(f.body)); k != "" && bodyStage(f.body, b.rel) == knowledge.StageNone {
			b.addNoticesFrom(it, f, k)
			return
		}
	}
	b.addMentions(it, f)
}

// addMentions records one Mention per KEP the item names, or one with KEP 0.
func (b *builder) addMentions(it item, f itemFacts) {
	st := knowledge.StageNone
	if it.kind == itemHeading {
		st = bodyStage(inline(f.name), b.rel)
	}
	if st == knowledge.StageNone && it.sec.kind == secStage {
		st = it.sec.stage
	}
	if st == knowledge.StageNone {
		st = bodyStage(f.body, b.rel)
	}
	m := knowledge.Mention{
		Title: f.title, Stage: st, Release: b.rel, SIG: f.sig, FeatureGates: f.gates,
		Section: it.under, Text: f.text, Source: b.name, Line: it.line,
	}
	fd := found{m: m, secID: it.sec.id, heading: it.kind == itemHeading, list: it.kind == itemList && !it.inHeading}
	if len(f.refs) == 0 {
		if it.kind == itemHeading && groupHeading(it.body) {
			return // "更多 DRA 增强特性": its list names the KEPs
		}
		b.found = append(b.found, fd)
		return
	}
	for _, r := range f.refs {
		g := fd
		g.m.KEP, g.m.Link, g.textOnly = r.num, r.link, r.link == ""
		g.m.FeatureGates = append([]string(nil), f.gates...)
		b.found = append(b.found, g)
	}
}

// groupHeading reports whether a heading's body lists KEPs of its own.
func groupHeading(body []block) bool {
	for _, bb := range body {
		if bb.kind == blockItem && len(kepRefs(bb.text)) > 0 {
			return true
		}
	}
	return false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
