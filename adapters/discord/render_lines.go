package discord

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// Caps on one piece of answer text, before it is escaped.
const (
	maxQuote = 300  // a document's words quoted in a line
	maxName  = 300  // a KEP, item or notice title, a source name
	maxWord  = 200  // a SIG, status, date, gate, API group, link title
	maxText  = 2000 // an answer's summary
)

// itemLines writes items one a line: "• **KEP-3866** nftables backend · GA
// in 1.29 · sig-network — “quote”", numbered when ranked. In the answer
// about one KEP (kep set) it is "• GA in 1.29 — “quote”", with the name
// the document gives only when it differs from the KEP's.
func itemLines(items []knowledge.Item, kep *knowledge.KEPFacts) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		var b strings.Builder
		if it.Rank > 0 {
			fmt.Fprintf(&b, "%d\\. ", it.Rank)
		} else {
			b.WriteString("• ")
		}
		if kep != nil {
			b.WriteString(stageIn(it.Stage, it.Release))
			if it.Title != "" && !strings.EqualFold(it.Title, kep.Title) {
				b.WriteString(": " + esc(it.Title, maxName))
			}
		} else {
			if it.KEP > 0 {
				fmt.Fprintf(&b, "**KEP-%d** ", it.KEP)
			}
			b.WriteString(esc(it.Title, maxName))
			if s := stageIn(it.Stage, it.Release); s != "" {
				b.WriteString(" · " + s)
			}
			if it.SIG != "" {
				b.WriteString(" · " + esc(it.SIG, maxWord))
			}
		}
		if it.Text != "" {
			b.WriteString(" — “" + esc(it.Text, maxQuote) + "”")
		}
		out = append(out, strings.TrimSpace(b.String()))
	}
	return out
}

// stageIn writes "GA in 1.29", "beta", "1.29" or "".
func stageIn(s knowledge.Stage, v knowledge.Version) string {
	switch {
	case s != knowledge.StageNone && !v.IsZero():
		return s.Label() + " in " + v.String()
	case s != knowledge.StageNone:
		return s.Label()
	}
	return v.String()
}

// noteLines writes the answer's caveats (sources that disagree, items left
// out), one a line.
func noteLines(notes []string) []string {
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		out = append(out, "ℹ️ "+esc(n, maxLine))
	}
	return out
}

// sourcesFooter names the sources with their dates: "Sources: a (as of
// 2024-08-13) · b". Footers show no markdown, so the names are made plain
// and @everyone broken, not backslash-escaped.
func sourcesFooter(srcs []knowledge.SourceRef) string {
	if len(srcs) == 0 {
		return ""
	}
	parts := make([]string, 0, len(srcs))
	for _, s := range srcs {
		p := plain(cutRunes(s.Name, maxName))
		if s.AsOf != "" {
			p += " (as of " + plain(s.AsOf) + ")"
		} else {
			p += " (date unknown)"
		}
		parts = append(parts, p)
	}
	label := "Source: "
	if len(parts) > 1 {
		label = "Sources: "
	}
	return truncate(breakMentions(label+strings.Join(parts, " · ")), 1000)
}

func escapeAll(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = esc(s, maxWord)
	}
	return strings.Join(out, ", ")
}
