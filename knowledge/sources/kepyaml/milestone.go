package kepyaml

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// MilestoneStats counts how a file's milestone values read.
type MilestoneStats struct {
	Read        int `json:"read"`        // one release, as it should be
	Empty       int `json:"empty"`       // "" or null
	Placeholder int `json:"placeholder"` // TBD, TODO, never, x.y, "0.0": no release yet
	Unparseable int `json:"unparseable"` // anything else without a release in it
	Multiple    int `json:"multiple"`    // two releases or more: the earliest taken
	ExtraText   int `json:"extra_text"`  // one release and other words: the release taken
	NotAStage   int `json:"not_a_stage"` // keys such as disabled: dropped
}

func (m *MilestoneStats) add(o MilestoneStats) {
	m.Read += o.Read
	m.Empty += o.Empty
	m.Placeholder += o.Placeholder
	m.Unparseable += o.Unparseable
	m.Multiple += o.Multiple
	m.ExtraText += o.ExtraText
	m.NotAStage += o.NotAStage
}

// outcome is how one milestone value read.
type outcome int

const (
	readOK outcome = iota
	readEmpty
	readPlaceholder
	readUnparseable
	readMultiple
	readExtraText
)

var versionLike = lazyre.New(`[vV]?[0-9]+\.[0-9]+(?:\.[0-9]+)?`)

// placeholders are the words kep.yaml files use for "no release yet".
var placeholders = map[string]bool{
	"tbd": true, "tba": true, "todo": true, "never": true, "none": true, "n/a": true, "na": true,
	"x.y": true, "vx.y": true, "1.x": true, "v1.x": true, "-": true, "?": true, "unknown": true, "~": true, "null": true,
}

// readMilestone reads one milestone value. It returns the earliest release
// the text names and how the text read; a placeholder or a text without a
// release gives the zero Version.
func readMilestone(text string) (knowledge.Version, outcome) {
	t := strings.TrimSpace(text)
	low := strings.ToLower(t)
	if t == "" || low == "null" || low == "~" {
		return knowledge.Version{}, readEmpty
	}
	if v, err := knowledge.ParseVersion(t); err == nil {
		return v, readOK
	}
	var found []knowledge.Version
	for _, m := range versionLike().FindAllString(t, 8) {
		if v, err := knowledge.ParseVersion(m); err == nil && !containsVersion(found, v) {
			found = append(found, v)
		}
	}
	if len(found) == 0 {
		if placeholders[low] || isZeroVersion(low) {
			return knowledge.Version{}, readPlaceholder
		}
		return knowledge.Version{}, readUnparseable
	}
	earliest := found[0]
	for _, v := range found[1:] {
		if v.Less(earliest) {
			earliest = v
		}
	}
	if len(found) > 1 {
		return earliest, readMultiple
	}
	return earliest, readExtraText
}

// isZeroVersion reports whether s is 0.0, v0.0 or 0.0.0.
func isZeroVersion(s string) bool {
	return strings.Trim(strings.TrimPrefix(s, "v"), "0.") == "" && strings.Contains(s, "0")
}

func containsVersion(vs []knowledge.Version, v knowledge.Version) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

// milestones reads the milestone mapping into stage name → release.
func (p *parser) milestones(m milestones, st *MilestoneStats) map[string]knowledge.Version {
	if m.Shape != "" && m.Shape != "empty" {
		p.note("milestone", "", "is %s, not a mapping of stage to release; ignored", m.Shape)
		st.Unparseable++
		return nil
	}
	out := map[string]knowledge.Version{}
	for _, kv := range m.Pairs {
		key := strings.ToLower(strings.TrimSpace(kv.Key))
		stage, err := knowledge.ParseStage(key)
		if err != nil {
			st.NotAStage++
			p.note("milestone."+clip(kv.Key, 40), kv.Value.Text, "is under a key that is not a stage kepbot knows; dropped")
			continue
		}
		field := "milestone." + stage.String()
		if kv.Value.Shape != "" {
			st.Unparseable++
			p.note(field, "", "is %s, not a release; no milestone", kv.Value.Shape)
			continue
		}
		v, how := readMilestone(kv.Value.Text)
		switch how {
		case readOK:
			st.Read++
		case readEmpty:
			st.Empty++
		case readPlaceholder:
			st.Placeholder++
		case readUnparseable:
			st.Unparseable++
			p.note(field, kv.Value.Text, "is not a release; no milestone")
		case readMultiple:
			st.Multiple++
			p.note(field, kv.Value.Text, "names several releases; the earliest, %s, is taken", v)
		case readExtraText:
			st.ExtraText++
			p.note(field, kv.Value.Text, "has words besides the release; %s is taken", v)
		}
		if v.IsZero() {
			continue
		}
		if _, dup := out[stage.String()]; dup {
			p.note(field, kv.Value.Text, "is given twice; the first is kept")
			continue
		}
		out[stage.String()] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// latest reads latest-milestone; only a value naming releases counts.
func (p *parser) latest(s scalar) knowledge.Version {
	if s.Shape != "" {
		p.note("latest-milestone", "", "is %s, not a release; ignored", s.Shape)
		return knowledge.Version{}
	}
	v, how := readMilestone(s.Text)
	switch how {
	case readUnparseable:
		p.note("latest-milestone", s.Text, "is not a release; ignored")
	case readMultiple, readExtraText:
		p.note("latest-milestone", s.Text, "is not one release; %s is taken", v)
	}
	return v
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, l := range list {
		if strings.EqualFold(l, s) {
			return true
		}
	}
	return false
}

func isLetter(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }

func notLetter(r rune) bool { return !unicode.IsLetter(r) }
