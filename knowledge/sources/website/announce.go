package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	// announceRe is the opening of a release announcement.
	announceRe = lazyre.New(`(?i)\bannouncing the release of Kubernetes\s+v?(1\.\d{1,2})\b`)
	// titleThemeRe reads "Kubernetes v1.31: Elli".
	titleThemeRe = lazyre.New(`(?i)^Kubernetes\s+v?(1\.\d{1,2})\s*:\s*(.+)$`)
	// themeSentenceRe reads `theme is "X".` and "theme for Kubernetes v1.NN is X." sentences.
	themeSentenceRe = lazyre.New(`(?i)\btheme\b(?:\s+for\s+Kubernetes\s+v?1\.\d+)?\s+is\s+"?([^".]+?)"?\s*\.`)
	totalRe         = lazyre.New(`(?i)\bconsists?\s+of\s+(\d+)\s+enhancements\b`)
	stageCountRe    = lazyre.New(`(?i)\b(\d+)\s+(?:of\s+(?:those|these)\s+enhancements\s+)?(?:are|have|has|is)\s+(?:[a-z]+\s+){0,3}?(alpha|beta|stable)\b`)
)

// parseAnnouncement reads a release announcement: the release's facts, a
// mention per highlighted or listed feature with the stage its section or
// heading gives, and its deprecations, removals and upgrade actions.
func parseAnnouncement(d *doc) *knowledge.Corpus {
	rel := knowledge.Release{
		Version: d.rel, Date: frontDate(d.fm), Theme: theme(d),
		Enhancements: counts(d.o[0].body), Sources: []string{d.name},
	}
	var mentions []knowledge.Mention
	var notices []knowledge.Notice
	for s := 1; s < len(d.o); s++ {
		sec := d.o[s]
		if sec.children > 0 || d.o.inBoilerplate(s) || itemOnlySkipRe().MatchString(d.o.heading(s)) {
			continue // a container's own body is its introduction
		}
		c := d.contextOf(s)
		switch {
		case c.notice:
			notices = append(notices, d.noticesOf(s, c, d.rel)...)
		case c.stage != knowledge.StageNone:
			if entries, _ := listEntries(sec.body); len(entries) > 0 {
				mentions = append(mentions, d.entryMentions(s, c.stage)...)
				continue
			}
			mentions = append(mentions, d.mentionsOf(s, c.stage, true)...)
			notices = append(notices, d.actionRequired(s)...)
		default:
			if st := bodyStage(sec.body, d.rel); st != knowledge.StageNone {
				mentions = append(mentions, d.mentionsOf(s, st, true)...)
				notices = append(notices, d.actionRequired(s)...)
			}
		}
	}
	mentions = mergeMentions(mentions)
	return &knowledge.Corpus{
		Sources:  []knowledge.Source{d.source(knowledge.SourceReleaseNote, "release announcement", rel.Date)},
		Releases: []knowledge.Release{rel},
		Mentions: mentions,
		Notices:  kepsFromMentions(dedupeNotices(notices), mentions),
	}
}

// actionRequiredRe marks a feature's words that ask for action before upgrading.
var actionRequiredRe = lazyre.New(`(?i)\baction required before upgrading\b`)

// actionRequired makes an upgrade Notice of a feature section whose body
// says "Action required before upgrading", with the paragraph that says so.
func (d *doc) actionRequired(s int) []knowledge.Notice {
	sec := d.o[s]
	for _, p := range paragraphs(sec.body) {
		if !containsFold(p, "action required") || !actionRequiredRe().MatchString(p) {
			continue
		}
		n := knowledge.Notice{
			Kind: knowledge.NoticeUpgrade, Release: d.rel, Title: featureName(sec.title),
			Text: clip(p, 1200), FeatureGates: gatesIn(sec.body), Source: d.name, Line: sec.line,
		}
		if refs := kepRefs(sec.title + "\n" + rawBody(sec.body)); len(refs) > 0 {
			n.KEP = refs[0].Num
		}
		return []knowledge.Notice{n}
	}
	return nil
}

// kepsFromMentions gives a notice without a KEP number the KEP of the
// feature mention made from the same section (one tied to its KEP by title).
func kepsFromMentions(ns []knowledge.Notice, ms []knowledge.Mention) []knowledge.Notice {
	byLine := map[int]int{}
	for _, m := range ms {
		if _, ok := byLine[m.Line]; !ok && m.KEP != 0 {
			byLine[m.Line] = m.KEP
		}
	}
	for i := range ns {
		if ns[i].KEP == 0 {
			ns[i].KEP = byLine[ns[i].Line]
		}
	}
	return ns
}

// theme is the part of the title after "Kubernetes v1.31:", else what a
// sentence names as the theme.
func theme(d *doc) string {
	if m := titleThemeRe().FindStringSubmatch(d.title); m != nil {
		if t := strings.TrimSpace(plain(m[2])); t != "" {
			return t
		}
	}
	for _, sec := range d.o {
		for _, p := range paragraphs(sec.body) {
			if m := themeSentenceRe().FindStringSubmatch(p); m != nil {
				return strings.TrimSpace(m[1])
			}
		}
	}
	return ""
}

// counts reads the enhancement counts the opening paragraphs state: a total
// ("consists of N enhancements") and one number per stage ("N are entering
// Alpha", "N have graduated to Stable").
func counts(preamble []block) knowledge.Counts {
	var c knowledge.Counts
	for _, p := range paragraphs(preamble) {
		if m := totalRe().FindStringSubmatch(p); m != nil && c.Total == 0 {
			c.Total, _ = strconv.Atoi(m[1])
		}
		for _, m := range stageCountRe().FindAllStringSubmatch(p, -1) {
			n, _ := strconv.Atoi(m[1])
			switch stageWord(m[2]) {
			case knowledge.StageAlpha:
				c.Alpha = n
			case knowledge.StageBeta:
				c.Beta = n
			case knowledge.StageStable:
				c.Stable = n
			}
		}
	}
	return c
}
