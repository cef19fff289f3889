package question

import (
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// TestSuccessorsFold: KEPs withdrawn for one successor never answer for
// it, each alone or together, however the name ranks them; the successor
// keeps the best of their scores.
func TestSuccessorsFold(t *testing.T) {
	k := func(n int, status, title string) *knowledge.KEP {
		return &knowledge.KEP{Number: n, Status: status, SIG: "sig-node", Title: title, FeatureGates: []string{"WidgetPools"}, Source: "kep.yaml"}
	}
	v := NewVocabulary([]*knowledge.KEP{
		k(1, "withdrawn", "Widget pools"), k(2, "replaced", "Widget pools for nodes"),
		k(3, "implemented", "Node widget allocation"), {Number: 4, Title: "Widget dashboards", SIG: "sig-ui"},
	})
	for _, words := range [][]string{{"widget", "pools"}, {"widget", "pools", "nodes"}, {"widget"}} {
		f := v.resolve(words)
		for i, m := range f.best {
			if m.Number == 1 || m.Number == 2 {
				t.Errorf("resolve(%q) ranks withdrawn KEP-%d at %d: %+v", words, m.Number, i, f.best)
			}
		}
		if words[len(words)-1] != "widget" && (!f.sure || f.best[0].Number != 3) {
			t.Errorf("resolve(%q) = %+v (sure %v); want KEP-3, the successor", words, f.best, f.sure)
		}
	}
}
