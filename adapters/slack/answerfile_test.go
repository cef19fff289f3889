package slack

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// TestUpgradeWholeListAsFile (issue 30, point 9): a long upgrade answer
// breaks first on Slack too (its first page names each group with its
// count and page) and offers its whole list as a file; the button posts
// it to the channel with files.uploadV2 against the fake Slack, every
// notice and graduation in it, and says so; without files:write it says
// what is missing.
func TestUpgradeWholeListAsFile(t *testing.T) {
	f := newFakeSlack(t, nil)
	eng, _ := realEngine(t)
	a, _ := newEventsAdapter(t, f, eng)
	const q = "upgrade 1.25 1.36"
	ans := question.NewAsker(nil, eng).Ask(context.Background(), q, knowledge.Origin{})
	if !ans.BreaksFirst || len(ans.Notices) < 100 {
		t.Fatalf("%s: %d notices, breaks first %v; want a long upgrade", q, len(ans.Notices), ans.BreaksFirst)
	}
	m := Render(ans, RenderOptions{Slash: true, Files: true})
	raw, _ := json.Marshal(m)
	groups := knowledge.NoticeGroups(ans)
	if !strings.Contains(string(raw), actionFile) || !strings.Contains(string(raw), groups[0].Heading()+" p.1") {
		t.Fatalf("the first page offers no file or no headings: %s", raw)
	}
	if first := strings.Index(string(raw), groups[0].Heading()); first < 0 || strings.Contains(string(raw)[:first], "KEP-") {
		t.Errorf("the first page draws graduations before the APIs that stop being served: %s", raw)
	}

	press := func(name, q string) {
		t.Helper()
		payload, _ := json.Marshal(map[string]any{
			"type": "block_actions", "response_url": f.responseURL(name),
			"team": map[string]string{"id": "T1"}, "user": map[string]string{"id": "U1", "username": "u"},
			"channel": map[string]string{"id": "C1"}, "container": map[string]string{"thread_ts": "1700000000.000200"},
			"actions": []map[string]string{{"action_id": actionFile, "block_id": pageBlockID, "value": pageValue(q, 0, false)}},
		})
		body := []byte(url.Values{"payload": {string(payload)}}.Encode())
		if rec := serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(), body)); rec.Code != 200 {
			t.Fatalf("file button = %d", rec.Code)
		}
	}
	press("file", q)
	waitFor(t, "the file and its message", func() bool { return len(f.postedFiles()) == 1 && len(f.responsePosts()) == 1 })
	up := f.postedFiles()[0]
	if up.Channel != "C1" || up.Thread != "1700000000.000200" || up.Name != "upgrade-1.25-1.36.txt" || up.Title != ans.Title {
		t.Errorf("file %+v; want upgrade-1.25-1.36.txt in C1's thread, titled %q", up, ans.Title)
	}
	text := string(up.Body)
	for _, g := range groups {
		if !strings.Contains(text, "\n"+g.Heading()+"\n") {
			t.Errorf("the file lacks the group %q", g.Heading())
		}
	}
	want := len(ans.Notices) + len(ans.Items)
	for _, s := range ans.GateSections() {
		want += len(s.Lines)
		if !strings.Contains(text, "\n"+s.Title+"\n") {
			t.Errorf("the file lacks the gates' %q", s.Title)
		}
	}
	if n := strings.Count(text, "\n- "); n != want {
		t.Errorf("the file holds %d lines; want every notice, item and gate line (%d)", n, want)
	}
	if got := f.responsePosts()[0]["text"]; got != filePosted {
		t.Errorf("told %q", got)
	}

	f.mu.Lock()
	f.uploadErr = "missing_scope"
	f.mu.Unlock()
	press("noscope", q)
	waitFor(t, "the refusal", func() bool { return len(f.responsePosts()) == 2 })
	if got := f.responsePosts()[1]["text"]; got != fileNoScope || len(f.postedFiles()) != 1 {
		t.Errorf("without files:write: told %q, %d files", got, len(f.postedFiles()))
	}
	// a question that is an error when the button is pressed (the
	// knowledge changed since) is said privately; no file is posted
	f.mu.Lock()
	f.uploadErr = ""
	f.mu.Unlock()
	press("error", "kep 99999")
	waitFor(t, "the error", func() bool { return len(f.responsePosts()) == 3 })
	if got := f.responsePosts()[2]["text"]; !strings.HasPrefix(got.(string), "I don't know KEP-99999.") || len(f.postedFiles()) != 1 {
		t.Errorf("an error answer's file: told %q, %d files", got, len(f.postedFiles()))
	}
	if strings.Contains(f.received(), "<!channel>") {
		t.Error("a file request carried a mass mention")
	}
}
