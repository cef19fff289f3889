package knowledge

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompileFindsDisagreements(t *testing.T) {
	yaml := func(n int, title string, st Stage, ms map[string]Version, gates ...string) KEP {
		return KEP{Number: n, Title: title, Stage: st, Milestones: ms, FeatureGates: gates, Source: "kubernetes/enhancements"}
	}
	v := MustVersion
	c := &Corpus{
		Sources: []Source{{ID: "zh", Name: "note (zh)"}, {ID: "en", Name: "post (en)"}, {ID: "kubernetes/enhancements", Kind: SourceKEPYAML}},
		KEPs: []KEP{
			yaml(100, "Cluster Management API", StageNone, nil),
			yaml(200, "WidgetLock PersistentVolume AccessMode", StageStable, map[string]Version{"alpha": v("1.22"), "beta": v("1.27"), "stable": v("1.29")}, "WidgetLock"),
			yaml(300, "Sprocket scheduling", StageBeta, map[string]Version{"alpha": v("1.28"), "beta": v("1.30"), "stable": v("1.32")}, "SprocketGate"),
			yaml(400, "Gizmo metrics", StageStable, map[string]Version{"stable": v("1.30")}),
		},
		Mentions: []Mention{
			// the note calls 100 by the name (and gate) of 200
			{KEP: 100, Title: "PV/PVC WidgetLock 访问模式", Stage: StageStable, Release: v("1.29"), Source: "zh", Line: 5},
			// the note says beta a release early, and GA where kep.yaml has GA only planned
			{KEP: 300, Title: "Sprocket scheduling", Stage: StageBeta, Release: v("1.29"), Source: "en", Line: 7},
			{KEP: 300, Title: "Sprocket scheduling", Stage: StageStable, Release: v("1.31"), Source: "en", Line: 9},
			// GA in two releases
			{KEP: 400, Title: "Gizmo metrics", Stage: StageStable, Release: v("1.30"), Source: "en", Line: 1},
			{KEP: 400, Title: "Gizmo metrics", Stage: StageStable, Release: v("1.31"), Source: "zh", Line: 2},
			// a heading naming two KEPs is no wrong number
			{KEP: 300, Title: "WidgetLock and Sprocket", Release: v("1.30"), Source: "zh", Line: 11},
			{KEP: 200, Title: "WidgetLock and Sprocket", Release: v("1.30"), Source: "zh", Line: 11},
		},
	}
	k := Compile(c)
	got := map[int][]string{}
	for _, kp := range k.KEPs {
		for _, d := range kp.Disagreements {
			got[kp.Number] = append(got[kp.Number], string(d.Kind)+" "+d.Release.String()+" "+d.Stage.String())
			if d.Kind == DisagreeName && d.Likely != 200 {
				t.Errorf("KEP-100 is likely KEP-%d, want 200", d.Likely)
			}
		}
	}
	want := map[int][]string{
		100: {"name 1.29 stable"},
		300: {"stage_release 1.29 beta", "stage_release 1.31 stable"},
		400: {"stage_release 1.31 stable", "stage_twice 1.31 stable"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("disagreements (-want +got):\n%s", d)
	}
}

// TestWriteDisagreements: bot check's report counts every disagreement,
// lists them by kind in its order under headings, by KEP number within a
// kind, and gives them all as JSON.
func TestWriteDisagreements(t *testing.T) {
	keps := []*KEP{
		{Number: 9, Disagreements: []Disagreement{{Kind: DisagreeRelease, KEP: 9, Claim: "beta in 1.30", Trusted: "kep.yaml says 1.31"}}},
		{Number: 2, Disagreements: []Disagreement{
			{Kind: DisagreeRelease, KEP: 2, Claim: "alpha in 1.28", Trusted: "kep.yaml says 1.29"},
			{Kind: DisagreeName, KEP: 2, Claim: "named Foo", Trusted: "KEP-2 is Bar"},
		}},
	}
	var b bytes.Buffer
	WriteDisagreements(&b, keps, "k.db", false)
	want := "3 disagreement(s) among the sources of k.db (what shipped is trusted for stages, then kep.yaml; kep.yaml for names).\n" +
		"\nA note's KEP number points at a KEP of another name (name, 1):\n  KEP-2: named Foo; KEP-2 is Bar.\n" +
		"\nA note puts a stage in another release than the trusted record (stage_release, 2):\n" +
		"  KEP-2: alpha in 1.28; kep.yaml says 1.29.\n  KEP-9: beta in 1.30; kep.yaml says 1.31.\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text report (-want +got):\n%s", diff)
	}
	b.Reset()
	WriteDisagreements(&b, keps, "k.db", true)
	if got := strings.Count(b.String(), `"kind"`); got != 3 || !strings.HasPrefix(b.String(), "[") {
		t.Errorf("JSON report: %s", b.String())
	}
}
