package slack

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// submission is a view_submission payload for the scan form, as Slack
// sends it: the submitter, the view's callback_id, private_metadata and
// the text box's value.
func submission(user, meta, manifests string) []byte {
	p, _ := json.Marshal(map[string]any{
		"type": "view_submission", "team": map[string]string{"id": "T1"},
		"user": map[string]string{"id": user, "username": "u"},
		"view": map[string]any{"id": "V1", "callback_id": scanCallbackID, "private_metadata": meta,
			"state": map[string]any{"values": map[string]any{scanBlockID: map[string]any{scanActionID: map[string]any{"type": "plain_text_input", "value": manifests}}}}},
	})
	return []byte(url.Values{"payload": {string(p)}}.Encode())
}

// openedForm returns the private_metadata and the text box of the last
// form views.open was asked to open, and checks its trigger_id.
func openedForm(t *testing.T, f *fakeSlack, trigger string) (meta string, box map[string]any, hint string) {
	t.Helper()
	views := f.openedViews()
	if len(views) == 0 {
		t.Fatal("views.open was not called")
	}
	v := views[len(views)-1]
	if v["trigger_id"] != trigger {
		t.Errorf("views.open trigger_id = %v, want %s", v["trigger_id"], trigger)
	}
	view, _ := v["view"].(map[string]any)
	if view["type"] != "modal" || view["callback_id"] != scanCallbackID {
		t.Errorf("view = %v", view)
	}
	meta, _ = view["private_metadata"].(string)
	blocks, _ := view["blocks"].([]any)
	for _, b := range blocks {
		if m, _ := b.(map[string]any); m["type"] == "input" {
			box, _ = m["element"].(map[string]any)
			h, _ := m["hint"].(map[string]any)
			hint, _ = h["text"].(string)
		}
	}
	return meta, box, hint
}

// TestScanModal: a bare /k8s scan 1.36 opens a form at once (the ack is
// empty, and views.open gets the command's trigger_id); the form's box is
// multi-line, capped at 3,000 characters, and says so; submitting it
// answers privately on the command's response_url. A form whose metadata
// was changed, that someone else submits, or that expired is refused.
func TestScanModal(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := scanAnswerer(t)
	a, logs := newEventsAdapter(t, f, ans)

	start := time.Now()
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("scan 1.36", f.responseURL("modal"))))
	if rec.Code != 200 || rec.Body.Len() != 0 || time.Since(start) > time.Second {
		t.Fatalf("bare scan = %d %q after %s, want an empty 200 at once", rec.Code, rec.Body.String(), time.Since(start))
	}
	meta, box, hint := openedForm(t, f, "1.2.3")
	if box["type"] != "plain_text_input" || box["multiline"] != true || box["max_length"] != float64(MaxInputText) {
		t.Errorf("text box = %v, want multi-line plain_text_input of at most %d", box, MaxInputText)
	}
	if !strings.Contains(hint, "3,000 characters") || !strings.Contains(hint, "attach") {
		t.Errorf("hint %q does not give the cap and point at attaching a file", hint)
	}
	if len(meta) > 3000 {
		t.Errorf("private_metadata has %d characters; Slack takes 3,000", len(meta))
	}

	sent := 0
	submit := func(user, meta string) int {
		// Each submission is Slack's own request, signed when sent: a
		// second of the same form is not the same bytes.
		sent++
		at := time.Now().Add(-time.Duration(sent) * time.Second)
		rec := serve(a, signedRequest(PathInteractions, formType, testSecret, at, submission(user, meta, scanYAML)))
		if rec.Code != 200 || rec.Body.Len() != 0 {
			t.Errorf("submission = %d %q, want an empty 200 (closes the form)", rec.Code, rec.Body.String())
		}
		return len(f.responsePosts())
	}
	submit("U1", meta)
	waitFor(t, "the form's answer", func() bool { return len(f.responsePosts()) == 1 })
	r := f.responsePosts()[0]
	raw, _ := json.Marshal(r)
	if r["response_type"] != Ephemeral {
		t.Errorf("the form's answer is %v, want ephemeral", r["response_type"])
	}
	checkFindings(t, "the form's answer", jsonStrings(string(raw)))
	if q := ans.questions(); len(q) != 1 || string(q[0].Manifest) != scanYAML || q[0].From.Channel != "C1" {
		t.Errorf("the engine got %+v", q)
	}

	tampered := []byte(meta)
	tampered[3] ^= 1
	submit("U1", string(tampered))
	submit("U2", meta)                                // someone else's form
	submit("U1", strings.SplitN(meta, ".", 2)[0]+".") // no signature
	a.setClock(func() time.Time { return time.Now().Add(modalTTL + time.Minute) })
	submit("U1", meta)
	a.setClock(time.Now)
	time.Sleep(100 * time.Millisecond)
	if n := len(f.responsePosts()); n != 1 {
		t.Errorf("%d answers, want 1: a refused form was answered", n)
	}
	if c := strings.Count(logs.String(), "scan form refused"); c != 4 {
		t.Errorf("%d refusals logged, want 4", c)
	}
}

// TestScanModalSocketMode: over Socket Mode the bare command is acked
// empty, the form opens, and its submission (an interactive envelope) is
// acked empty and answered on response_url.
func TestScanModalSocketMode(t *testing.T) {
	sent := make(chan struct{})
	submitted := make(chan string, 1)
	var f *fakeSlack
	f = newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("slash_commands", "env-c", 0, slashPayload("scan 1.32 1.36", f.responseURL("sm"))))
		acks := readAcks(c, 1)
		if len(acks) != 1 || acks[0]["payload"] != nil {
			t.Errorf("command ack = %v, want an empty ack", acks)
		}
		close(sent)
		meta := <-submitted
		p, _ := url.ParseQuery(string(submission("U1", meta, scanYAML)))
		_ = c.WriteJSON(envelope("interactive", "env-v", 0, p.Get("payload")))
		if acks := readAcks(c, 1); len(acks) != 1 || acks[0]["payload"] != nil {
			t.Errorf("submission ack = %v, want an empty ack", acks)
		}
		drain(c)
	})
	a := newSocketAdapter(t, f, scanAnswerer(t), false, &logBuffer{})
	runAdapter(t, a)
	<-sent
	meta, _, _ := openedForm(t, f, "1.2.3")
	submitted <- meta
	waitFor(t, "the form's answer", func() bool { return len(f.responsePosts()) == 1 })
	raw, _ := json.Marshal(f.responsePosts()[0])
	if s := jsonStrings(string(raw)); !strings.Contains(s, "Scan for Kubernetes 1.32 → 1.36") || !strings.Contains(s, "Removed in 1.22") {
		t.Errorf("the form's answer = %s", s)
	}
}
