package slack

import (
	"context"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// TestEveryCVEAnswerFits asks, of the built-in snapshot, the
// vulnerabilities of every release and of its first patch, every record's
// card, yes/no questions and upgrades, and checks every page of every
// answer against Slack's limits.
func TestEveryCVEAnswerFits(t *testing.T) {
	eng, kb := realEngine(t)
	ctx := context.Background()
	rels, err := kb.ListReleases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vulns, err := kb.ListVulns(ctx)
	if err != nil || len(vulns) == 0 {
		t.Fatalf("the snapshot holds no vulnerability records (%v)", err)
	}
	questions := []string{"upgrade 1.24.0 1.36.4", "upgrade 1.30.2 1.30.8", "is 1.30.2 affected by CVE-2024-10220"}
	for _, r := range rels {
		questions = append(questions, "cves "+r.Version.String(), "cves "+r.Version.String()+".0")
	}
	for _, v := range vulns {
		questions = append(questions, "cve "+v.ID)
	}
	kinds := map[knowledge.Kind]int{}
	for _, q := range questions {
		ans := question.NewAsker(nil, eng).Ask(ctx, q, knowledge.Origin{Platform: Platform})
		kinds[ans.Kind]++
		for page, pages := 0, 1; page < pages; page++ {
			m := Render(ans, RenderOptions{Slash: true, Page: page})
			if p := CheckLimits(m); p != nil {
				t.Errorf("%q page %d: %s", q, page, strings.Join(p, "; "))
			}
			pages = pageCount(m)
		}
	}
	if kinds[knowledge.KindCVEs] < 10 || kinds[knowledge.KindCVE] != len(vulns)+1 {
		t.Errorf("answers by kind: %v", kinds)
	}
}
