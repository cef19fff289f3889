package releasenote

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	// reStageWord finds stage words. Boundaries are checked in stageWord: an
	// ASCII letter or digit before it ("v1beta1", "v1Beta") means it is part
	// of another word. "Alpha2" (a second alpha) is alpha; "Bata" is a typo
	// the notes make for Beta.
	reStageWord = lazyre.New(`(?i:alpha|beta|bata)|GA|General Availability|稳定版|正式发布|测试版|测试阶段`)
	// reSkipped is a stage a feature skipped: "跳过 Alpha", "skipping alpha".
	reSkipped = lazyre.New(`(?i)(?:跳过|跳过了|skip|skipped|skipping)\s*$`)
	// reVersion is a Kubernetes version named in running text: v1.29, 1.29.
	reVersion = lazyre.New(`(?i)(?:^|[^0-9.])v?1\.([0-9]{1,2})(?:[^0-9]|$)`)
)

// stageWord returns the stage of the first stage word in s that is a word on
// its own and not one a feature skipped, or StageNone.
func stageWord(s string) knowledge.Stage {
	for _, m := range reStageWord().FindAllStringIndex(s, -1) {
		if m[0] > 0 && isASCIIAlnum(s[m[0]-1]) {
			continue
		}
		w := s[m[0]:m[1]]
		if m[1] < len(s) && isASCIILetter(s[m[1]]) {
			continue // "GAP", "Alphabet"
		}
		if m[1] < len(s) && isDigit(s[m[1]]) && !strings.EqualFold(w, "alpha") {
			continue // "beta1" belongs to a version; "Alpha2" is alpha
		}
		if reSkipped().MatchString(s[:m[0]]) {
			continue
		}
		switch strings.ToLower(w) {
		case "alpha":
			return knowledge.StageAlpha
		case "beta", "bata", "测试版", "测试阶段":
			return knowledge.StageBeta
		default:
			return knowledge.StageStable
		}
	}
	return knowledge.StageNone
}

// sectionStage is the stage a section heading announces ("GA 和稳定的功能",
// "进入 Beta 阶段的功能", "🐶 稳如老狗 (GA)"), or StageNone.
func sectionStage(title string) knowledge.Stage {
	if st := stageWord(title); st != knowledge.StageNone {
		return st
	}
	if strings.Contains(title, "稳定") || strings.Contains(strings.ToLower(title), "stable") {
		return knowledge.StageStable
	}
	return knowledge.StageNone
}

// bodyStage reads the stage a feature reached in release rel from the note's
// words about it: the first clause that names a stage ("升级为 Beta",
// "现在是 Alpha", "功能 GA", "Graduate ... to GA") and names no other release.
// "在 v1.25 中就已经升级为 Beta" says nothing of v1.27, so it is passed over.
func bodyStage(text string, rel knowledge.Version) knowledge.Stage {
	for _, c := range clauses(text) {
		st := stageWord(c)
		if st == knowledge.StageNone {
			continue
		}
		if namesOtherRelease(c, rel) {
			continue
		}
		return st
	}
	return knowledge.StageNone
}

// namesOtherRelease reports whether clause c names a 1.x release other than rel.
func namesOtherRelease(c string, rel knowledge.Version) bool {
	for _, m := range reVersion().FindAllStringSubmatch(c, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && (rel.Major != 1 || n != rel.Minor) {
			return true
		}
	}
	return false
}

// namesRelease reports whether clause c names release rel.
func namesRelease(c string, rel knowledge.Version) bool {
	for _, m := range reVersion().FindAllStringSubmatch(c, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && rel.Major == 1 && n == rel.Minor {
			return true
		}
	}
	return false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
