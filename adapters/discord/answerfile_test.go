package discord

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store/storetest"
)

// TestUpgradeWholeListAttached (issue 30, point 9): a long upgrade answer
// breaks first on Discord too (the APIs that stop being served, then the
// other groups, each with its count) and ends with its whole list as an
// attachment, sent as Discord takes uploads (multipart, the message as
// payload_json) to the fake's channel endpoint.
func TestUpgradeWholeListAttached(t *testing.T) {
	f := newFakeDiscord(t)
	kb := storetest.SnapshotDB(t).Knowledge()
	eng := engine.New(kb)
	const q = "upgrade 1.25 1.36"
	ans := question.NewAsker(nil, eng).Ask(context.Background(), q, knowledge.Origin{})
	msgs := Render(ans)
	last := msgs[len(msgs)-1]
	if last.File == nil || last.File.Name != "upgrade-1.25-1.36.txt" || len(msgs) < 2 {
		t.Fatalf("the answer (%d messages) ends with no file: %+v", len(msgs), last)
	}
	if titles := embedTitles(msgs[:1]); len(titles[0]) < 2 || !strings.HasPrefix(titles[0][1], "⛔ APIs that stop being served (") {
		t.Errorf("the first message's sections %v; want the APIs that stop being served first", titles)
	}
	for _, g := range knowledge.NoticeGroups(ans) {
		if !strings.Contains(string(last.File.Data), "\n"+g.Heading()+"\n") {
			t.Errorf("the file lacks %q", g.Heading())
		}
	}

	logger, _ := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, eng, testCatalog(t, kb), logger)
	f.next("PUT", "/api/v9/applications/"+testAppID+"/commands", 5*time.Second)
	f.dispatch("MESSAGE_CREATE", message("20", "c9", testGuild, "100", "!k8s "+q, false))
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		p := f.next("POST", "/api/v9/channels/", 5*time.Second)
		body := string(p.Body)
		if !strings.Contains(body, `filename="upgrade-1.25-1.36.txt"`) {
			continue
		}
		if !strings.Contains(body, "payload_json") || !strings.Contains(body, `"parse":[]`) || !strings.Contains(body, "APIs that stop being served (") {
			t.Errorf("the file's post is not a multipart upload with its payload and the list: %.400s", body)
		}
		return
	}
	t.Fatal("no post carried the file")
}
