package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// Upstream's labels are the floor of every list (issue 30, 1): every entry
// the sig-release notes of 1.25-1.36 label kind/deprecation, read from the
// raw JSON apart from the parser (relnotesTruth), is in its release's
// deprecations answer, over the whole corpus and over the built-in
// snapshot. Where kepbot reads it as a removal, an upgrade note or nothing,
// it is there all the same and says "labelled deprecation by the release
// notes"; the answer's count is the list's length, and `upgrade 1.24 1.36`
// holds each of them once.
func TestDeprecationLabelIsTheFloor(t *testing.T) {
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			labelled, otherwise := 0, 0
			up := ask(t, e, "upgrade 1.24 1.36")
			inUpgrade := map[string]int{}
			for _, n := range up.Notices {
				if n.PR > 0 {
					inUpgrade[fmt.Sprintf("%s#%d", n.Release, n.PR)]++
				}
			}
			for minor := 25; minor <= 36; minor++ {
				v := fmt.Sprintf("1.%d", minor)
				a := ask(t, e, v+" deprecations")
				byPR := map[int]knowledge.Notice{}
				for _, n := range a.Notices {
					if n.PR > 0 {
						byPR[n.PR] = n
					}
				}
				if want := knowledge.Plural(len(a.Notices), "deprecation", "deprecations") + " in Kubernetes " + v; !strings.Contains(a.Text, capitalizeFirst(want)) {
					t.Errorf("%s deprecations: %q; want it to count the %d listed", v, a.Text, len(a.Notices))
				}
				for _, pr := range relnotesTruth(t, v) {
					labelled++
					n, ok := byPR[pr]
					if !ok {
						t.Errorf("%s deprecations lacks PR #%d, which the release notes label deprecation", v, pr)
						continue
					}
					if n.Kind != knowledge.NoticeDeprecation || n.LabelOnly() {
						otherwise++
						if n.LabelTag() != "labelled deprecation by the release notes" {
							t.Errorf("%s PR #%d is read as %q (label %q) and does not say upstream labelled it deprecation", v, pr, n.Kind, n.Label)
						}
					}
					if c := inUpgrade[fmt.Sprintf("%s#%d", v, pr)]; c != 1 {
						t.Errorf("upgrade 1.24 1.36 lists %s PR #%d %d times; want once", v, pr, c)
					}
				}
			}
			if labelled != 61 {
				t.Errorf("the notes of 1.25-1.36 label %d entries deprecation; the issue counted 61", labelled)
			}
			t.Logf("%d entries labelled deprecation, %d of them read by kepbot as another kind or none", labelled, otherwise)
		})
	}
}

func capitalizeFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
