package relnotes

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// graduatedTo reads an entry's first sentence that says the feature it is
// about reached a stage, without naming it in code: "Graduated image
// volume sources to beta", "Promoted the X feature to GA", "Y is now
// beta". Future tense ("will graduate") does not count.
var graduatedTo = lazyre.New(`(?i)^\s*(?:\[[^\]]*\]\s*)?(?:graduated|promoted|moved|graduates|promotes)\b[^.;:]{0,120}?\bto\s+(?:the\s+)?` + "`?" + `(alpha|beta|ga|stable|general availability)` + "`?" + `\b|\b(?:is|are)\s+now\s+` + "`?" + `(alpha|beta|ga|stable|generally available)` + "`?" + `\b`)

// enhancementGraduation is the typed change of an entry that links one
// KEP and says, in its first sentence, that the feature reached a stage,
// when no other typed change says what graduated: the KEP itself did,
// in the entry's release. It is how release notes' stage claims are set
// beside kep.yaml's (knowledge.checkDisagreements).
func enhancementGraduation(ch *knowledge.Change) []knowledge.Effect {
	if len(ch.KEPs) != 1 || knowledge.HasAction(ch.Effects, knowledge.EffectGraduated) {
		return nil
	}
	first := ch.Text
	if i := strings.IndexAny(first, ".\n"); i >= 0 {
		first = first[:i]
	}
	low := strings.ToLower(first)
	if strings.Contains(low, "will ") || strings.Contains(low, "revert") {
		return nil
	}
	m := graduatedTo().FindStringSubmatch(first)
	if m == nil {
		return nil
	}
	word := m[1]
	if word == "" {
		word = m[2]
	}
	st := knowledge.StageStable
	switch strings.ToLower(word) {
	case "alpha":
		st = knowledge.StageAlpha
	case "beta":
		st = knowledge.StageBeta
	}
	return []knowledge.Effect{{What: knowledge.EffectEnhancement, Name: "KEP-" + strconv.Itoa(ch.KEPs[0]), Action: knowledge.EffectGraduated, Stage: st}}
}
