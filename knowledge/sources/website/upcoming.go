package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	// upcomingTitleRe is the title of a post about a release still being
	// made: "Kubernetes Removals and Major Changes In v1.27", "Kubernetes
	// Removals, Deprecations, and Major Changes in Kubernetes 1.29", "A Peek
	// at Kubernetes v1.30", "Kubernetes v1.32 sneak peek".
	upcomingTitleRe = lazyre.New(`(?i)\b(removals|deprecations|major changes|sneak peek|peek at|upcoming changes)\b`)
	// previewRe marks a post, or a section of one, that previews features.
	previewRe = lazyre.New(`(?i)\b(sneak peek|peek at|major changes for|enhancements)\b`)
	// lookingAheadRe marks a section about a release after the post's own.
	lookingAheadRe = lazyre.New(`(?i)^looking ahead\b`)
	// noticePostRe is the title of a post about deprecations and removals.
	noticePostRe = lazyre.New(`(?i)\b(removals|deprecations)\b`)
)

// parseUpcoming reads a post about a coming release (a deprecations and
// removals post, a mid-cycle post, a sneak peek). Sections under a
// deprecation, removal or withdrawal heading, and notes outside any
// preview, become Notices of that release ("Looking ahead" ones of the
// release they name). Previewed features become Mentions without a stage:
// the post states a plan, not what shipped. It makes no Release.
func parseUpcoming(d *doc, kind string) *knowledge.Corpus {
	var mentions []knowledge.Mention
	var notices []knowledge.Notice
	for s := 1; s < len(d.o); s++ {
		sec := d.o[s]
		if sec.children > 0 || d.o.inBoilerplate(s) || itemOnlySkipRe().MatchString(d.o.heading(s)) {
			continue
		}
		c := d.contextOf(s)
		switch {
		case c.notice:
			notices = append(notices, d.noticesOf(s, c, d.rel)...)
		case d.previews(s):
			mentions = append(mentions, d.mentionsOf(s, knowledge.StageNone, false)...)
		default:
			rel := d.rel
			if lookingAheadRe().MatchString(d.o.heading(s)) {
				rel = laterRelease(paragraphs(sec.body), d.rel)
			}
			notices = append(notices, d.noticesOf(s, c, rel)...)
		}
	}
	return &knowledge.Corpus{
		Sources:  []knowledge.Source{d.source(knowledge.SourceReleaseNote, kind, frontDate(d.fm))},
		Mentions: mergeMentions(mentions),
		Notices:  dedupeNotices(notices),
	}
}

// previews reports whether section s sits in a preview of features: under
// a "Sneak peek of ..." or "Major changes for ..." heading, or anywhere in
// a post whose title says it is a peek.
func (d *doc) previews(s int) bool {
	if previewRe().MatchString(d.title) && !upcomingNoticeTitle(d.title) {
		return true
	}
	for _, a := range append([]int{s}, d.o.ancestors(s)...) {
		if previewRe().MatchString(d.o.heading(a)) {
			return true
		}
	}
	return false
}

// upcomingNoticeTitle reports whether a post's title says it is about
// deprecations and removals.
func upcomingNoticeTitle(title string) bool {
	return noticePostRe().MatchString(title)
}

// laterRelease returns the first release after rel the text names, or rel.
func laterRelease(paras []string, rel knowledge.Version) knowledge.Version {
	for _, p := range paras {
		for _, v := range versionsIn(p) {
			if rel.Less(v) {
				return v
			}
		}
	}
	return rel
}
