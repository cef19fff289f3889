package slack

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kepbot/kepbot/knowledge/question"
)

// slashJSON sends a signed slash command over HTTP and returns the
// response's JSON.
func slashJSON(t *testing.T, a *Adapter, text string) string {
	t.Helper()
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody(text, testHooksURL)))
	if rec.Code != 200 {
		t.Fatalf("%q: status %d %s", text, rec.Code, rec.Body.String())
	}
	return rec.Body.String()
}

// TestFreeTextSlashCommand asks questions as people type them through the
// HTTP slash command, to the real engine over the built-in snapshot, with
// the reader that knows its features by name.
func TestFreeTextSlashCommand(t *testing.T) {
	eng, _ := realEngine(t)
	a, _ := newHTTPAdapter(t, eng, WithReader(question.NewReader(eng)))
	tests := []struct {
		text string
		want []string // in the response JSON
		not  []string
	}{
		{"what went GA in 1.30?", []string{"Read as `1.30 ga`", "went GA in Kubernetes 1.30", "KEP-3521"}, []string{":warning:"}},
		{"is sidecar containers stable?", []string{"Read as `is kep 753 ga`", "Yes — KEP-753 (Sidecar Containers) is GA"}, nil},
		{"1.30 有哪些 GA 的特性", []string{"Read as `1.30 ga`", "KEP-3521"}, nil},
		{"what's for lunch", []string{":warning:", "doesn't look like a question", `"kepbot_ask_0"`}, []string{"KEP-", "Read as"}},
		{"<!channel> is <@U1> GA?", []string{":warning:"}, []string{"<!channel>", "<@U1>", "Read as"}},
	}
	for _, tt := range tests {
		got := slashJSON(t, a, tt.text)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q: response lacks %q:\n%s", tt.text, w, got)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(got, w) {
				t.Errorf("%q: response holds %q:\n%s", tt.text, w, got)
			}
		}
	}
}

// TestSuggestionButtonAsks: a feature name several KEPs match gets a
// "did you mean" with a button for each; pressing one (a block_actions
// interaction over HTTP) asks its question and replaces the message with
// the answer on response_url.
func TestSuggestionButtonAsks(t *testing.T) {
	eng, _ := realEngine(t)
	f := newFakeSlack(t, nil)
	a, _ := newEventsAdapter(t, f, eng, WithReader(question.NewReader(eng)))
	var m struct {
		Blocks []struct {
			Type     string `json:"type"`
			Elements []struct {
				ActionID string `json:"action_id"`
				Value    string `json:"value"`
			} `json:"elements"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal([]byte(slashJSON(t, a, "is storage stable?")), &m); err != nil {
		t.Fatal(err)
	}
	var actionID, value string
	for _, b := range m.Blocks {
		if b.Type == "actions" && len(b.Elements) > 1 {
			actionID, value = b.Elements[0].ActionID, b.Elements[0].Value
		}
	}
	if !strings.HasPrefix(actionID, actionAsk) || !strings.Contains(value, "is kep ") {
		t.Fatalf("no suggestion buttons: %+v", m)
	}
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "response_url": f.responseURL("ask"),
		"team": map[string]string{"id": "T1"}, "user": map[string]string{"id": "U1", "username": "u"},
		"channel": map[string]string{"id": "C1"},
		"actions": []map[string]string{{"action_id": actionID, "block_id": askBlockID, "value": value}},
	})
	body := []byte(url.Values{"payload": {string(payload)}}.Encode())
	if rec := serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(), body)); rec.Code != 200 {
		t.Fatalf("interaction = %d", rec.Code)
	}
	waitFor(t, "the suggested question's answer", func() bool { return len(f.responsePosts()) == 1 })
	r := f.responsePosts()[0]
	raw, _ := json.Marshal(r)
	if r["replace_original"] != true || (!strings.Contains(string(raw), "Yes — KEP-") && !strings.Contains(string(raw), "No — KEP-")) {
		t.Errorf("suggestion answer = %s", raw)
	}
}

// TestSocketFreeTextMentionAndButton: over Socket Mode, a mention typed
// as in chat is answered with how it was read, and a suggestion button
// (an interactive envelope) asks its question, answered on response_url.
func TestSocketFreeTextMentionAndButton(t *testing.T) {
	eng, _ := realEngine(t)
	var f *fakeSlack
	f = newFakeSlack(t, func(n int, c *websocket.Conn) {
		button, _ := json.Marshal(map[string]any{
			"type": "block_actions", "response_url": f.responseURL("ask"),
			"team": map[string]string{"id": "T1"}, "user": map[string]string{"id": "U1", "username": "u"},
			"channel": map[string]string{"id": "C1"},
			"actions": []map[string]string{{"action_id": actionAsk + "1", "block_id": askBlockID, "value": pageValue("kep 753", 0, false)}},
		})
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("events_api", "env-1", 0, mentionPayload("Ev1", "1700000000.000001",
			"<@"+testBotUser+"> hey, what went GA in 1.30 pls?")))
		_ = c.WriteJSON(envelope("interactive", "env-2", 0, string(button)))
		readAcksUntil(c, "env-1", "env-2")
		drain(c)
	})
	runAdapter(t, newSocketAdapter(t, f, eng, false, &logBuffer{}, WithReader(question.NewReader(eng))))
	waitFor(t, "the mention's answer", func() bool { return len(f.postedMessages()) == 1 })
	if p := f.postedMessages()[0]; !strings.Contains(p.Get("blocks"), "Read as `1.30 ga`") || !strings.Contains(p.Get("blocks"), "KEP-3521") {
		t.Errorf("mention answer = %v", p)
	}
	waitFor(t, "the button's answer", func() bool { return len(f.responsePosts()) == 1 })
	if raw, _ := json.Marshal(f.responsePosts()[0]); !strings.Contains(string(raw), "KEP-753: Sidecar Containers") {
		t.Errorf("button answer = %s", raw)
	}
}
