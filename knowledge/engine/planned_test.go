package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
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

// TestSharedNamesPreferTheLiveKEP: DynamicResourceAllocation is named by
// KEP-3063 (withdrawn), KEP-3695 and KEP-4381 (DRA went GA in 1.34 with
// 4381): the withdrawn KEP never answers for its successor, and each
// points at the others.
func TestSharedNamesPreferTheLiveKEP(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a, err := askChat(t, e, "is DRA GA")
			if err != nil {
				t.Fatal(err)
			}
			if a.UnderstoodAs != "is kep 4381 ga" || !strings.HasPrefix(a.Text, "Yes — KEP-4381") {
				t.Errorf("is DRA GA: read as %q: %q", a.UnderstoodAs, a.Text)
			}
			if d, err := askChat(t, e, "dynamic resource allocation"); err != nil || d.KEP == nil || d.KEP.Number != 4381 {
				t.Errorf("dynamic resource allocation: %q", d.UnderstoodAs)
			}
			g := ask(t, e, "gate DynamicResourceAllocation")
			if g.KEP == nil || g.KEP.Number != 4381 || !strings.Contains(g.Text, "KEP-3063 (dynamic resource allocation, withdrawn") || !strings.Contains(g.Text, "KEP-3695") {
				t.Errorf("gate DynamicResourceAllocation: %+v %q", g.KEP, g.Text)
			}
			w := ask(t, e, "kep 3063")
			if !strings.Contains(strings.Join(w.Notes, " "), "DynamicResourceAllocation is also named by KEP-3695 (implemented), KEP-4381 (implemented)") {
				t.Errorf("kep 3063 does not point at its successors: %q", w.Notes)
			}
		})
	}
}

// TestBadVersions: a patch release that does not exist is said so, one
// that does is named, and a signed KEP number is bad input, never read as
// another KEP.
func TestBadVersions(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := askChat(t, e, "1.35.99"); knowledge.ErrorCode(err) != knowledge.ENOTFOUND || !strings.Contains(knowledge.ErrorMessage(err), "the newest 1.35 patch I know is 1.35.10 (per the k8s.io/api v0.35.10 tag, as of 2026-10-28)") {
				t.Errorf("1.35.99: %v", err)
			}
			// the patch list stops at 1.35.8; the k8s.io/api tag names 1.35.10
			if a, err := askChat(t, e, "1.35.9"); err != nil || len(a.Notes) == 0 || !strings.Contains(a.Notes[0], "1.35.9 is a patch release of 1.35: the patch list, as of 2026-08-22, stops at 1.35.8, and the newest I know is 1.35.10") {
				t.Errorf("1.35.9: %v %q", err, a.Notes)
			}
			if a, err := askChat(t, e, "1.35.8"); err != nil || len(a.Notes) == 0 || !strings.Contains(a.Notes[0], "1.35.8 is a patch release of 1.35 (2026-08-20)") {
				t.Errorf("1.35.8: %v %q", err, a.Notes)
			}
			for _, q := range []string{"kep -1", "KEP--1", "kep +5"} {
				_, err := askChat(t, e, q)
				if knowledge.ErrorCode(err) != knowledge.EBADINPUT || !strings.Contains(knowledge.ErrorMessage(err), "not a KEP number") {
					t.Errorf("%s: %v; want bad input, not another KEP", q, err)
				}
			}
		})
	}
}

// TestStalenessAndDisagreementSaid: the latest patch is the newest any
// source names, with each source's date, and where the tag's day and a
// document's day for a release differ, both are said.
func TestStalenessAndDisagreementSaid(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			a := ask(t, e, "1.34 eol")
			if !strings.Contains(a.Text, "1.34.13 (per the k8s.io/api v0.34.13 tag, as of 2026-10-28)") {
				t.Errorf("1.34 eol: %q", a.Text)
			}
			if n := strings.Join(a.Notes, " "); !strings.Contains(n, "(as of 2026-08-22) names 1.34.11 as the latest") {
				t.Errorf("1.34 eol does not say the lifecycle data is older: %q", n)
			}
			if n := strings.Join(ask(t, e, "1.26 eol").Notes, " "); !strings.Contains(n, "Kubernetes 1.26 came out on 2022-12-08 (the day of its 1.26.0 tag in the patch list)") || !strings.Contains(n, "2022-12-09 (the UTC day of its k8s.io/kubernetes v1.26.0 tag, per the Go module proxy") {
				t.Errorf("1.26 eol does not name both days: %q", n)
			}
			if l := ask(t, e, "latest"); !strings.HasPrefix(l.Text, "The newest Kubernetes release out is 1.37") {
				t.Errorf("latest: %q", l.Text)
			}
			if r := ask(t, e, "1.24"); r.Release == nil || r.Release.Date != "2022-05-03" {
				t.Errorf("1.24 has no day on its card though its 1.24.0 tag is dated: %+v", r.Release)
			}
			if r := ask(t, e, "1.26"); r.Release == nil || r.Release.Date != "2022-12-08" || !strings.Contains(strings.Join(r.Notes, " "), "2022-12-09") {
				t.Errorf("1.26: the tag's day first, the page's named: %+v %q", r.Release, r.Notes)
			}
		})
	}
}

// TestOnlyGatesAreGates: names written like a gate that no kep.yaml lists
// and no note calls a feature gate are not answered as gates.
func TestOnlyGatesAreGates(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			for _, g := range []string{"ContainerStatus", "MessageCountMap", "CrashLoopBackOff"} {
				if _, err := askChat(t, e, "gate "+g); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
					t.Errorf("gate %s: %v; want I don't know that gate", g, err)
				}
			}
			if a, err := askChat(t, e, "gate KubeletCrashLoopBackoffMax"); err != nil || a.Kind != knowledge.KindGate {
				t.Errorf("gate KubeletCrashLoopBackoffMax: %v", err)
			}
		})
	}
}

// TestReleasesNotOutArePlanned: a "did you mean" offers a release that is
// out, and a stage list of a release not out yet lists plans, not what
// went GA.
func TestReleasesNotOutArePlanned(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			_, err := askChat(t, e, "1.99")
			if kerr, ok := err.(*knowledge.Error); !ok || len(kerr.Suggestions) != 1 || kerr.Suggestions[0] != "1.37" {
				t.Errorf("1.99: %v; want 1.37 offered, the newest release out", err)
			}
			a := ask(t, e, "1.38 ga")
			if !strings.Contains(a.Text, "not out as far as my sources say") || strings.Contains(a.Text, "went GA") {
				t.Errorf("1.38 ga: %q", a.Text)
			}
			// The release's card says so too, and counts plans as plans.
			planned := len(a.Items)
			a = ask(t, e, "1.38")
			if !strings.Contains(a.Text, "not out as far as my sources say") || !strings.Contains(a.Text, fmt.Sprintf("plans %d GA", planned)) ||
				a.Release == nil || !a.Release.Planned || a.Release.Date != "" {
				t.Errorf("1.38: %q (%+v); want it not out, with %d GA planned", a.Text, a.Release, planned)
			}
			if a, err := askChat(t, e, "when is 1.38 out"); err != nil || !strings.HasPrefix(a.Text, "None of my sources gives the day 1.38 will be released.") {
				t.Errorf("when is 1.38 out: %v %+v", err, a)
			}
			// A stage asked of a release not out is never answered as if
			// the release had happened: every KEP planned for 1.38.
			asked := 0
			for _, it := range ask(t, e, "1.38 ga").Items {
				v := ask(t, e, fmt.Sprintf("is kep %d ga in 1.38", it.KEP))
				if !strings.HasPrefix(v.Text, "Not yet — 1.38 is not out") {
					t.Errorf("is kep %d ga in 1.38: %q", it.KEP, v.Text)
				}
				asked++
			}
			if asked == 0 {
				t.Error("no KEP is planned GA for 1.38; the check above checked nothing")
			}
			if v := ask(t, e, "is kep 753 ga in 1.39"); !strings.HasPrefix(v.Text, "Yes — KEP-753 is GA since 1.33") || !strings.Contains(v.Text, "1.39 is not out") {
				t.Errorf("is kep 753 ga in 1.39: %q", v.Text)
			}
		})
	}
}

// TestReleaseNotesStageClaimsSaid: the code of 1.33 declares ImageVolume
// beta and the 1.33 release notes (PR 130135) call KEP-4639 beta, while
// kep.yaml puts beta in 1.34; the code of 1.30 declares
// UserNamespacesSupport beta while kep.yaml puts KEP-127's beta in 1.35.
// The yes/no answers go by what shipped and say what kep.yaml says.
func TestReleaseNotesStageClaimsSaid(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			// what shipped outranks kep.yaml, and the answer says both
			for q, want := range map[string][]string{
				"is kep 4639 beta in 1.33": {"Yes — in 1.33 KEP-4639", "was beta (since 1.33, by the code of 1.33 (ImageVolume)", "kep.yaml says beta in 1.34"},
				"is kep 4639 beta in 1.32": {"No — in 1.32 KEP-4639", "was alpha (since 1.31), not beta; beta came in 1.33, by the code of 1.33 (ImageVolume)"},
				"is kep 127 beta in 1.31":  {"Yes — in 1.31 KEP-127", "was beta (since 1.30, by the code of 1.30 (UserNamespacesSupport)", "kep.yaml says beta in 1.35"},
			} {
				a := ask(t, e, q)
				for _, w := range want {
					if !strings.Contains(a.Text, w) {
						t.Errorf("%s: %q; want %q in it", q, a.Text, w)
					}
				}
			}
			if a := ask(t, e, "is kep 4639 beta in 1.33"); name == "corpus" && !strings.Contains(a.Text, "PR #130135") {
				t.Errorf("is kep 4639 beta in 1.33: %q; want the release note that dates it", a.Text)
			}
			// the card itself says both, with their sources
			if a := ask(t, e, "kep 127"); !strings.Contains(a.Text, "beta in 1.30 (by the code of 1.30 (UserNamespacesSupport)") || !strings.Contains(a.Text, "kep.yaml says beta in 1.35)") {
				t.Errorf("kep 127: %q; want what shipped and kep.yaml both", a.Text)
			}
		})
	}
}
