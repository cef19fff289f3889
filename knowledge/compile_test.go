package knowledge

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mention(kep int, st Stage, rel, src string) Mention {
	return Mention{KEP: kep, Title: "feature", Stage: st, Release: MustVersion(rel), Source: src}
}

func TestTimelineRepeatAndBack(t *testing.T) {
	k := KEP{Number: 1, History: []Mention{
		mention(1, StageBeta, "1.30", "b"),
		mention(1, StageAlpha, "1.29", "a"),
		mention(1, StageAlpha, "1.29", "a-en"), // same release, another document: one step
		mention(1, StageBeta, "1.31", "c"),     // repeat: does not move the graduation
		mention(1, StageAlpha, "1.32", "d"),    // a step back
	}}
	got := k.NoteTimeline()
	want := []Step{
		{Stage: StageAlpha, Release: MustVersion("1.29"), Source: "a"},
		{Stage: StageBeta, Release: MustVersion("1.30"), Source: "b"},
		{Stage: StageBeta, Release: MustVersion("1.31"), Source: "c", Repeat: true},
		{Stage: StageAlpha, Release: MustVersion("1.32"), Source: "d", Back: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("timeline (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[Stage]Version{StageAlpha: MustVersion("1.29")}, k.Reached()); d != "" {
		t.Errorf("reached after a step back (-want +got):\n%s", d)
	}
	if k.CurrentStage() != StageAlpha {
		t.Errorf("current stage = %v, want alpha", k.CurrentStage())
	}
}

func TestReachedKeepsFirstGraduation(t *testing.T) {
	k := KEP{Number: 1, History: []Mention{
		mention(1, StageStable, "1.30", "b"),
		mention(1, StageStable, "1.29", "a"),
	}}
	want := map[Stage]Version{StageStable: MustVersion("1.29")}
	if d := cmp.Diff(want, k.Reached()); d != "" {
		t.Errorf("reached (-want +got):\n%s", d)
	}
}

func TestReachedFromYAMLSeparatesTargets(t *testing.T) {
	k := KEP{Number: 7, Source: "kubernetes/enhancements", Stage: StageBeta, Milestones: map[string]Version{
		"alpha": MustVersion("1.31"), "beta": MustVersion("1.34"), "stable": MustVersion("1.36"),
	}}
	if d := cmp.Diff(map[Stage]Version{StageAlpha: MustVersion("1.31"), StageBeta: MustVersion("1.34")}, k.Reached()); d != "" {
		t.Errorf("reached (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[Stage]Version{StageStable: MustVersion("1.36")}, k.Targets()); d != "" {
		t.Errorf("targets (-want +got):\n%s", d)
	}
}

func TestCompileJoinsNotesAndYAML(t *testing.T) {
	c := &Corpus{
		Sources: []Source{{ID: "zh", Lang: "zh"}, {ID: "en", Lang: "en"}, {ID: "kubernetes/enhancements", Kind: SourceKEPYAML}},
		Releases: []Release{
			{Version: MustVersion("1.31"), Date: "2024-08-13", Enhancements: Counts{Total: 40}, Sources: []string{"zh"}},
			{Version: MustVersion("1.31"), Theme: "Elli", Enhancements: Counts{Total: 45}, Sources: []string{"en"}},
		},
		KEPs: []KEP{{Number: 10, Title: "Yaml name", Source: "kubernetes/enhancements", Stage: StageBeta,
			Milestones:   map[string]Version{"alpha": MustVersion("1.30"), "beta": MustVersion("1.31"), "stable": MustVersion("1.33")},
			FeatureGates: []string{"GateTen"}}},
		Mentions: []Mention{
			{KEP: 10, Title: "note name", Stage: StageStable, Release: MustVersion("1.31"), Source: "zh", Text: "claims GA"},
			{KEP: 10, Title: "note name", Stage: StageBeta, Release: MustVersion("1.31"), Source: "en", Text: "beta words"},
			{KEP: 20, Title: "only in notes", Stage: StageAlpha, Release: MustVersion("1.31"), Source: "zh", SIG: "sig-node"},
			{Title: "no number", Stage: StageAlpha, Release: MustVersion("1.31"), Source: "zh", FeatureGates: []string{"gateten"}},
			{Title: "no number, no gate", Stage: StageBeta, Release: MustVersion("1.31"), Source: "zh"},
		},
		Notices: []Notice{{Kind: NoticeDeprecation, Release: MustVersion("1.31"), Title: "x", FeatureGates: []string{"GateTen"}, Source: "zh"}},
	}
	k := Compile(c)
	if len(k.Releases) != 2 { // 1.30 from kep.yaml's alpha milestone, 1.31
		t.Fatalf("releases = %d, want 2", len(k.Releases))
	}
	r := k.Releases[1]
	if r.Theme != "Elli" || r.Date != "2024-08-13" || r.Enhancements.Total != 45 {
		t.Errorf("1.31 facts = %+v; want the English theme and counts, the date filled from the other note", r.Release)
	}
	var got []string
	for _, it := range r.Items {
		got = append(got, it.Stage.String()+":"+strconv.Itoa(it.KEP)+":"+it.Title)
	}
	want := []string{"beta:10:Yaml name", "alpha:20:only in notes", "beta:0:no number, no gate"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("1.31 items (-want +got):\n%s", d)
	}
	if r.Items[0].Text != "beta words" {
		t.Errorf("item text = %q, want the words of the note that agrees with kep.yaml", r.Items[0].Text)
	}
	if r.Notices[0].KEP != 10 {
		t.Errorf("notice KEP = %d, want 10 through its feature gate", r.Notices[0].KEP)
	}
	if len(k.KEPs) != 2 || len(k.KEPs[0].History) != 3 {
		t.Fatalf("KEP-10 history = %+v, want its two mentions and the one tied by gate", k.KEPs)
	}
	if k.KEPs[0].History[2].Via != "gate" && k.KEPs[0].History[0].Via != "gate" && k.KEPs[0].History[1].Via != "gate" {
		t.Errorf("the mention tied through a feature gate is not marked Via gate: %+v", k.KEPs[0].History)
	}
}
