package knowledge_test

import (
	"strings"
	"testing"
)

// TestPlannedIsNotReached: a kep.yaml milestone after the newest release
// out (1.37: k8s.io/api v0.37.2 is published) is planned, and a
// provisional KEP has reached nothing, on both databases.
func TestPlannedIsNotReached(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a := ask(t, e, "kep 5040")
			if a.KEP == nil || a.KEP.Milestones["stable"] != "" || a.KEP.Targets["stable"] != "1.39" || a.KEP.Milestones["beta"] != "1.36" {
				t.Errorf("kep 5040: reached %v, planned %v; want beta 1.36 reached and GA 1.39 planned", a.KEP.Milestones, a.KEP.Targets)
			}
			if strings.Contains(a.Text, "GA in 1.39.") && !strings.Contains(a.Text, "Planned: GA in 1.39") {
				t.Errorf("kep 5040 says GA in 1.39 as reached: %q", a.Text)
			}
			c := ask(t, e, "is kep 5975 ga")
			if !strings.HasPrefix(c.Text, "No — ") || !strings.Contains(c.Text, "provisional") || !strings.Contains(c.Text, "planned for 1.37") {
				t.Errorf("is kep 5975 ga: %q", c.Text)
			}
			g := ask(t, e, "1.37 ga")
			for _, it := range g.Items {
				if it.KEP == 5975 {
					t.Errorf("1.37 ga lists the provisional KEP-5975: %+v", it)
				}
			}
			if r := ask(t, e, "1.38 ga"); strings.Contains(r.Text, "went GA in Kubernetes 1.38") && len(r.Items) > 0 {
				t.Errorf("1.38 ga lists what went GA in a release not out: %q", r.Text)
			}
		})
	}
}
