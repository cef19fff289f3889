package slack

import "github.com/kepbot/kepbot/knowledge"

// gateEntries are an answer's feature gate sections
// (knowledge.Answer.GateSections) as entry lines: a bold title, then a
// line each. They come first among the entries: a gate's table, a
// release's changed gates; an upgrade's gates removed and defaults that
// flip go among what breaks instead (gateRows).
func gateEntries(a *knowledge.Answer) []string {
	var out []string
	for _, s := range a.GateSections() {
		out = append(out, "*"+escCut(s.Title, capLine)+"*")
		for _, l := range s.Lines {
			out = append(out, "• "+escCut(l, capLine))
		}
	}
	return out
}

// gateRows are an upgrade's feature gate sections as rows of its list of
// what breaks: a heading, then a line each.
func gateRows(a *knowledge.Answer) []breakRow {
	var out []breakRow
	for _, s := range a.GateSections() {
		out = append(out, breakRow{heading: s.Title})
		for _, l := range s.Lines {
			out = append(out, breakRow{text: l})
		}
	}
	return out
}
