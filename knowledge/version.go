package knowledge

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Kubernetes minor release such as 1.29. Patch numbers are
// accepted when parsing ("1.29.3") but a release is identified by its minor.
// The zero Version means "unknown".
type Version struct {
	Major int
	Minor int
}

// ParseVersion reads "1.29", "v1.29", "V1.29", "1.29.0" and "v1.29.3".
// It fails on anything else, including "1", "1.x", "TBD" and "0.0".
func ParseVersion(s string) (Version, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "v"), "V")
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("%q is not a version like 1.29", s)
	}
	var nums [3]int
	for i, p := range parts {
		if p == "" || len(p) > 4 {
			return Version{}, fmt.Errorf("%q is not a version like 1.29", s)
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p[0] == '+' {
			return Version{}, fmt.Errorf("%q is not a version like 1.29", s)
		}
		nums[i] = n
	}
	v := Version{Major: nums[0], Minor: nums[1]}
	if v.Major == 0 && v.Minor == 0 {
		return Version{}, fmt.Errorf("%q is not a release", s)
	}
	return v, nil
}

// MustVersion is ParseVersion for literals in tests and tables; it panics on
// a malformed literal.
func MustVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// IsZero reports whether v is the unknown version.
func (v Version) IsZero() bool { return v == Version{} }

// String returns "1.29", or "" for the zero Version.
func (v Version) String() string {
	if v.IsZero() {
		return ""
	}
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// Compare returns -1, 0 or +1 as v is older than, the same as or newer than w.
// 1.9 is older than 1.10.
func (v Version) Compare(w Version) int {
	switch {
	case v.Major != w.Major:
		return cmpInt(v.Major, w.Major)
	default:
		return cmpInt(v.Minor, w.Minor)
	}
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool { return v.Compare(w) < 0 }

// Next returns the following minor release.
func (v Version) Next() Version { return Version{Major: v.Major, Minor: v.Minor + 1} }

// MarshalText writes "1.29" so that versions read naturally in JSON.
func (v Version) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads what MarshalText wrote; an empty text is the zero Version.
func (v *Version) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*v = Version{}
		return nil
	}
	p, err := ParseVersion(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

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
