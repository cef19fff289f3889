package engine

import (
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

func TestClaimVerdict(t *testing.T) {
	beta := &knowledge.KEPFacts{Number: 753, Title: "Sidecar Containers", Stage: knowledge.StageBeta,
		Milestones: map[string]string{"alpha": "1.28", "beta": "1.29"}, Targets: map[string]string{"stable": "1.33"}}
	ga := &knowledge.KEPFacts{Number: 753, Title: "Sidecar Containers", Stage: knowledge.StageStable,
		Milestones: map[string]string{"alpha": "1.28", "beta": "1.29", "stable": "1.33"}, Targets: map[string]string{}}
	gone := &knowledge.KEPFacts{Number: 9, Stage: knowledge.StageRemoved, Milestones: map[string]string{"alpha": "1.20"},
		Timeline: []knowledge.Step{{Stage: knowledge.StageAlpha, Release: knowledge.MustVersion("1.20")}, {Stage: knowledge.StageDeprecated, Release: knowledge.MustVersion("1.25")}, {Stage: knowledge.StageRemoved, Release: knowledge.MustVersion("1.27")}}}
	none := &knowledge.KEPFacts{Number: 1}
	tests := []struct {
		f     *knowledge.KEPFacts
		stage knowledge.Stage
		in    string
		want  string
	}{
		{ga, knowledge.StageStable, "", "Yes — KEP-753 (Sidecar Containers) is GA since 1.33."},
		{ga, knowledge.StageBeta, "", "No — KEP-753 (Sidecar Containers) is past beta: it is GA since 1.33."},
		{beta, knowledge.StageStable, "", "No — KEP-753 (Sidecar Containers) is beta since 1.29; GA is planned for 1.33."},
		{beta, knowledge.StageBeta, "", "Yes — KEP-753 (Sidecar Containers) is beta since 1.29."},
		{ga, knowledge.StageBeta, "1.30", "Yes — in 1.30 KEP-753 (Sidecar Containers) was beta (since 1.29)."},
		{ga, knowledge.StageStable, "1.30", "No — in 1.30 KEP-753 (Sidecar Containers) was beta (since 1.29), not GA; GA came in 1.33."},
		{ga, knowledge.StageAlpha, "1.27", "No — in 1.27 KEP-753 (Sidecar Containers) had reached no stage yet; alpha came in 1.28."},
		{gone, knowledge.StageRemoved, "", "Yes — KEP-9 was removed in 1.27."},
		{gone, knowledge.StageDeprecated, "1.24", "No — in 1.24 KEP-9 was not deprecated yet: that came in 1.25."},
		{ga, knowledge.StageDeprecated, "", "No — the documents I have do not say KEP-753 (Sidecar Containers) was deprecated; it is GA since 1.33."},
		{gone, knowledge.StageStable, "", "No — KEP-9 is removed now."},
		{none, knowledge.StageStable, "", "I can't say: the documents I have give KEP-1 no stage."},
	}
	for _, tt := range tests {
		var v knowledge.Version
		if tt.in != "" {
			v = knowledge.MustVersion(tt.in)
		}
		if got := claimVerdict(tt.f, tt.stage, v, knowledge.Version{}); got != tt.want {
			t.Errorf("claimVerdict(KEP-%d, %s, %q) =\n  %q\nwant\n  %q", tt.f.Number, tt.stage, tt.in, got, tt.want)
		}
		if !strings.HasPrefix(tt.want, "Yes") && !strings.HasPrefix(tt.want, "No") && !strings.HasPrefix(tt.want, "I can't") {
			t.Errorf("%q starts with neither yes nor no", tt.want)
		}
	}
}
