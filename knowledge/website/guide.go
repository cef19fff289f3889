package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	// guideTitleRe is the deprecated API migration guide's title.
	guideTitleRe = lazyre.New(`(?i)^deprecated api migration guide$`)
	// guideSectionRe is the heading over its removals by release.
	guideSectionRe = lazyre.New(`(?i)^removed apis by release$`)
	// releaseHeadingRe is a heading that is only a release: "v1.32".
	releaseHeadingRe = lazyre.New(`^v?(1\.\d{1,2})$`)
)

// guideTextMax caps a guide notice's text: the notable changes of a removal
// run to a dozen bullets.
const guideTextMax = 2400

// isGuide reports whether a document is the deprecated API migration guide:
// its title says so, or it has a "Removed APIs by release" section.
func isGuide(title string, o outline) bool {
	if guideTitleRe().MatchString(strings.TrimSpace(title)) {
		return true
	}
	for s := 1; s < len(o); s++ {
		if guideSectionRe().MatchString(o.heading(s)) {
			return true
		}
	}
	return false
}

// parseGuide reads the deprecated API migration guide: one removal Notice
// per API group/version of each section under a release heading ("### v1.32",
// "#### Flow control resources"), with the kinds it served, the version to
// use instead and the guide's words on what changed. A section under a
// release heading that names no API version becomes a Skip.
func parseGuide(d *doc) *knowledge.Corpus {
	c := &knowledge.Corpus{
		Sources: []knowledge.Source{d.source(knowledge.SourceDeprecationGuide, "", frontDate(d.fm))},
	}
	for s := 1; s < len(d.o); s++ {
		rel, ok := d.guideRelease(s)
		if !ok || d.o[s].children > 0 {
			continue
		}
		sec := d.o[s]
		body := strings.Join(paragraphs(sec.body), "\n")
		apis := apiRemovals(body)
		if len(apis) == 0 {
			c.Skipped = append(c.Skipped, knowledge.Skip{
				Path:   d.name + " § " + d.o.heading(s),
				Reason: "names no API version that stops being served; expected a sentence naming a group/version and its kinds, as in \"The example.io/v1beta1 API version of Widget is no longer served\"",
			})
			continue
		}
		for i := range apis {
			c.Notices = append(c.Notices, knowledge.Notice{
				Kind: knowledge.NoticeRemoval, Release: rel,
				Title: apiTitle(apis[i]), Text: clip(body, guideTextMax),
				API: &apis[i], Source: d.name, Line: sec.line,
			})
		}
	}
	return c
}

// guideRelease returns the release of the nearest "v1.NN" heading above
// section s (not s itself).
func (d *doc) guideRelease(s int) (knowledge.Version, bool) {
	for _, a := range d.o.ancestors(s) {
		if m := releaseHeadingRe().FindStringSubmatch(d.o.heading(a)); m != nil {
			v, err := knowledge.ParseVersion(m[1])
			return v, err == nil
		}
	}
	return knowledge.Version{}, false
}
