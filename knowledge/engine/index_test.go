package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
)

func TestQueryTerms(t *testing.T) {
	for in, want := range map[string][]string{
		"image volume":        {"image", "volume"},
		"the image of a pod":  {"image", "pod"},
		"the":                 {"the"},
		"访问模式":                {"访问", "问模", "模式"},
		"网":                   {"网"},
		"kube-proxy nftables": {"kube", "proxy", "nftables"},
		"NFTablesProxyMode":   {"nftablesproxymode"},
		"pod Pod POD":         {"pod"},
	} {
		if diff := cmp.Diff(want, queryTerms(in)); diff != "" {
			t.Errorf("queryTerms(%q) (-want +got):\n%s", in, diff)
		}
	}
}

// TestSearchRanking checks each step of the order on made-up KEPs: a
// phrase in the name, then words in the name, gates, SIG, notes; ties by
// number.
func TestSearchRanking(t *testing.T) {
	keps := []*knowledge.KEP{
		{Number: 1, Title: "Quiet notes", SIG: "sig-node", History: []knowledge.Mention{{Text: "lantern harbour"}}},
		{Number: 2, Title: "Harbour lantern", SIG: "sig-apps"},
		{Number: 3, Title: "Lantern of the harbour", SIG: "sig-lantern"},
		{Number: 4, Title: "Other", SIG: "sig-lantern", FeatureGates: []string{"HarbourLights"}},
		{Number: 5, Title: "Lantern harbour", SIG: "sig-apps"},
		{Number: 6, Title: "灯笼港口", History: []knowledge.Mention{{Text: "港口的灯笼"}}},
	}
	ix := buildIndex(keps, nil)
	order := func(q string) []int {
		var out []int
		for _, h := range ix.lookup(q) {
			out = append(out, ix.docs[h.doc].Number)
		}
		return out
	}
	for q, want := range map[string][]int{
		"lantern harbour": {5, 3, 2, 4, 1}, // phrase; then both words in the name (3 before 2: SIG), the gate and SIG, notes
		"harbour":         {2, 3, 5, 4, 1}, // the word in the name, by number; then the gate; then notes
		"harb":            {2, 3, 5, 4, 1}, // a prefix finds harbour in names, then HarbourLights as a gate
		"港口":              {6},
		"灯笼港口":            {6},
		"zebra":           nil,
	} {
		if diff := cmp.Diff(want, order(q)); diff != "" {
			t.Errorf("lookup(%q) (-want +got):\n%s", q, diff)
		}
	}
}
