package website

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// headingStageRe finds a stage word in a heading: "Graduations to stable",
// "New alpha features", "... graduates to GA", "Generally available: ...",
// "Mixed version proxy (alpha)". "v1beta2" holds no stage word.
var headingStageRe = lazyre.New(`(?i)\b(alpha|beta|stable|ga|generally available|general availability)\b`)

// bodyStageRes are the ways a post's body says a feature reached a stage in
// the release it announces. They are stricter than the heading rule: a body
// mentions stages of other things in passing ("has been generally
// available for a while").
var bodyStageRes = lazyre.List(
	`(?i)\b(?:graduat\w*|promot\w*|mov\w*|advanc\w*|goes|go|going|got|migrat\w*)\s+(?:to|as)\s+(alpha|beta|stable|ga|general availability)\b`,
	`(?i)\b(?:this|new|an?)\s+(alpha|beta|stable)\s+(?:feature|mechanism|api)\b`,
	`(?i)\bas\s+an?\s+(alpha|beta)\b`,
	`(?i)\b(?:is|are|now|became|becomes)\s+(?:now\s+)?(alpha|beta|stable|ga|generally available)\b`,
	`(?i)\b(alpha|beta|stable)\s+in\s+this\s+release\b`,
)

// stageWord reads one matched stage word.
func stageWord(w string) knowledge.Stage {
	switch strings.ToLower(w) {
	case "alpha":
		return knowledge.StageAlpha
	case "beta":
		return knowledge.StageBeta
	case "stable", "ga", "generally available", "general availability":
		return knowledge.StageStable
	}
	return knowledge.StageNone
}

// headingStage returns the stage a heading names, or StageNone.
func headingStage(title string) knowledge.Stage {
	t := plain(title)
	if !hasStageWord(t) {
		return knowledge.StageNone
	}
	m := headingStageRe().FindStringSubmatch(t)
	if m == nil {
		return knowledge.StageNone
	}
	return stageWord(m[1])
}

// bodyStage returns the stage the first sentence of a body that states one
// gives, skipping sentences that name a release other than rel (they speak
// of the past or of a plan) and the words of links to other sections.
func bodyStage(body []block, rel knowledge.Version) knowledge.Stage {
	for _, b := range textBlocks(body) {
		text := b.plain
		if strings.Contains(b.text, "](#") {
			text = plain(dropAnchorLinks(b.text))
		}
		for _, s := range sentences(text) {
			if !hasStageWord(s) || otherRelease(s, rel) {
				continue
			}
			for _, re := range bodyStageRes() {
				if m := re.FindStringSubmatch(s); m != nil {
					return stageWord(m[1])
				}
			}
		}
	}
	return knowledge.StageNone
}

// hasStageWord is a cheap test before the stage rules run.
func hasStageWord(s string) bool {
	return containsFold(s, "alpha") || containsFold(s, "beta") || containsFold(s, "stable") || containsFold(s, "ga") ||
		containsFold(s, "general")
}

// otherRelease reports whether a sentence names a release other than rel.
func otherRelease(s string, rel knowledge.Version) bool {
	for _, v := range versionsIn(s) {
		if v != rel {
			return true
		}
	}
	return false
}

// stageSuffixRe and stagePrefixRe strip the stage from a feature's heading,
// leaving its name: "`FooDefault` graduates to stable" is FooDefault.
var (
	stageSuffixRe = lazyre.New(`(?i)\s*(?:\((?:alpha|beta|stable|ga)\)|,?\s+(?:graduates?|goes|moves?|is now|are now|advances?)\s+(?:to\s+)?(?:alpha|beta|stable|ga)|\s+generally available)\s*$`)
	stagePrefixRe = lazyre.New(`(?i)^generally available:\s*`)
	trailerRe     = lazyre.New(`\s*\([^()]*\b(?:SIG|KEP)\b[^()]*\)\s*$`)
)

// featureName is a heading without its stage words and its trailing
// "(SIG Storage)" or "(KEP-4381)".
func featureName(title string) string {
	t := plain(title)
	for {
		u := t
		if strings.HasSuffix(u, ")") {
			u = trailerRe().ReplaceAllString(u, "")
		}
		if hasStageWord(u) {
			u = stageSuffixRe().ReplaceAllString(u, "")
			u = stagePrefixRe().ReplaceAllString(u, "")
		}
		if u == t {
			break
		}
		t = u
	}
	if t == "" {
		return plain(title)
	}
	return strings.TrimSpace(t)
}
