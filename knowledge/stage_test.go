package knowledge

import "testing"

func TestParseStage(t *testing.T) {
	for in, want := range map[string]Stage{
		"ga": StageStable, "GA": StageStable, "stable": StageStable, "稳定": StageStable, "正式": StageStable,
		"Beta": StageBeta, "alpha": StageAlpha, "deprecated": StageDeprecated, "弃用": StageDeprecated,
		"removed": StageRemoved, "移除": StageRemoved, " ALPHA ": StageAlpha,
	} {
		got, err := ParseStage(in)
		if err != nil || got != want {
			t.Errorf("ParseStage(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseStage("gamma"); err == nil {
		t.Error("ParseStage(gamma) did not fail")
	}
}

func TestStageReached(t *testing.T) {
	if !StageAlpha.Reached(StageBeta) || !StageBeta.Reached(StageBeta) || StageStable.Reached(StageBeta) {
		t.Error("a KEP at beta has reached alpha and beta, not stable")
	}
	if StageAlpha.Reached(StageNone) {
		t.Error("a KEP with no stage has reached nothing")
	}
	if StageStable.Label() != "GA" || StageStable.String() != "stable" {
		t.Error("stable is shown as GA and named stable")
	}
}
