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
	// availableSinceRe is the guide's "use the G/V API version, available
	// since v1.29": the version to migrate to and the release it came in.
	availableSinceRe = lazyre.New(`(?i)\buse\s+the\s+([a-z][a-z0-9.-]*/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\s+API\s+versions?,?\s+available\s+since\s+v?(1\.[0-9]{1,2})\b`)
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
// use instead, the release that version is available since (see
// availableSince) and the guide's words on what changed. A section under a
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
			apis[i].Since = availableSince(body, apis[i].ReplacedBy)
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

// availableSince returns the release a section says the version to use
// instead is available since: "use the G/V API version, available since
// v1.29", with G/V the replacement. A section naming two versions to use
// ("use the G/V1 API version, available since v1.29, or the G/V2 API
// version, available since v1.26") gives the date of the replacement, the
// first one. It is zero when the section gives the replacement no date,
// or a date per kind only ("CSIDriver is available in storage.k8s.io/v1
// since v1.19").
func availableSince(text, replacedBy string) knowledge.Version {
	if replacedBy == "" || !containsFold(text, "available since") {
		return knowledge.Version{}
	}
	for _, m := range availableSinceRe().FindAllStringSubmatch(text, -1) {
		if m[1] == replacedBy {
			v, err := knowledge.ParseVersion(m[2])
			if err == nil {
				return v
			}
		}
	}
	return knowledge.Version{}
}
