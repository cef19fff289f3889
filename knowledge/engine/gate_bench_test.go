package engine_test

import (
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// The gate answers, over the whole of ../shared (19 releases' code, some
// 500 gates), beside the other cards (BenchmarkAnswerKEP,
// BenchmarkAnswerRelease, BenchmarkAnswerReleaseStage): each built for the
// question, from the catalog.
//
//	go test ./knowledge/engine -run '^$' -bench 'Answer(Gate|KEP$|Release$|ReleaseStage$)' -count 5

func BenchmarkAnswerGateCode(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskGate, Words: "UserNamespacesSupport"})
}

func BenchmarkAnswerGateDefault(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskGateDefault, Words: "UserNamespacesSupport", Version: knowledge.MustVersion("1.33")})
}

func BenchmarkAnswerGateChanges(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskGateChanges, Version: knowledge.MustVersion("1.34")})
}

func BenchmarkAnswerUpgradeGates(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskUpgrade, Version: knowledge.MustVersion("1.30"), To: knowledge.MustVersion("1.36")})
}

// BenchmarkAnswerDiffSameRange is BenchmarkAnswerUpgradeGates without the
// gates (diff, not upgrade): what the gates add.
func BenchmarkAnswerDiffSameRange(b *testing.B) {
	benchFullAnswer(b, knowledge.Question{Kind: knowledge.AskDiff, Version: knowledge.MustVersion("1.30"), To: knowledge.MustVersion("1.36")})
}
