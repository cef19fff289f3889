package slack

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// capPostLine is the longest entry line of a digest posted whole: long
// enough for the words a full-format digest quotes (400 characters).
const capPostLine = 640

// entryList is the lines of a list: overflow card fields, releases (the
// releases answer), facts (for kinds without a card), items, notices.
// Lines are drawn only for the page shown, so a page of a huge answer
// costs no more than a page of a small.
type entryList struct {
	a     *knowledge.Answer
	extra []string
	facts []knowledge.Fact
	items []knowledge.Item
	max   int // characters of one line
	// breaks are the rows of an answer that breaks first (an upgrade):
	// each group of notices under its heading, then the items under
	// theirs (knowledge.NoticeGroups), in place of the notices and items.
	breaks []breakRow
}

// breakRow is one row of an upgrade's list: a heading, a notice or an item.
type breakRow struct {
	heading string
	notice  *knowledge.Notice
	fact    *knowledge.Fact
	item    *knowledge.Item
	text    string // a line of a feature gate section (render_gates.go)
}

func newEntryList(a *knowledge.Answer, extra []string, whole bool) entryList {
	e := entryList{a: a, extra: extra, items: a.ItemsWithoutSharedSIG(), max: capLine}
	if a.KEP == nil && a.Release == nil && !factsAsFields(a) {
		e.facts = a.Facts
	}
	if whole {
		e.max = capPostLine
	}
	if a.BreaksFirst {
		facts := e.facts // an upgrade's vulnerabilities: a part of their own
		e.facts = nil
		for _, p := range knowledge.BreakParts(a) {
			switch p.Kind {
			case knowledge.PartNotices:
				e.breaks = append(e.breaks, breakRow{heading: p.Group.Heading()})
				for i := range p.Group.Notices {
					e.breaks = append(e.breaks, breakRow{notice: &p.Group.Notices[i]})
				}
			case knowledge.PartGates:
				e.breaks = append(e.breaks, gateRows(a)...) // render_gates.go
			case knowledge.PartVulns:
				if len(facts) > 0 {
					e.breaks = append(e.breaks, breakRow{heading: fmt.Sprintf("%s (%d)", knowledge.VulnsTitle, len(facts))})
					for i := range facts {
						e.breaks = append(e.breaks, breakRow{fact: &facts[i]})
					}
				}
			case knowledge.PartItems:
				if len(e.items) == 0 {
					continue
				}
				e.breaks = append(e.breaks, breakRow{heading: fmt.Sprintf("%s (%d)", knowledge.ItemsTitle, len(e.items))})
				for i := range e.items {
					e.breaks = append(e.breaks, breakRow{item: &e.items[i]})
				}
			}
		}
	}
	return e
}

func (e entryList) len() int {
	if e.breaks != nil {
		return len(e.extra) + len(e.a.Releases) + len(e.facts) + len(e.breaks)
	}
	return len(e.extra) + len(e.a.Releases) + len(e.facts) + len(e.items) + len(e.a.Notices)
}

// headings says, for an upgrade's list, where each group starts: "APIs
// that stop being served (12) p.1 · Other removals (30) p.2" for the
// first page, so its counts and where to find each are seen at once.
func (e entryList) headings(pageSize int) string {
	var parts []string
	start := len(e.extra) + len(e.a.Releases) + len(e.facts)
	for i, r := range e.breaks {
		if r.heading != "" {
			parts = append(parts, esc(r.heading)+" p."+strconv.Itoa((start+i)/pageSize+1))
		}
	}
	return strings.Join(parts, " · ")
}

// line draws line i, escaped and cut to e.max.
func (e entryList) line(i int) string {
	if i < len(e.extra) {
		return e.extra[i]
	}
	i -= len(e.extra)
	if i < len(e.a.Releases) {
		return releaseLine(e.a.Releases[i], e.max)
	}
	i -= len(e.a.Releases)
	if i < len(e.facts) {
		return factLine(e.facts[i], e.max)
	}
	i -= len(e.facts)
	if e.breaks != nil {
		switch r := e.breaks[i]; {
		case r.notice != nil:
			return noticeLine(*r.notice, e.max)
		case r.item != nil:
			return itemLine(*r.item, e.max)
		case r.fact != nil:
			return factLine(*r.fact, e.max)
		case r.text != "":
			return truncate("• "+esc(r.text), e.max)
		default:
			return truncate("*"+esc(r.heading)+"*", e.max)
		}
	}
	if i < len(e.items) {
		return itemLine(e.items[i], e.max)
	}
	return noticeLine(e.a.Notices[i-len(e.items)], e.max)
}

// releaseLine: • *1.29* — 2023-12-13 · Mandala · 49 enhancements: 11 GA, 19 beta, 19 alpha
func releaseLine(r knowledge.ReleaseFacts, max int) string {
	var parts []string
	for _, s := range []string{r.Date, r.Theme} {
		if s = oneLine(s, capField); s != "" {
			parts = append(parts, esc(s))
		}
	}
	if c := r.Enhancements; !c.IsZero() {
		parts = append(parts, c.LineText())
	}
	l := "• *" + escCut(oneLine(r.Version, capField), capField) + "*"
	if len(parts) > 0 {
		l += " — " + strings.Join(parts, " · ")
	}
	return truncate(l, max)
}

func factLine(f knowledge.Fact, max int) string {
	if f.Name == "" {
		return truncate("• "+escCut(f.Value, max), max)
	}
	return truncate("• *"+escCut(f.Name, max)+"*: "+escCut(f.Value, max), max)
}

// itemLine: • *KEP-4639* OCI VolumeSource · beta in 1.33 · sig-node — words
func itemLine(it knowledge.Item, max int) string {
	var b strings.Builder
	b.WriteString("• ")
	if it.KEP > 0 {
		b.WriteString("*KEP-" + strconv.Itoa(it.KEP) + "* ")
	}
	b.WriteString(escCut(it.Title, max))
	switch {
	case it.Stage != knowledge.StageNone && !it.Release.IsZero():
		b.WriteString(" · " + it.Stage.Label() + " in " + it.Release.String())
	case it.Stage != knowledge.StageNone:
		b.WriteString(" · " + it.Stage.Label())
	case !it.Release.IsZero():
		b.WriteString(" · " + it.Release.String())
	}
	if it.SIG != "" {
		b.WriteString(" · " + escCut(it.SIG, max))
	}
	if t := oneLine(it.Text, max); t != "" {
		b.WriteString(" — " + esc(t))
	}
	return truncate(b.String(), max)
}

// noticeLine: • *Removed* in 1.32 · FlowSchema v1beta3 · `flowcontrol…/v1beta3` → `…/v1` — words
func noticeLine(n knowledge.Notice, max int) string {
	var b strings.Builder
	label := n.Heading()
	b.WriteString("• *" + label + "*")
	if !n.Release.IsZero() {
		b.WriteString(" in " + n.Release.String())
	}
	if n.Title != "" {
		b.WriteString(" · " + escCut(n.Title, max))
	}
	if n.API != nil && n.API.GroupVersion != "" {
		b.WriteString(" · " + code(cut(n.API.GroupVersion, max)))
		if n.API.ReplacedBy != "" {
			b.WriteString(" → " + code(cut(n.API.ReplacedBy, max)))
			if n.API.Replacement() != n.API.ReplacedBy {
				b.WriteString(" for " + escCut(strings.Join(n.API.ReplacedFor, ", "), max))
			}
		}
	}
	if n.KEP > 0 {
		b.WriteString(" · KEP-" + strconv.Itoa(n.KEP))
	}
	if n.PR > 0 {
		b.WriteString(" · " + link(n.URL, "#"+strconv.Itoa(n.PR)))
	}
	if n.ActionTagged() {
		b.WriteString(" · *action required*")
	}
	if l := n.LabelTag(); l != "" {
		b.WriteString(" · " + l)
	}
	if len(n.SIGs) > 0 {
		b.WriteString(" · " + escCut(strings.Join(n.SIGs, ", "), max))
	}
	if t := oneLine(n.Text, max); t != "" {
		b.WriteString(" — " + esc(t))
	}
	return truncate(b.String(), max)
}

// allEntries draws every line of all that fits in blocks sections and
// chars characters, each section at most MaxSectionText; lines left out
// end the last section as "… and N more" and mark the message cut.
func (r *renderer) allEntries(all entryList, blocks, chars int) {
	n := all.len()
	const more = len("\n… and 99999 more")
	var b strings.Builder
	used, count := 0, 0 // characters of the sections done, sections done
	flush := func() {
		if b.Len() > 0 {
			r.add(&Section{Text: b.String()})
			used += runes(b.String())
			count++
			b.Reset()
		}
	}
	for i := 0; i < n; i++ {
		l := all.line(i)
		size := runes(l)
		if b.Len() > 0 && runes(b.String())+1+size+more > MaxSectionText {
			flush()
		}
		cur := runes(b.String())
		if (b.Len() == 0 && count+1 > blocks) || used+cur+1+size+more > chars {
			r.cut = true
			if b.Len() == 0 && count > 0 { // end the last section instead
				last := r.blocks[len(r.blocks)-1].(*Section)
				last.Text += "\n… and " + strconv.Itoa(n-i) + " more"
			} else if b.Len() > 0 {
				b.WriteString("\n… and " + strconv.Itoa(n-i) + " more")
			}
			break
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	flush()
}

// blockChars counts the characters of text in bs, as CheckLimits does.
func blockChars(bs []Block) int {
	n := 0
	for _, b := range bs {
		switch b := b.(type) {
		case *Header:
			n += runes(b.Text)
		case *Section:
			n += runes(b.Text)
			for _, f := range b.Fields {
				n += runes(f)
			}
		case *Context:
			for _, e := range b.Elements {
				n += runes(e)
			}
		case *Actions:
			for _, bt := range b.Buttons {
				n += runes(bt.Text)
			}
		}
	}
	return n
}
