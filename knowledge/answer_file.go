package knowledge

import (
	"fmt"
	"strings"
)

// A long answer (an upgrade across many releases runs to hundreds of
// lines) is offered whole as a plain-text file: chat shows a page or the
// first messages, the file holds every line in the order every platform
// draws them. It is the answer's own words and facts, no markup.

// MaxAnswerFile bounds the file of one answer: a whole upgrade from 1.19
// is under 300 KiB; what is past the bound is left out, and said.
const MaxAnswerFile = 4 << 20

// AnswerFile is a's whole list as a plain-text file: its name (from the
// question: "upgrade-1.25-1.36.txt") and its text: the title, the summary,
// then an upgrade's parts in the order every platform draws them
// (BreakParts: notice groups with their counts, feature gates,
// vulnerabilities, what graduated), or another answer's facts, items and
// notice groups; the notes and the sources.
func AnswerFile(a *Answer) (name string, text []byte) {
	var b strings.Builder
	line := func(s string) {
		if b.Len() < MaxAnswerFile {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	line(a.Title)
	line(strings.Repeat("=", min(len([]rune(a.Title)), 80)))
	if a.Text != "" {
		line(a.Text)
	}
	facts := func() {
		for _, f := range a.Facts {
			line(f.Name + ": " + f.Value)
		}
	}
	group := func(g NoticeGroup) {
		line("")
		line(g.Heading())
		for _, n := range g.Notices {
			line("- " + noticeFileLine(n))
		}
	}
	items := func() {
		if len(a.Items) == 0 {
			return
		}
		line("")
		line(fmt.Sprintf("%s (%d)", ItemsTitle, len(a.Items)))
		for _, it := range a.Items {
			line("- " + itemFileLine(it))
		}
	}
	if a.BreaksFirst {
		for _, p := range BreakParts(a) {
			switch p.Kind {
			case PartNotices:
				group(p.Group)
			case PartGates:
				for _, s := range a.GateSections() {
					line("")
					line(s.Title)
					for _, l := range s.Lines {
						line("- " + l)
					}
				}
			case PartVulns:
				line("")
				line(fmt.Sprintf("%s (%d)", VulnsTitle, len(a.Facts)))
				facts()
			case PartItems:
				items()
			}
		}
	} else {
		if len(a.Facts) > 0 {
			line("")
			facts()
		}
		items()
		for _, g := range NoticeGroups(a) {
			group(g)
		}
	}
	if len(a.Notes) > 0 {
		line("")
		for _, n := range a.Notes {
			line("Note: " + n)
		}
	}
	if len(a.Sources) > 0 {
		line("")
		for _, s := range a.Sources {
			asOf := s.AsOf
			if asOf == "" {
				asOf = "date unknown"
			}
			line("Source: " + s.Name + ", as of " + asOf)
		}
	}
	if b.Len() >= MaxAnswerFile {
		b.WriteString(fmt.Sprintf("… cut at %d MiB\n", MaxAnswerFile>>20))
	}
	return fileName(a), []byte(b.String())
}

// noticeFileLine writes one notice on one line: "Removed in 1.30: title
// (API x/v1beta1 (Kind): use x/v1; KEP-1; PR #2; action required;
// sig-node) https://… — “words”".
func noticeFileLine(n Notice) string {
	s := n.Heading() + " in " + n.Release.String() + ": " + oneLineText(n.Title)
	var tags []string
	if api := n.API; api != nil {
		t := "API " + api.GroupVersion
		if len(api.Kinds) > 0 {
			t += " (" + strings.Join(api.Kinds, ", ") + ")"
		}
		if r := api.Replacement(); r != "" {
			t += ": use " + r
		}
		tags = append(tags, t)
	}
	if n.KEP > 0 {
		tags = append(tags, fmt.Sprintf("KEP-%d", n.KEP))
	}
	if n.PR > 0 {
		tags = append(tags, fmt.Sprintf("PR #%d", n.PR))
	}
	if n.ActionTagged() {
		tags = append(tags, "action required")
	}
	if l := n.LabelTag(); l != "" {
		tags = append(tags, l)
	}
	if len(n.SIGs) > 0 {
		tags = append(tags, strings.Join(n.SIGs, ", "))
	}
	if len(tags) > 0 {
		s += " (" + strings.Join(tags, "; ") + ")"
	}
	if n.URL != "" {
		s += " " + n.URL
	}
	if t := oneLineText(n.Text); t != "" {
		s += " — “" + t + "”"
	}
	return s
}

// itemFileLine writes one item on one line: "KEP-3866 nftables backend
// (GA in 1.33, sig-network) — “words”".
func itemFileLine(it Item) string {
	var s string
	if it.KEP > 0 {
		s = fmt.Sprintf("KEP-%d ", it.KEP)
	}
	s += oneLineText(it.Title)
	var tags []string
	if it.Stage != StageNone {
		tags = append(tags, strings.TrimSpace(it.Stage.Label()+" in "+it.Release.String()))
	}
	if it.SIG != "" {
		tags = append(tags, it.SIG)
	}
	if len(tags) > 0 {
		s += " (" + strings.Join(tags, ", ") + ")"
	}
	if t := oneLineText(it.Text); t != "" {
		s += " — “" + t + "”"
	}
	return s
}

// oneLineText folds s's white space to single spaces.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// fileName names the file of a: the question's words joined by dashes,
// letters, digits and dots only ("upgrade-1.25-1.36-sig-node.txt"), else
// "kepbot-answer.txt".
func fileName(a *Answer) string {
	q := a.Query
	if q == "" {
		q = a.Title
	}
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(q)) {
		var clean strings.Builder
		for _, r := range w {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
				clean.WriteRune(r)
			}
		}
		if clean.Len() == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(clean.String())
		if b.Len() > 60 {
			break
		}
	}
	if b.Len() == 0 {
		return "kepbot-answer.txt"
	}
	return b.String() + ".txt"
}
