package slack

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"
)

// slashReply decodes the JSON a slash command was answered with.
func slashReply(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("slash reply %s: %v", body, err)
	}
	return m
}

// shareAction returns the share button of a message as Slack received it:
// its action_id and value, or ok false.
func shareAction(m map[string]any) (value string, ok bool) {
	blocks, _ := m["blocks"].([]any)
	for _, b := range blocks {
		bl, _ := b.(map[string]any)
		if bl["block_id"] != shareBlockID {
			continue
		}
		for _, e := range bl["elements"].([]any) {
			el := e.(map[string]any)
			if el["action_id"] == actionShare && el["type"] == "button" {
				return el["value"].(string), true
			}
		}
	}
	return "", false
}

// pressPayload is the block_actions payload Slack sends when actionID's
// button carrying value is pressed on a message answered at responseURL.
func pressPayload(responseURL, blockID, actionID, value string) []byte {
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "response_url": responseURL,
		"team": map[string]string{"id": "T1"}, "user": map[string]string{"id": "U1", "username": "u"},
		"channel":   map[string]string{"id": "C1"},
		"container": map[string]any{"type": "message", "is_ephemeral": true},
		"actions":   []map[string]string{{"action_id": actionID, "block_id": blockID, "value": value}},
	})
	return []byte(url.Values{"payload": {string(payload)}}.Encode())
}

// TestShareButtonRoundTrip: /k8s answers privately with a "Share in
// channel" button; pressing it (a signed block_actions) asks again, posts
// the answer to the channel through response_url, without the button, and
// deletes the private one. A press not signed with the app's secret is
// refused and posts nothing.
func TestShareButtonRoundTrip(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{}
	a, _ := newEventsAdapter(t, f, ans)
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("kep 4639", f.responseURL("cmd"))))
	reply := slashReply(t, rec.Body.Bytes())
	value, ok := shareAction(reply)
	if reply["response_type"] != Ephemeral || !ok || value != pageValue("kep 4639", 0, true) {
		t.Fatalf("slash reply: response_type %v, share button %v %q; want ephemeral with the button", reply["response_type"], ok, value)
	}

	forged := pressPayload(f.responseURL("forged"), shareBlockID, actionShare, value)
	if rec := serve(a, signedRequest(PathInteractions, formType, "not-the-signing-secret-0123", time.Now(), forged)); rec.Code != 401 {
		t.Errorf("a press signed with another secret = %d, want 401", rec.Code)
	}
	press := pressPayload(f.responseURL("share"), shareBlockID, actionShare, value)
	if rec := serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(), press)); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Fatalf("share press = %d %q, want an empty 200", rec.Code, rec.Body.String())
	}
	waitFor(t, "the shared answer and the deletion", func() bool { return len(f.responsePosts()) >= 2 })
	time.Sleep(50 * time.Millisecond)
	posts := f.responsePosts()
	if len(posts) != 2 {
		t.Fatalf("%d posts to response_url, want 2 (the answer, then the deletion): %v", len(posts), posts)
	}
	shared, del := posts[0], posts[1]
	raw, _ := json.Marshal(shared)
	if shared["response_type"] != InChannel || shared["replace_original"] == true || !strings.Contains(string(raw), "KEP-4639") {
		t.Errorf("shared answer = %s; want in_channel, a new message, with the KEP", raw)
	}
	if _, again := shareAction(shared); again {
		t.Error("the shared answer offers to share again")
	}
	if len(del) != 1 || del["delete_original"] != true {
		t.Errorf("second post = %v, want {\"delete_original\":true}", del)
	}
	if q := ans.questions(); len(q) != 2 || q[1].Canonical() != "kep 4639" {
		t.Errorf("asked %v; want kep 4639 twice (the command, the share)", q)
	}
}

// TestShareButtonOnPages: a page of a private list keeps the button, for
// that page; a shared error (the KEP is gone) replaces the private answer
// and posts nothing to the channel.
func TestShareButtonOnPages(t *testing.T) {
	f := newFakeSlack(t, nil)
	a, _ := newEventsAdapter(t, f, &fakeAnswerer{})
	serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(),
		pressPayload(f.responseURL("page"), pageBlockID, actionNext, pageValue("1.40 ga", 1, false))))
	waitFor(t, "the page", func() bool { return len(f.responsePosts()) == 1 })
	page := f.responsePosts()[0]
	if v, _ := shareAction(page); page["response_type"] != Ephemeral || page["replace_original"] != true || v != pageValue("1.40 ga", 1, true) {
		t.Errorf("page 2: response_type %v, replace_original %v, share value %q", page["response_type"], page["replace_original"], v)
	}

	serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(),
		pressPayload(f.responseURL("gone"), shareBlockID, actionShare, pageValue("kep 9999", 0, true))))
	waitFor(t, "the error", func() bool { return len(f.responsePosts()) == 2 })
	time.Sleep(50 * time.Millisecond)
	posts := f.responsePosts()
	if e := posts[1]; len(posts) != 2 || e["response_type"] != Ephemeral || e["replace_original"] != true {
		t.Errorf("a shared miss: %v; want one ephemeral replacement", posts[1:])
	}
}

// TestPublicAnswersSetting: with answers.public every /k8s answer goes to
// the channel without a share button; help stays private.
func TestPublicAnswersSetting(t *testing.T) {
	f := newFakeSlack(t, nil)
	a, _ := newEventsAdapterConfig(t, f, &fakeAnswerer{}, func(c *Config) { c.PublicAnswers = true })
	reply := slashReply(t, serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), freshSlashBody("kep 4639", f.responseURL("a")))).Body.Bytes())
	if _, ok := shareAction(reply); reply["response_type"] != InChannel || ok {
		t.Errorf("kep 4639 with public answers: response_type %v, share button %v; want in_channel, none", reply["response_type"], ok)
	}
	reply = slashReply(t, serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), freshSlashBody("help", f.responseURL("b")))).Body.Bytes())
	if reply["response_type"] != Ephemeral {
		t.Errorf("help with public answers: response_type %v, want ephemeral", reply["response_type"])
	}
}
