package knowledge

import (
	"strings"
	"testing"
)

func TestClaimVerdict(t *testing.T) {
	beta := &KEPFacts{Number: 753, Title: "Sidecar Containers", Stage: StageBeta,
		Milestones: map[string]string{"alpha": "1.28", "beta": "1.29"}, Targets: map[string]string{"stable": "1.33"}}
	ga := &KEPFacts{Number: 753, Title: "Sidecar Containers", Stage: StageStable,
		Milestones: map[string]string{"alpha": "1.28", "beta": "1.29", "stable": "1.33"}, Targets: map[string]string{}}
	gone := &KEPFacts{Number: 9, Stage: StageRemoved, Milestones: map[string]string{"alpha": "1.20"},
		Timeline: []Step{{Stage: StageAlpha, Release: MustVersion("1.20")}, {Stage: StageDeprecated, Release: MustVersion("1.25")}, {Stage: StageRemoved, Release: MustVersion("1.27")}}}
	none := &KEPFacts{Number: 1}
	tests := []struct {
		f     *KEPFacts
		stage Stage
		in    string
		want  string
	}{
		{ga, StageStable, "", "Yes — KEP-753 (Sidecar Containers) is GA since 1.33."},
		{ga, StageBeta, "", "No — KEP-753 (Sidecar Containers) is past beta: it is GA since 1.33."},
		{beta, StageStable, "", "No — KEP-753 (Sidecar Containers) is beta since 1.29; GA is planned for 1.33."},
		{beta, StageBeta, "", "Yes — KEP-753 (Sidecar Containers) is beta since 1.29."},
		{ga, StageBeta, "1.30", "Yes — in 1.30 KEP-753 (Sidecar Containers) was beta (since 1.29)."},
		{ga, StageStable, "1.30", "No — in 1.30 KEP-753 (Sidecar Containers) was beta (since 1.29), not GA; GA came in 1.33."},
		{ga, StageAlpha, "1.27", "No — in 1.27 KEP-753 (Sidecar Containers) had reached no stage yet; alpha came in 1.28."},
		{gone, StageRemoved, "", "Yes — KEP-9 was removed in 1.27."},
		{gone, StageDeprecated, "1.24", "No — in 1.24 KEP-9 was not deprecated yet: that came in 1.25."},
		{ga, StageDeprecated, "", "No — the documents I have do not say KEP-753 (Sidecar Containers) was deprecated; it is GA since 1.33."},
		{gone, StageStable, "", "No — KEP-9 is removed now."},
		{none, StageStable, "", "I can't say: the documents I have give KEP-1 no stage."},
	}
	for _, tt := range tests {
		var v Version
		if tt.in != "" {
			v = MustVersion(tt.in)
		}
		if got := claimVerdict(tt.f, tt.stage, v); got != tt.want {
			t.Errorf("claimVerdict(KEP-%d, %s, %q) =\n  %q\nwant\n  %q", tt.f.Number, tt.stage, tt.in, got, tt.want)
		}
		if !strings.HasPrefix(tt.want, "Yes") && !strings.HasPrefix(tt.want, "No") && !strings.HasPrefix(tt.want, "I can't") {
			t.Errorf("%q starts with neither yes nor no", tt.want)
		}
	}
}
