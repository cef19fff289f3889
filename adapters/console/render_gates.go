package console

import "github.com/kepbot/kepbot/knowledge"

// gates writes an answer's feature gate sections (knowledge.Answer.
// GateSections): a gate's declarations, a release's changed gates, an
// upgrade's gates removed and defaults that flip.
func (r *renderer) gates(a *knowledge.Answer) {
	for _, s := range a.GateSections() {
		r.section()
		r.line("", s.Title+":")
		for _, l := range s.Lines {
			r.wrap("  - ", "    ", l)
		}
		r.started = true
	}
}
