package engine_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// TestKEPGAWhenEveryOwnGateIs: a KEP with several own gates is GA when
// every own gate its release declares is GA, not when its first gate is.
// KEP-2799's gates went GA in 1.26 (LegacyServiceAccountTokenNoAutoGeneration),
// 1.28 (LegacyServiceAccountTokenTracking) and 1.30
// (LegacyServiceAccountTokenCleanUp, born alpha in 1.28): GA in 1.30, as
// kep.yaml and the 1.30 release post say. Where kep.yaml dates a stage in a
// release whose code still declares an own gate below it, kep.yaml stands
// and the card says both.
func TestKEPGAWhenEveryOwnGateIs(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a := ask(t, e, "kep 2799")
			if a.KEP == nil || a.KEP.Milestones["stable"] != "1.30" || a.KEP.Milestones["beta"] != "1.24" {
				t.Fatalf("kep 2799: %q; want beta in 1.24, GA in 1.30", a.Text)
			}
			if !strings.Contains(a.Text, "GA in 1.30") || strings.Contains(a.Text, "1.26") {
				t.Errorf("kep 2799: %q", a.Text)
			}
			for _, sh := range a.KEP.Shipped {
				if sh.Stage == knowledge.StageStable && (sh.Gate != "LegacyServiceAccountTokenCleanUp" || sh.Release.String() != "1.30") {
					t.Errorf("kep 2799 GA shipped %+v; want the code of 1.30 (LegacyServiceAccountTokenCleanUp)", sh)
				}
			}
			if w := a.KEP.Disputed["stable"]; w != "" {
				t.Errorf("kep 2799: GA disputed %q; what shipped and kep.yaml agree on 1.30", w)
			}
			if v := ask(t, e, "is kep 2799 ga in 1.28"); v.Verdict != knowledge.VerdictNo {
				t.Errorf("is kep 2799 ga in 1.28: %s %q", v.Verdict, v.Text)
			}
			if v := ask(t, e, "is kep 2799 ga in 1.30"); v.Verdict != knowledge.VerdictYes {
				t.Errorf("is kep 2799 ga in 1.30: %s %q", v.Verdict, v.Text)
			}
			if !listed(ask(t, e, "1.30 ga"), 2799) || listed(ask(t, e, "1.26 ga"), 2799) {
				t.Error("KEP-2799 should be in 1.30 ga, not in 1.26 ga")
			}
			// every own gate GA: KEP-1205's BoundServiceAccountTokenVolume in
			// 1.22 (kep.yaml too), not TokenRequest's 1.20
			if a := ask(t, e, "kep 1205"); a.KEP.Milestones["stable"] != "1.22" || a.KEP.Milestones["beta"] != "1.21" {
				t.Errorf("kep 1205: %v; want beta 1.21, GA 1.22", a.KEP.Milestones)
			}
			// a gate born beta beside one still alpha dates no beta:
			// WatchListClient (client-go 1.30) while WatchList was alpha
			// until 1.32 (PR 128053)
			if a := ask(t, e, "kep 3157"); a.KEP.Milestones["beta"] != "1.32" || a.KEP.Disputed["beta"] != "" {
				t.Errorf("kep 3157: %v %v; want beta 1.32, as kep.yaml", a.KEP.Milestones, a.KEP.Disputed)
			}
			// kep.yaml's GA stands; the code's add-on went GA later, and the card says both
			for q, want := range map[string]string{
				"kep 1880": "GA in 1.33 (by kep.yaml; the code of 1.33 still declares DisableAllocatorDualWrite beta; every own gate is GA from 1.34)",
				"kep 1710": "GA in 1.36 (by kep.yaml; the code of 1.36 still declares SELinuxMount beta; every own gate is GA from 1.37)",
				"kep 2339": "beta in 1.30 (by kep.yaml; the code of 1.30 still declares StorageVersionAPI alpha; no release I read declares an own gate beta)",
				"kep 127":  "beta in 1.30 (by the code of 1.30 (UserNamespacesSupport)",
			} {
				if a := ask(t, e, q); !strings.Contains(a.Text, want) {
					t.Errorf("%s: %q; want %q", q, a.Text, want)
				}
			}
			// KEP-1487's InTreePluginAWSUnregister (alpha 1.21-1.30, then
			// gone) is an opt-in switch, not work left: GA in 1.25 by the code
			if a := ask(t, e, "kep 1487"); a.KEP.Milestones["stable"] != "1.25" || !slices.ContainsFunc(a.KEP.Shipped, func(sh knowledge.ShippedStage) bool {
				return sh.Stage == knowledge.StageStable && sh.Gate == "CSIMigrationAWS"
			}) {
				t.Errorf("kep 1487: %v %+v; want GA 1.25 by the code (CSIMigrationAWS)", a.KEP.Milestones, a.KEP.Shipped)
			}
		})
	}
}

// listed reports whether answer a lists KEP n.
func listed(a *knowledge.Answer, n int) bool {
	return slices.ContainsFunc(a.Items, func(it knowledge.Item) bool { return it.KEP == n })
}
