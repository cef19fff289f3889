package engine_test

import (
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// An upgrade answer breaks first (issue 30, point 9): the APIs that stop
// being served, the other removals, what needs action, the deprecations,
// each release by release, in the groups every platform draws with their
// counts; `upgrade 1.25 1.36 sig-node` keeps sig-node's notices and
// graduations and every API that stops being served.
func TestUpgradeBreaksFirst(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a := ask(t, e, "upgrade 1.25 1.36")
			if !a.BreaksFirst {
				t.Fatal("upgrade 1.25 1.36 does not say it breaks first")
			}
			prev := 0
			for i, n := range a.Notices {
				r := knowledge.BreakRank(n)
				if r < prev {
					t.Fatalf("notice %d (%s in %s: %q) comes after rank %d", i, n.Kind, n.Release, n.Title, prev)
				}
				prev = r
			}
			groups := knowledge.NoticeGroups(a)
			if len(groups) != 4 || !strings.HasPrefix(groups[0].Title, "APIs") {
				t.Errorf("groups %v; want APIs, other removals, action required, deprecations", groups)
			}
			total := 0
			for _, g := range groups {
				total += len(g.Notices)
			}
			if total != len(a.Notices) {
				t.Errorf("the groups hold %d notices of %d", total, len(a.Notices))
			}

			q, err := question.Parse("upgrade 1.25 1.36 sig-node")
			if err != nil || q.Canonical() != "upgrade 1.25 1.36 sig-node" {
				t.Fatalf("upgrade 1.25 1.36 sig-node reads as %q, %v", q.Canonical(), err)
			}
			s := ask(t, e, "upgrade 1.25 1.36 sig-node")
			if !strings.Contains(s.Title, "sig-node") || len(s.Notices) == 0 || len(s.Notices) >= len(a.Notices) {
				t.Fatalf("upgrade 1.25 1.36 sig-node: %q, %d notices of %d", s.Title, len(s.Notices), len(a.Notices))
			}
			apis := 0
			for _, n := range s.Notices {
				if n.IsAPIRemoval() {
					apis++
					continue
				}
				if !contains(n.SIGs, "sig-node") {
					t.Errorf("upgrade 1.25 1.36 sig-node lists %q of %v", n.Title, n.SIGs)
				}
			}
			for _, n := range a.Notices {
				if n.IsAPIRemoval() {
					apis--
				}
			}
			if apis != 0 {
				t.Errorf("the SIG's upgrade lists a different number of API removals than the whole one (%d off)", apis)
			}
			for _, it := range s.Items {
				if it.SIG != "sig-node" {
					t.Errorf("upgrade 1.25 1.36 sig-node lists KEP-%d of %s", it.KEP, it.SIG)
				}
			}
		})
	}
}
