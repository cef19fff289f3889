package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// One fact once (issue 30, point 3): every document line that says a
// feature reached a stage is tied to the KEP it speaks of (by number, gate
// or name, in English or Chinese), and a stage list counts KEPs, not lines:
// `1.27 ga` is the 13 KEPs kep.yaml puts there (the Chinese notes' lines on
// the Topology Manager, OpenAPI v3, gRPC probes, CronJob time zones,
// seccomp defaulting and kubectl's default container join them), `1.29
// beta` 12. A notice told by several documents is one item: `1.27
// removals` lists 17, and `1.31 action required` lists the Chinese notes'
// DRA paragraph (KEP-3063 and KEP-4381) once.
func TestOneFactOnce(t *testing.T) {
	k := fullKnowledge(t)
	for _, kp := range k.KEPs {
		for _, m := range kp.History {
			if m.KEP != kp.Number {
				t.Errorf("KEP-%d holds a mention of KEP-%d", kp.Number, m.KEP)
			}
		}
	}
	linked := map[string]bool{}
	for _, kp := range k.KEPs {
		for _, m := range kp.History {
			linked[fmt.Sprintf("%s#%d", m.Source, m.Line)] = true
		}
	}
	for _, r := range k.Releases {
		for _, it := range r.Items {
			if it.KEP == 0 && (r.Version.String() == "1.27" && it.Stage == knowledge.StageStable || r.Version.String() == "1.29" && it.Stage == knowledge.StageBeta) {
				t.Errorf("%s %s: the line %q (%s) is tied to no KEP", r.Version, it.Stage, it.Title, it.Source)
			}
		}
	}
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for q, want := range map[string]int{"1.27 ga": 13, "1.29 beta": 12} {
				a := ask(t, e, q)
				var keps []int
				for _, it := range a.Items {
					if it.KEP == 0 {
						t.Errorf("%s lists a line of its own: %q (%s)", q, it.Title, it.Source)
					}
					if slices.Contains(keps, it.KEP) {
						t.Errorf("%s lists KEP-%d twice", q, it.KEP)
					}
					keps = append(keps, it.KEP)
				}
				if len(a.Items) != want || !strings.HasPrefix(a.Text, fmt.Sprint(want)+" enhancements") {
					t.Errorf("%s: %q, %d items %v; want %d distinct KEPs", q, a.Text, len(a.Items), keps, want)
				}
			}
			if name == "corpus" {
				for _, it := range ask(t, e, "1.27 ga").Items {
					if it.KEP == 693 && len(it.ToldBy) < 2 {
						t.Errorf("1.27 ga: KEP-693 is told by %v besides %s; want kep.yaml and the Chinese notes' lines too", it.ToldBy, it.Source)
					}
				}
			}
			a := ask(t, e, "1.27 removals")
			prs := map[int]int{}
			for _, n := range a.Notices {
				if n.PR > 0 {
					prs[n.PR]++
				}
				if n.PR == 0 && strings.Contains(n.Title, "master-service-namespace") {
					t.Errorf("1.27 removals lists a document's %q apart from the entry of kube-apiserver's flag", n.Title)
				}
			}
			for pr, c := range prs {
				if c > 1 {
					t.Errorf("1.27 removals lists PR #%d %d times", pr, c)
				}
			}
			if len(a.Notices) != 17 {
				for _, n := range a.Notices {
					t.Logf("  %s PR %d %s", n.Source, n.PR, n.Title)
				}
				t.Errorf("1.27 removals: %q, %d items; want the 17 distinct removals", a.Text, len(a.Notices))
			}
			places, dra := map[string]bool{}, 0
			for _, n := range ask(t, e, "1.31 action required").Notices {
				if n.KEP == 3063 || n.KEP == 4381 {
					dra++
				}
				if n.PR > 0 {
					continue
				}
				p := fmt.Sprintf("%s#%d", n.Source, n.Line)
				if places[p] {
					t.Errorf("1.31 action required lists the paragraph at %s twice (%q)", p, n.Title)
				}
				places[p] = true
			}
			if dra != 1 {
				t.Errorf("1.31 action required lists the DRA paragraph (KEP-3063, KEP-4381) %d times; want once", dra)
			}
		})
	}
}
