package website

import (
	"regexp"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/sourcetest"
)

// rawKEPs finds every KEP number a document's raw text carries, by rules
// independent of the parser's: "KEP-N", "KEP N", "KEP #N" in any spelling,
// and the targets of kep.k8s.io links, kubernetes/enhancements issue links
// and keps/sig-x/N-name folder links.
var rawKEPs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bKEP[-‐ ]?#?\s?\[?#?0*([0-9]+)`),
	regexp.MustCompile(`(?i)kep\.k8s\.io/0*([0-9]+)`),
	regexp.MustCompile(`(?i)github\.com/kubernetes/enhancements/issues/([0-9]+)`),
	regexp.MustCompile(`(?i)/keps/sig-[a-z-]+/0*([0-9]+)-`),
}

// leftOut lists KEP numbers the documents name that are rightly not in the
// document's corpus, and why. Each must really be absent, so the list
// cannot go stale.
var leftOut = map[string]map[int]string{
	ann132: {
		753: "named only as targeting stable in v1.33, in a paragraph of node news: no stage in 1.32",
	},
	peek132: {
		4381: "named as what remains after the DRA withdrawal; the withdrawal notice is KEP 3063's",
	},
}

// TestEveryKEPIsInCorpus checks that each KEP number or KEP link anywhere in
// each document ends up in that document's corpus as a Mention or Notice,
// or is on the left-out list with its reason.
func TestEveryKEPIsInCorpus(t *testing.T) {
	sharedtest.Root(t) // skip here, not only in each subtest, so "found none" cannot fire
	total := 0
	for _, name := range docNames {
		t.Run(name, func(t *testing.T) {
			total += sourcetest.CheckKEPCoverage(t, readDoc(t, name), parseDoc(t, name), rawKEPs, leftOut[name])
		})
	}
	if total == 0 {
		t.Fatal("found no KEP numbers in the documents at all")
	}
}
