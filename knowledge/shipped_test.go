package knowledge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shippedCorpus is a small corpus: kep.yaml as of 2030-06-01, releases
// 1.40-1.44 read from the code (1.44 tagged after kep.yaml's date), and
// the gates and notes each case needs.
func shippedCorpus(keps []KEP, gates map[string][]string, changes []Change) *Corpus {
	c := &Corpus{Sources: []Source{{ID: "y", Kind: SourceKEPYAML, AsOf: "2030-06-01"}}, KEPs: keps, Changes: changes}
	days := map[string]string{"1.40": "2029-04-01", "1.41": "2029-08-01", "1.42": "2029-12-01", "1.43": "2030-04-01", "1.44": "2030-08-01"}
	for _, v := range []string{"1.40", "1.41", "1.42", "1.43", "1.44"} {
		id := "feature-gates/" + v
		c.Sources = append(c.Sources, Source{ID: id, Kind: SourceFeatureGates, AsOf: days[v]})
		t := GateTable{Release: MustVersion(v), Source: id, Components: []string{"k8s.io/kubernetes"}}
		for name, stages := range gates {
			i := MustVersion(v).Minor - 40
			if i < len(stages) && stages[i] != "" {
				st, _ := ParseGateStage(stages[i])
				t.Gates = append(t.Gates, GateDecl{Name: name, Component: "k8s.io/kubernetes", GateSpec: GateSpec{Stage: st}})
			}
		}
		c.GateTables = append(c.GateTables, t)
	}
	return c
}

func yamlKEP(n int, stage Stage, milestones map[string]string, gates ...string) KEP {
	k := KEP{Number: n, Title: "K", Stage: stage, Status: "implementable", Source: "y", FeatureGates: gates, Milestones: map[string]Version{}}
	for s, v := range milestones {
		k.Milestones[s] = MustVersion(v)
	}
	return k
}

func TestShippedStages(t *testing.T) {
	gates := map[string][]string{
		// stages in 1.40, 1.41, 1.42, 1.43, 1.44
		"Own":            {"", "alpha", "beta", "beta", "GA"},
		"Renamed":        {"", "", "alpha", "beta", "beta"},
		"Shared":         {"alpha", "beta", "beta", "GA", "GA"},
		"Back":           {"", "alpha", "beta", "alpha", "beta"},
		"OffSwitch":      {"", "", "GA", "GA", ""},
		"XBetaOptions":   {"", "beta", "beta", "beta", "beta"},
		"Aux":            {"", "", "", "beta", "beta"},
		"Later":          {"", "", "", "alpha", "alpha"},
		"Contradicted":   {"", "", "alpha", "beta", "beta"},
		"ConfirmsLatest": {"", "", "", "alpha", "beta"},
	}
	keps := []KEP{
		// the code dates beta in 1.42, kep.yaml says 1.43: the code stands
		yamlKEP(1, StageStable, map[string]string{"alpha": "1.41", "beta": "1.43", "stable": "1.44"}, "Own"),
		// a gate born in 1.42 after a rename: kep.yaml's earlier alpha stands,
		// and a note of 1.39 (no own gate then) dates alpha before it
		yamlKEP(2, StageBeta, map[string]string{"alpha": "1.39", "beta": "1.43"}, "Renamed"),
		// a gate two KEPs name dates neither
		yamlKEP(3, StageBeta, map[string]string{"alpha": "1.40", "beta": "1.42"}, "Shared"),
		yamlKEP(4, StageBeta, map[string]string{"alpha": "1.40", "beta": "1.42"}, "Shared"),
		// beta in 1.42, back to alpha in 1.43: beta for good only from 1.44
		yamlKEP(5, StageBeta, map[string]string{"alpha": "1.41", "beta": "1.44"}, "Back"),
		// an off switch born GA, and a policy-options gate, date nothing
		yamlKEP(6, StageStable, map[string]string{"stable": "1.43"}, "OffSwitch", "XBetaOptions"),
		// a gate born beta in 1.43 for a KEP alpha in 1.44 (by another gate) dates no beta
		yamlKEP(7, StageAlpha, map[string]string{"alpha": "1.44"}, "Aux", "Later"),
		// a note says beta in 1.42, the code of 1.42 declares its gate alpha:
		// the code stands (beta in 1.43)
		yamlKEP(8, StageBeta, map[string]string{"alpha": "1.42", "beta": "1.43"}, "Contradicted"),
		// kep.yaml's beta 1.44 came out after kep.yaml was written: the code
		// of 1.44 confirms it
		yamlKEP(9, StageBeta, map[string]string{"alpha": "1.43", "beta": "1.44"}, "ConfirmsLatest"),
		// kep.yaml's GA 1.44, with no gate: still a plan
		yamlKEP(10, StageStable, map[string]string{"beta": "1.42", "stable": "1.44"}),
	}
	changes := []Change{
		{Release: MustVersion("1.39"), PR: 11, KEPs: []int{2}, Text: "Added alpha support for renamed things (KEP 2)", Source: "notes-1.39"},
		{Release: MustVersion("1.42"), PR: 12, Text: "The `Contradicted` feature gate graduated to beta in 1.42.", Source: "notes-1.42"},
		{Release: MustVersion("1.42"), PR: 13, Effects: []Effect{{What: EffectGate, Name: "Own", Action: EffectGraduated, Stage: StageBeta}}, Source: "notes-1.42"},
	}
	k := Compile(shippedCorpus(keps, gates, changes))
	reached := map[int]map[string]string{}
	for _, kp := range k.KEPs {
		m := map[string]string{}
		for s, v := range kp.Reached() {
			m[s.String()] = v.String()
		}
		reached[kp.Number] = m
	}
	want := map[int]map[string]string{
		1:  {"alpha": "1.41", "beta": "1.42", "stable": "1.44"},
		2:  {"alpha": "1.39", "beta": "1.43"},
		3:  {"alpha": "1.40", "beta": "1.42"},
		4:  {"alpha": "1.40", "beta": "1.42"},
		5:  {"alpha": "1.41", "beta": "1.44"},
		6:  {"stable": "1.43"},
		7:  {"alpha": "1.43"},
		8:  {"alpha": "1.42", "beta": "1.43"},
		9:  {"alpha": "1.43", "beta": "1.44"},
		10: {"beta": "1.42"},
	}
	if d := cmp.Diff(want, reached); d != "" {
		t.Errorf("reached (-want +got):\n%s", d)
	}
	byNum := map[int]*KEP{}
	for i := range k.KEPs {
		byNum[k.KEPs[i].Number] = &k.KEPs[i]
	}
	if sh, _ := byNum[1].ShippedAt(StageBeta); sh.Gate != "Own" || !cmp.Equal(sh.PRs, []int{13}) || sh.Evidence() != "the code of 1.42 (Own) and PR #13" {
		t.Errorf("KEP-1 beta shipped %+v (%s)", sh, sh.Evidence())
	}
	if sh, _ := byNum[2].ShippedAt(StageAlpha); !cmp.Equal(sh.PRs, []int{11}) || sh.Gate != "" {
		t.Errorf("KEP-2 alpha shipped %+v; want PR 11 alone", sh)
	}
	var kinds []string
	for _, d := range byNum[1].Disagreements {
		kinds = append(kinds, string(d.Kind)+": "+d.Claim+"; "+d.Trusted)
	}
	if !cmp.Equal(kinds, []string{"stage_shipped: kep.yaml says beta in 1.43; beta in 1.42 by the code of 1.42 (Own) and PR #13"}) {
		t.Errorf("KEP-1 disagreements %q", kinds)
	}
	if p, v, planned := byNum[10].StagePlanned(); !planned || p != StageStable || v != MustVersion("1.44") {
		t.Errorf("KEP-10: GA 1.44 planned %v %v %v; want a plan: 1.44 came out after kep.yaml", p, v, planned)
	}
	if byNum[10].YAMLThrough != MustVersion("1.43") {
		t.Errorf("through %v; want 1.43, the newest release out on kep.yaml's day", byNum[10].YAMLThrough)
	}
	if got := byNum[1].CurrentStage(); got != StageStable {
		t.Errorf("KEP-1 stage %v", got)
	}
}

// TestShippedGAWhenEveryOwnGateIs: a KEP's GA is the first release from
// which every own gate declared is GA; a gate that never graduates and is
// gone by the newest release does not count; a gate born beta beside an own
// gate still alpha dates no beta; where kep.yaml's earlier date stands, the
// code's later one is a disagreement the card says.
func TestShippedGAWhenEveryOwnGateIs(t *testing.T) {
	gates := map[string][]string{
		// stages in 1.40, 1.41, 1.42, 1.43, 1.44
		"First": {"", "beta", "GA", "GA", ""},
		"Then":  {"", "", "alpha", "beta", "GA"},
		"Main":  {"", "alpha", "GA", "GA", "GA"},
		"Addon": {"", "", "", "alpha", "GA"},
		"Core":  {"", "beta", "GA", "GA", "GA"},
		"Off":   {"", "alpha", "alpha", "alpha", ""},
		"Srv":   {"", "alpha", "alpha", "beta", "beta"},
		"Cli":   {"", "", "beta", "beta", "beta"},
		"Slow":  {"alpha", "alpha", "alpha", "alpha", "beta"},
	}
	keps := []KEP{
		// GA when the last own gate is: 1.44, as kep.yaml (a plan after kep.yaml's day, confirmed)
		yamlKEP(1, StageStable, map[string]string{"beta": "1.41", "stable": "1.44"}, "First", "Then"),
		// an add-on born alpha after the main gate went GA: kep.yaml's 1.42 stands, and the card says both
		yamlKEP(2, StageStable, map[string]string{"alpha": "1.41", "stable": "1.42"}, "Main", "Addon"),
		// an opt-in switch gone without graduating: GA with Core in 1.42
		yamlKEP(3, StageStable, map[string]string{"beta": "1.41", "stable": "1.42"}, "Core", "Off"),
		// a client gate born beta beside a server gate still alpha: beta when the server's is, 1.43
		yamlKEP(4, StageBeta, map[string]string{"alpha": "1.41", "beta": "1.43"}, "Srv", "Cli"),
		// kep.yaml says beta in 1.41, the code of 1.41 declares its gate alpha
		yamlKEP(5, StageBeta, map[string]string{"alpha": "1.39", "beta": "1.41"}, "Slow"),
	}
	k := Compile(shippedCorpus(keps, gates, nil))
	byNum := map[int]*KEP{}
	for i := range k.KEPs {
		byNum[k.KEPs[i].Number] = &k.KEPs[i]
	}
	reached := func(n int) map[string]string {
		m := map[string]string{}
		for s, v := range byNum[n].Reached() {
			m[s.String()] = v.String()
		}
		return m
	}
	for n, want := range map[int]map[string]string{
		1: {"beta": "1.41", "stable": "1.44"},
		2: {"alpha": "1.41", "stable": "1.42"},
		3: {"beta": "1.41", "stable": "1.42"},
		4: {"alpha": "1.41", "beta": "1.43"},
		5: {"alpha": "1.39", "beta": "1.41"},
	} {
		if d := cmp.Diff(want, reached(n)); d != "" {
			t.Errorf("KEP-%d reached (-want +got):\n%s", n, d)
		}
	}
	if sh, _ := byNum[1].ShippedAt(StageStable); sh.Gate != "Then" || sh.Release != MustVersion("1.44") {
		t.Errorf("KEP-1 GA shipped %+v; want the code of 1.44 (Then)", sh)
	}
	if sh, _ := byNum[3].ShippedAt(StageStable); sh.Gate != "Core" || sh.Release != MustVersion("1.42") {
		t.Errorf("KEP-3 GA shipped %+v; want the code of 1.42 (Core)", sh)
	}
	claims := func(n int) []string {
		var out []string
		for _, d := range byNum[n].Disagreements {
			if d.Kind == DisagreeShipped {
				out = append(out, d.Trusted+"; "+d.Claim)
			}
		}
		return out
	}
	for n, want := range map[int][]string{
		1: nil,
		2: {"GA in 1.42 by kep.yaml; the code of 1.43 declares Addon alpha; every own gate is GA from 1.44"},
		3: nil,
		4: nil,
		5: {"beta in 1.41 by kep.yaml; the code of 1.41 still declares Slow alpha; an own gate is beta from 1.44"},
	} {
		if d := cmp.Diff(want, claims(n)); d != "" {
			t.Errorf("KEP-%d disagreements (-want +got):\n%s", n, d)
		}
	}
}
