package knowledge

import (
	"fmt"
	"strings"
)

// Stage is where a feature stands in its life: alpha, beta and stable are
// graduation stages, in that order; deprecated and removed are the end of it.
type Stage int

// The stages, in the order a KEP moves through them.
const (
	StageNone Stage = iota
	StageAlpha
	StageBeta
	StageStable
	StageDeprecated
	StageRemoved
)

// GraduationStages are the three stages a KEP graduates through.
var GraduationStages = []Stage{StageAlpha, StageBeta, StageStable}

var stageNames = [...]string{"", "alpha", "beta", "stable", "deprecated", "removed"}

// stageWords are the words people use for each stage, in English and Chinese.
// Keys are lower case.
var stageWords = map[string]Stage{
	"alpha": StageAlpha, "α": StageAlpha,
	"beta": StageBeta, "β": StageBeta,
	"stable": StageStable, "ga": StageStable, "稳定": StageStable, "正式": StageStable,
	"稳定版": StageStable, "正式发布": StageStable, "general availability": StageStable,
	"deprecated": StageDeprecated, "deprecation": StageDeprecated, "deprecations": StageDeprecated,
	"弃用": StageDeprecated, "废弃": StageDeprecated,
	"removed": StageRemoved, "removal": StageRemoved, "removals": StageRemoved,
	"移除": StageRemoved, "删除": StageRemoved,
}

// StageWords lists every word ParseStage accepts, for "did you mean" and help.
func StageWords() []string {
	out := make([]string, 0, len(stageWords))
	for w := range stageWords {
		out = append(out, w)
	}
	return out
}

// ParseStage reads a stage word: ga, GA, stable, 稳定 and 正式 are stable;
// alpha; beta; deprecated and 弃用; removed and 移除. Case does not matter.
func ParseStage(s string) (Stage, error) {
	st, ok := stageWords[strings.ToLower(strings.TrimSpace(s))]
	if !ok {
		return StageNone, fmt.Errorf("%q is not a stage (alpha, beta, ga, deprecated, removed)", s)
	}
	return st, nil
}

// String returns the canonical lower-case name ("stable" for GA), or "".
func (s Stage) String() string {
	if s < 0 || int(s) >= len(stageNames) {
		return ""
	}
	return stageNames[s]
}

// Label is the name shown to people: "alpha", "beta", "GA", "deprecated", "removed".
func (s Stage) Label() string {
	if s == StageStable {
		return "GA"
	}
	return s.String()
}

// IsGraduation reports whether s is alpha, beta or stable.
func (s Stage) IsGraduation() bool { return s >= StageAlpha && s <= StageStable }

// Reached reports whether a KEP whose current stage is cur has reached s:
// a KEP at beta has reached alpha and beta but not stable. Deprecated and
// removed KEPs reached every graduation stage they recorded, so the caller
// decides those from the KEP's history.
func (s Stage) Reached(cur Stage) bool {
	if !s.IsGraduation() || !cur.IsGraduation() {
		return false
	}
	return cur >= s
}

// MarshalText writes the canonical name.
func (s Stage) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads any stage word; an empty text is StageNone.
func (s *Stage) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*s = StageNone
		return nil
	}
	st, err := ParseStage(string(b))
	if err != nil {
		return err
	}
	*s = st
	return nil
}
