package releasenote

import (
	"regexp"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/sourcetest"
)

// rawKEPs finds every KEP number a document's raw text carries, by a rule
// independent of the parser's: "KEP-N" in any spelling, and the targets of
// kep.k8s.io and kubernetes/enhancements issue links.
var rawKEPs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)KEP[-‐ ]?0*([0-9]+)`),
	regexp.MustCompile(`(?i)kep\.k8s\.io/0*([0-9]+)`),
	regexp.MustCompile(`(?i)github\.com/kubernetes/enhancements/issues/([0-9]+)`),
}

// leftOut lists KEP numbers in the seeds that are rightly not in the corpus,
// and why. Each must really be absent, so the list cannot go stale.
var leftOut = map[string]map[int]string{
	seed132: {
		283: "typo: the Alpha section's detail heading for pod-level resources drops a digit; " +
			"the section's list links kep.k8s.io/2837 for the same feature, and KEP-283 does not exist",
	},
}

// TestEveryKEPInSeedsIsInCorpus checks that each KEP number or KEP link
// anywhere in the five notes ends up in the corpus as a Mention or Notice of
// that note, or is on the left-out list with its reason.
func TestEveryKEPInSeedsIsInCorpus(t *testing.T) {
	sharedtest.Root(t) // skip here, not only in each subtest, so "found none" cannot fire
	total := 0
	for _, name := range seedNames {
		t.Run(name, func(t *testing.T) {
			total += sourcetest.CheckKEPCoverage(t, readSeed(t, name), parseSeed(t, name), rawKEPs, leftOut[name])
		})
	}
	if total == 0 {
		t.Fatal("found no KEP numbers in the seeds at all")
	}
}
