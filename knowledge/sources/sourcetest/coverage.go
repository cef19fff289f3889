package sourcetest

import (
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// CheckKEPCoverage checks that every KEP number the patterns find in a
// document's raw text (each pattern's first group) ends up in c, the
// document's corpus, as a Mention or a Notice, or is in leftOut with the
// reason it is rightly absent. A left-out number must be named in the
// text and missing from c, so the list cannot go stale. It returns how
// many KEP numbers the text names.
func CheckKEPCoverage(t testing.TB, data []byte, c *knowledge.Corpus, patterns []*regexp.Regexp, leftOut map[int]string) int {
	t.Helper()
	have := map[int]bool{}
	for _, m := range c.Mentions {
		have[m.KEP] = true
	}
	for _, n := range c.Notices {
		have[n.KEP] = true
	}
	raw := map[int]bool{}
	for _, re := range patterns {
		for _, m := range re.FindAllSubmatch(data, -1) {
			if n, err := strconv.Atoi(string(m[1])); err == nil && n > 0 {
				raw[n] = true
			}
		}
	}
	nums := make([]int, 0, len(raw))
	for n := range raw {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		reason, out := leftOut[n]
		switch {
		case out && have[n]:
			t.Errorf("KEP-%d is on the left-out list (%s) but is in the corpus", n, reason)
		case !out && !have[n]:
			t.Errorf("KEP-%d appears in the document but not in its corpus", n)
		}
	}
	for n := range leftOut {
		if !raw[n] {
			t.Errorf("KEP-%d is on the left-out list but the document does not name it", n)
		}
	}
	t.Logf("%d KEP numbers, %d left out", len(nums), len(leftOut))
	return len(nums)
}
