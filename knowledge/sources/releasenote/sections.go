package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"

	"github.com/kepbot/kepbot/knowledge"
)

// sectionKind says what a section of a release note holds, and so what its
// items become.
type sectionKind int

const (
	secFeatures    sectionKind = iota // highlights, "other features", anything unknown: Mentions
	secStage                          // "GA 和稳定的功能", "🔥 推广试用 (Beta)": Mentions at that stage
	secContrib                        // a company's contributions: only [tagged] items are features
	secDeprecation                    // "弃用 (Deprecation)": deprecation Notices
	secRemoval                        // "移除 (Removal)", "API 移除": removal Notices
	secNotices                        // "删除和废弃功能", "🗑️ 不顶用了": each item says which
	secUpgrade                        // "升级注意事项", "升级须知", "破坏性变更": upgrade Notices
	secSkip                           // theme, history, references, credits: no facts
)

// section is a heading that items stand under.
type section struct {
	kind  sectionKind
	stage knowledge.Stage // for secStage
	title string          // the heading as text
	level int
	id    int // the top-level section it belongs to, for matching heads to lists
}

var (
	reSecSkip    = lazyre.New(`(?i)历史|参考|致谢|发行说明|署名|版本标志|主题|徽标|logo|reference|history|acknowledg|further reading`)
	reSecContrib = lazyre.New(`(?i)DaoCloud|社区贡献|参与功能|contribution`)
	reSecUpgrade = lazyre.New(`(?i)升级注意|升级须知|破坏性变更|breaking|upgrade note|urgent upgrade`)
	reSecDeprec  = lazyre.New(`(?i)弃用|废弃|deprecat|不顶用`)
	reSecRemoval = lazyre.New(`(?i)删除|移除|remov|不顶用`)
)

// classify reads what a section heading announces.
func classify(title string) (sectionKind, knowledge.Stage) {
	switch {
	case reSecContrib().MatchString(title):
		return secContrib, knowledge.StageNone
	case reSecSkip().MatchString(title):
		return secSkip, knowledge.StageNone
	case reSecUpgrade().MatchString(title):
		return secUpgrade, knowledge.StageNone
	}
	dep, rem := reSecDeprec().MatchString(title), reSecRemoval().MatchString(title)
	switch {
	case dep && rem:
		return secNotices, knowledge.StageNone
	case dep:
		return secDeprecation, knowledge.StageNone
	case rem:
		return secRemoval, knowledge.StageNone
	}
	if st := sectionStage(title); st != knowledge.StageNone {
		return secStage, st
	}
	return secFeatures, knowledge.StageNone
}

// isNoticeKind reports whether items of k become Notices.
func (k sectionKind) isNoticeKind() bool {
	return k == secDeprecation || k == secRemoval || k == secNotices || k == secUpgrade
}

// subsection decides whether a heading below a section opens a subsection
// (its items are the list that follows it) or is itself an item (a feature
// or notice with its body). A heading that names a KEP is an item; so is one
// whose body opens with prose. A heading followed by a list is a subsection:
// of its own kind when its words say one ("弃用 (Deprecation)"), else of its
// parent's ("其他需要注意的变化").
func subsection(h block, next *block, parent section) (section, bool) {
	if len(kepRefs(h.text)) > 0 || next == nil || next.kind != blockItem {
		return section{}, false
	}
	title := inline(h.text)
	k, st := classify(title)
	if k == secFeatures {
		k, st = parent.kind, parent.stage
	}
	if parent.kind == secSkip {
		k = secSkip
	}
	return section{kind: k, stage: st, title: title, level: h.level, id: parent.id}, true
}
