package discord

import "github.com/kepbot/kepbot/knowledge"

// gateSections draws an answer's feature gate sections
// (knowledge.Answer.GateSections) as a bold title and a line each.
func gateSections(a *knowledge.Answer) [][]string {
	var out [][]string
	for _, s := range a.GateSections() {
		lines := []string{"**" + esc(s.Title, maxLine) + "**"}
		for _, l := range s.Lines {
			lines = append(lines, "• "+esc(l, maxLine))
		}
		out = append(out, lines)
	}
	return out
}

// addGates puts a gate's or a release's gate sections before the doc's
// other lines: the code's table is what the answer is about.
func (d *doc) addGates(a *knowledge.Answer) {
	var lines []string
	for _, s := range gateSections(a) {
		lines = append(lines, s...)
	}
	d.lines = append(lines, d.lines...)
}

// addUpgradeGates adds an upgrade's gates removed and defaults that flip,
// each in a section of its own: the removed in the breaking colour.
func (d *doc) addUpgradeGates(a *knowledge.Answer) {
	for i, s := range a.GateSections() {
		color := colorNotice
		if i == 0 && a.Gates != nil && len(a.Gates.Removed) > 0 {
			color = colorBreaking
		}
		var lines []string
		for _, l := range s.Lines {
			lines = append(lines, "• "+esc(l, maxLine))
		}
		d.addSection(s.Title, color, lines)
	}
}
