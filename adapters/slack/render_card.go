package slack

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// cardFields returns the fields of a KEP or release card (the structured
// facts first, then the answer's own facts), of a subscription or of a
// digest (see factsAsFields) and, past MaxFields, the rest as entry lines.
// Other kinds have no card: their facts are entry lines.
func (r *renderer) cardFields() (fields, overflow []string) {
	var fs []knowledge.Fact
	switch {
	case r.a.KEP != nil:
		fs = kepFacts(r.a.KEP)
		if len(r.a.Facts) > 0 {
			fs = append(fs[:len(fs):len(fs)], r.a.Facts...)
		}
	case r.a.Release != nil:
		fs = append(releaseFacts(r.a.Release), r.a.Facts...)
	case factsAsFields(r.a):
		fs = r.a.Facts
	default:
		return nil, nil
	}
	for _, f := range fs {
		if f.Name == "" && f.Value == "" {
			continue
		}
		if len(fields) < MaxFields {
			fields = append(fields, truncate("*"+escCut(f.Name, capField)+"*\n"+escCut(f.Value, capField), capField))
			continue
		}
		overflow = append(overflow, factLine(f, capLine))
	}
	return fields, overflow
}

// factsAsFields reports whether a's facts are drawn as a card's fields: a
// subscription's settings, and the count per release that heads a digest
// (or any list of notices with facts).
func factsAsFields(a *knowledge.Answer) bool {
	switch {
	case a.KEP != nil || a.Release != nil || len(a.Facts) == 0:
		return false
	case a.Kind == knowledge.KindSubscription:
		return true
	}
	return a.Kind == knowledge.KindList && len(a.Notices) > 0
}

// kepFacts are the card fields of a KEP: SIG, stage, status, the releases
// it reached each stage in, the stages it targets, its feature gates.
func kepFacts(k *knowledge.KEPFacts) []knowledge.Fact {
	fs := make([]knowledge.Fact, 0, 6)
	add := func(name, value string) {
		if value != "" {
			fs = append(fs, knowledge.Fact{Name: name, Value: value})
		}
	}
	add("SIG", k.SIG)
	add("Stage", k.Stage.Label())
	add("Status", k.Status)
	add("Reached", stageReleases(k.Milestones))
	add("Targets", stageReleases(knowledge.Without(k.Targets, k.Missed)))
	add("Not reached", stageReleases(k.Missed))
	if n := len(k.FeatureGates); n > 0 {
		name := "Feature gate"
		if n > 1 {
			name += "s"
		}
		gates := make([]string, len(k.FeatureGates))
		for i, g := range k.FeatureGates {
			gates[i] = code(cut(g, capField))
		}
		add(name, joinCapped(gates, capField-len(name)-10))
	}
	return fs
}

// stageReleases writes {"alpha":"1.31","beta":"1.33"} as
// "alpha 1.31 · beta 1.33", in graduation order.
func stageReleases(m map[string]string) string {
	var parts []string
	for _, s := range knowledge.GraduationStages {
		if v := m[s.String()]; v != "" {
			parts = append(parts, s.Label()+" "+v)
		}
	}
	return strings.Join(parts, " · ")
}

// releaseFacts are the card fields of a release.
func releaseFacts(rf *knowledge.ReleaseFacts) []knowledge.Fact {
	var fs []knowledge.Fact
	if rf.Date != "" {
		fs = append(fs, knowledge.Fact{Name: "Released", Value: rf.Date})
	}
	if rf.Theme != "" {
		fs = append(fs, knowledge.Fact{Name: "Theme", Value: rf.Theme})
	}
	if c := rf.Enhancements; !c.IsZero() {
		fs = append(fs, knowledge.Fact{Name: "Enhancements", Value: c.FieldText()})
	}
	return fs
}

// joinCapped joins ss with ", " within max characters, ending with "and
// N more" when some are left out.
func joinCapped(ss []string, max int) string {
	var b strings.Builder
	for i, s := range ss {
		more := " and " + strconv.Itoa(len(ss)-i) + " more"
		if i > 0 && runes(b.String())+2+runes(s)+len(more) > max {
			b.WriteString(more)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

// timeline draws a KEP's stage timeline, one step a line.
func (r *renderer) timeline(steps []knowledge.Step) {
	if len(steps) == 0 {
		return
	}
	var ls []string
	for _, s := range steps {
		l := "• *" + s.Release.String() + "* " + s.Stage.Label()
		switch {
		case s.Back:
			l += " (back from a later stage)"
		case s.Repeat:
			l += " (said again)"
		}
		if s.Source != "" {
			l += " · _" + escCut(s.Source, 80) + "_"
		}
		ls = append(ls, l)
	}
	r.lines("*Stage timeline*", ls, capTimeline)
}

// pageValue is the state a page button carries: the page, whether the
// answer was public, and the question to ask again. "3|1|1.29 ga".
func pageValue(query string, page int, public bool) string {
	pub := "0"
	if public {
		pub = "1"
	}
	return strconv.Itoa(page) + "|" + pub + "|" + query
}

// parsePageValue reads a pageValue; ok is false for anything else.
func parsePageValue(v string) (query string, page int, public, ok bool) {
	p, rest, ok1 := strings.Cut(v, "|")
	pub, q, ok2 := strings.Cut(rest, "|")
	n, err := strconv.Atoi(p)
	if !ok1 || !ok2 || err != nil || n < 0 || n >= maxPages || (pub != "0" && pub != "1") || strings.TrimSpace(q) == "" {
		return "", 0, false, false
	}
	return q, n, pub == "1", true
}
