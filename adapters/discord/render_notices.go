package discord

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// Colours of the sections that stand apart from an answer's own colour.
const (
	colorBreaking = 0xED4245 // APIs no longer served: they break clusters
	colorNotice   = 0xF0B232 // removals, deprecations and upgrade notes
)

// Section titles of diff and upgrade answers, and of API removals in any
// answer.
const (
	titleAPIs    = "⛔ APIs no longer served: move manifests and clients off them before upgrading"
	titleNotices = "Removals, deprecations and upgrade notes"
	titleItems   = knowledge.ItemsTitle
)

// diffDoc lays out a diff or upgrade answer: the summary and caveats, then
// the APIs that stop being served in a red section of their own, first in
// both, because they break clusters. An upgrade (BreaksFirst) goes on in
// the groups every platform draws, each with its count: the other
// removals, what needs action, the deprecations, then what graduated; a
// diff with what graduated, then the notices.
func diffDoc(a *knowledge.Answer) *doc {
	d := baseDoc(a, colorList)
	d.lines = noteLines(a.Notes)
	items := itemLines(a.Items, nil)
	if a.BreaksFirst {
		// what breaks a cluster first, in the parts every platform draws
		// (knowledge.BreakParts); the vulnerabilities are a part of their
		// own, not the head's fields
		for _, p := range knowledge.BreakParts(a) {
			switch {
			case p.Kind == knowledge.PartNotices && p.Group.Notices[0].IsAPIRemoval():
				d.addSection("⛔ "+p.Group.Heading(), colorBreaking, apiLines(p.Group.Notices))
			case p.Kind == knowledge.PartNotices:
				d.addSection(p.Group.Heading(), colorNotice, noticeLines(p.Group.Notices))
			case p.Kind == knowledge.PartGates:
				d.addUpgradeGates(a) // render_gates.go
			case p.Kind == knowledge.PartVulns:
				d.addSection(fmt.Sprintf("%s (%d)", knowledge.VulnsTitle, len(a.Facts)), colorList, factLines(a.Facts))
			case p.Kind == knowledge.PartItems:
				d.addSection(fmt.Sprintf("%s (%d)", knowledge.ItemsTitle, len(a.Items)), colorList, items)
			}
		}
		return d
	}
	d.fields = factFields(a.Facts, len(a.Facts) <= 6)
	apis, others := knowledge.SplitAPIRemovals(a.Notices)
	d.addSection(titleAPIs, colorBreaking, apiLines(apis))
	d.addSection(titleItems, colorList, items)
	d.addSection(titleNotices, colorNotice, noticeLines(others))
	return d
}

// addNotices ends any other answer: the APIs that stop being served in a
// red section of their own, then the other notices and the caveats, in an
// embed of the answer's colour when a section came before them.
func (d *doc) addNotices(ns []knowledge.Notice, notes []string) {
	apis, others := knowledge.SplitAPIRemovals(ns)
	var rest []string
	if len(others) > 0 {
		rest = append([]string{"**Notices**"}, noticeLines(others)...)
	}
	rest = append(rest, noteLines(notes)...)
	if len(apis) == 0 {
		d.lines = append(d.lines, rest...)
		return
	}
	d.addSection(titleAPIs, colorBreaking, apiLines(apis))
	d.addSection("", d.color, rest)
}

// apiLines writes one line an API removal: "• **1.30**
// `gizmos.example.io/v1beta1` (Gizmo) → use `gizmos.example.io/v1` ·
// KEP-9102 — “quote”". Group/versions are code spans (cut, never split:
// both end well before maxLine), the rest is escaped.
func apiLines(ns []knowledge.Notice) []string {
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		var b strings.Builder
		fmt.Fprintf(&b, "• **%s** ", n.Release)
		gv := code(truncate(n.API.GroupVersion, maxWord))
		if gv == "" {
			gv = "an API version"
		}
		b.WriteString(gv)
		if len(n.API.Kinds) > 0 {
			b.WriteString(" (" + truncate(escapeAll(n.API.Kinds), maxWord) + ")")
		}
		if r := code(truncate(n.API.ReplacedBy, maxWord)); r != "" {
			b.WriteString(" → use " + r)
			if n.API.Replacement() != n.API.ReplacedBy {
				b.WriteString(" for " + truncate(escapeAll(n.API.ReplacedFor), maxWord))
			}
		}
		if tags := noticeTags(n); tags != "" {
			b.WriteString(" · " + tags)
		}
		if n.Text != "" {
			b.WriteString(" — “" + esc(n.Text, maxQuote) + "”")
		}
		out = append(out, b.String())
	}
	return out
}

// noticeLines writes one line a notice: "• **Deprecated** in 1.29: title
// (KEP-1; gates: A) · API x/v1beta1 (Kind): use x/v1 — “quote”".
func noticeLines(ns []knowledge.Notice) []string {
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		var b strings.Builder
		fmt.Fprintf(&b, "• **%s** in %s: %s", n.Heading(), n.Release, esc(n.Title, maxName))
		if tags := noticeTags(n); tags != "" {
			b.WriteString(" (" + tags + ")")
		}
		if api := n.API; api != nil {
			b.WriteString(" · API " + esc(api.GroupVersion, maxWord))
			if len(api.Kinds) > 0 {
				b.WriteString(" (" + escapeAll(api.Kinds) + ")")
			}
			if api.ReplacedBy != "" {
				b.WriteString(": use " + esc(api.Replacement(), maxWord))
			}
		}
		if n.Text != "" {
			b.WriteString(" — “" + esc(n.Text, maxQuote) + "”")
		}
		out = append(out, b.String())
	}
	return out
}

// noticeTags writes "KEP-1; gates: A, B", or "".
func noticeTags(n knowledge.Notice) string {
	var tags []string
	if n.KEP > 0 {
		tags = append(tags, fmt.Sprintf("KEP-%d", n.KEP))
	}
	if len(n.FeatureGates) > 0 {
		tags = append(tags, "gates: "+escapeAll(n.FeatureGates))
	}
	if n.PR > 0 {
		pr := fmt.Sprintf("#%d", n.PR)
		if u := safeURL(n.URL); u != "" {
			pr += " " + u // shown as it is, never behind a masked link
		}
		tags = append(tags, pr)
	}
	if len(n.SIGs) > 0 {
		tags = append(tags, escapeAll(n.SIGs))
	}
	if n.ActionTagged() {
		tags = append(tags, "**action required**")
	}
	if l := n.LabelTag(); l != "" {
		tags = append(tags, l)
	}
	return strings.Join(tags, "; ")
}

// factLines writes an upgrade's facts (the vulnerabilities it fixes or
// leaves open) one a line: "• **Fixed: CVE-…** — summary".
func factLines(facts []knowledge.Fact) []string {
	out := make([]string, 0, len(facts))
	for _, f := range facts {
		out = append(out, "• **"+esc(f.Name, MaxFieldName)+"** — "+esc(f.Value, MaxFieldValue))
	}
	return out
}
