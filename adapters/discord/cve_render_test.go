package discord

import (
	"context"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store/storetest"
)

// TestEveryCVEAnswerFits asks, of the built-in snapshot, the
// vulnerabilities of every release and of its first patch, every record's
// card, yes/no questions and upgrades, and checks every message against
// Discord's limits.
func TestEveryCVEAnswerFits(t *testing.T) {
	db := storetest.SnapshotDB(t)
	eng := engine.New(db.Knowledge())
	ctx := context.Background()
	rels, err := db.Knowledge().ListReleases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vulns, err := db.Knowledge().ListVulns(ctx)
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
	for _, q := range questions {
		ans := question.NewAsker(nil, eng).Ask(ctx, q, knowledge.Origin{Platform: Platform})
		msgs := Render(ans)
		if len(msgs) == 0 || len(msgs) > MaxMessagesAnswer {
			t.Errorf("%q: %d messages", q, len(msgs))
		}
		for i, m := range msgs {
			if err := CheckMessage(m); err != nil {
				t.Errorf("%q message %d: %v", q, i, err)
			}
		}
	}
}
