package slack

import (
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// cardFields returns the fields of a KEP or release card (the structured
// facts first, then the answer's own facts) and, past MaxFields, the rest
// as entry lines. Other kinds have no card: their facts are entry lines.
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
		overflow = append(overflow, factLine(f))
	}
	return fields, overflow
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
	add("Targets", stageReleases(k.Targets))
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
		fs = append(fs, knowledge.Fact{Name: "Enhancements", Value: strconv.Itoa(c.Total) + ": " +
			strconv.Itoa(c.Stable) + " GA, " + strconv.Itoa(c.Beta) + " beta, " + strconv.Itoa(c.Alpha) + " alpha"})
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

// entryList is the lines of a list: overflow card fields, facts (for
// kinds without a card), items, notices. Lines are drawn only for the page
// shown, so a page of a huge answer costs no more than a page of a small.
type entryList struct {
	a     *knowledge.Answer
	extra []string
	facts []knowledge.Fact
}

func newEntryList(a *knowledge.Answer, extra []string) entryList {
	e := entryList{a: a, extra: extra}
	if a.KEP == nil && a.Release == nil {
		e.facts = a.Facts
	}
	return e
}

func (e entryList) len() int {
	return len(e.extra) + len(e.facts) + len(e.a.Items) + len(e.a.Notices)
}

// line draws line i, escaped and cut to capLine.
func (e entryList) line(i int) string {
	if i < len(e.extra) {
		return e.extra[i]
	}
	i -= len(e.extra)
	if i < len(e.facts) {
		return factLine(e.facts[i])
	}
	i -= len(e.facts)
	if i < len(e.a.Items) {
		return itemLine(e.a.Items[i])
	}
	return noticeLine(e.a.Notices[i-len(e.a.Items)])
}

func factLine(f knowledge.Fact) string {
	if f.Name == "" {
		return truncate("• "+escCut(f.Value, capLine), capLine)
	}
	return truncate("• *"+escCut(f.Name, capLine)+"*: "+escCut(f.Value, capLine), capLine)
}

// itemLine: • *KEP-4639* OCI VolumeSource · beta in 1.33 · sig-node — words
func itemLine(it knowledge.Item) string {
	var b strings.Builder
	b.WriteString("• ")
	if it.KEP > 0 {
		b.WriteString("*KEP-" + strconv.Itoa(it.KEP) + "* ")
	}
	b.WriteString(escCut(it.Title, capLine))
	switch {
	case it.Stage != knowledge.StageNone && !it.Release.IsZero():
		b.WriteString(" · " + it.Stage.Label() + " in " + it.Release.String())
	case it.Stage != knowledge.StageNone:
		b.WriteString(" · " + it.Stage.Label())
	case !it.Release.IsZero():
		b.WriteString(" · " + it.Release.String())
	}
	if it.SIG != "" {
		b.WriteString(" · " + escCut(it.SIG, capLine))
	}
	if t := oneLine(it.Text, capLine); t != "" {
		b.WriteString(" — " + esc(t))
	}
	return truncate(b.String(), capLine)
}

var noticeLabels = map[knowledge.NoticeKind]string{
	knowledge.NoticeDeprecation: "Deprecated",
	knowledge.NoticeRemoval:     "Removed",
	knowledge.NoticeUpgrade:     "Upgrade note",
}

// noticeLine: • *Removed* in 1.32 · FlowSchema v1beta3 · `flowcontrol…/v1beta3` → `…/v1` — words
func noticeLine(n knowledge.Notice) string {
	var b strings.Builder
	label := noticeLabels[n.Kind]
	if label == "" {
		label = escCut(string(n.Kind), 40)
	}
	b.WriteString("• *" + label + "*")
	if !n.Release.IsZero() {
		b.WriteString(" in " + n.Release.String())
	}
	if n.Title != "" {
		b.WriteString(" · " + escCut(n.Title, capLine))
	}
	if n.API != nil && n.API.GroupVersion != "" {
		b.WriteString(" · " + code(cut(n.API.GroupVersion, capLine)))
		if n.API.ReplacedBy != "" {
			b.WriteString(" → " + code(cut(n.API.ReplacedBy, capLine)))
		}
	}
	if n.KEP > 0 {
		b.WriteString(" · KEP-" + strconv.Itoa(n.KEP))
	}
	if t := oneLine(n.Text, capLine); t != "" {
		b.WriteString(" — " + esc(t))
	}
	return truncate(b.String(), capLine)
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
