package slack

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestScanNeverLeaksManifest pastes and attaches a Secret, in readable
// and in broken YAML, through every way a scan arrives (a mention, a DM,
// a file, the slash command over HTTP and Socket Mode, the form), with the
// log at debug level and slack-go's own debug output on. The Secret's
// value appears nowhere in what the fake Slack receives (posts,
// response_url posts, views.open, acks, HTTP responses) nor in the log.
func TestScanNeverLeaksManifest(t *testing.T) {
	acks := make(chan string, 8)
	var f *fakeSlack
	f = newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		for i, m := range []string{scanYAML, brokenYAML} {
			id := "env-" + string(rune('a'+i))
			_ = c.WriteJSON(envelope("slash_commands", id, 0, slashPayload("scan 1.36\n"+esc(m), f.responseURL("sock"))))
		}
		for _, ack := range readAcks(c, 2) {
			raw, _ := json.Marshal(ack)
			acks <- string(raw)
		}
		close(acks)
		drain(c)
	})
	logs := &logBuffer{}
	ans := scanAnswerer(t)
	a := newSocketAdapter(t, f, ans, true, logs)
	runAdapter(t, a)
	waitFor(t, "auth.test", func() bool { return a.botUserID() == testBotUser })

	var outputs []string
	for i, m := range []string{scanYAML, brokenYAML} {
		n := string(rune('a' + i))
		f.serveFile("secret-"+n, serveText(m))
		serve(a, eventRequest(mentionEvent("p"+n, "Cpaste"+n, "<@"+testBotUser+"> scan 1.36\n```"+esc(m)+"```"), 0))
		serve(a, eventRequest(mentionEvent("d"+n, "Ddm"+n, "scan 1.36\n"+esc(m)), 0))
		serve(a, eventRequest(mentionEvent("f"+n, "Cfile"+n, "<@"+testBotUser+"> scan 1.36",
			fileObject("F"+n, f.fileURL("secret-"+n), len(m))), 0))
		rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("scan 1.36\n"+esc(m), f.responseURL("http"))))
		outputs = append(outputs, rec.Body.String())
		rec = serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("scan 1.36", f.responseURL("form"))))
		outputs = append(outputs, rec.Body.String())
		meta, _, _ := openedForm(t, f, "1.2.3")
		rec = serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(), submission("U1", meta, m)))
		outputs = append(outputs, rec.Body.String())
	}
	waitFor(t, "every answer", func() bool {
		n := 0
		for _, ch := range []string{"Cpastea", "Cpasteb", "Ddma", "Ddmb", "Cfilea", "Cfileb"} {
			if postsTo(f, ch) != "" {
				n++
			}
		}
		return n == 6 && len(f.responsePosts()) >= 2 // the forms' answers
	})
	for ack := range acks {
		outputs = append(outputs, ack)
	}
	if len(ans.questions()) != 12 {
		t.Errorf("%d scans answered, want 12", len(ans.questions()))
	}
	got := f.received() + strings.Join(outputs, "\n")
	if !strings.Contains(postsTo(f, "Cpastea"), "Removed in 1.22") || !strings.Contains(postsTo(f, "Cfileb"), "could not") {
		t.Fatal("the answers are not scan answers: the test would prove nothing")
	}
	if !strings.Contains(logs.String(), `"source":"slack-go"`) {
		t.Error("no slack-go debug line reached the log: the test would prove less")
	}
	for _, s := range []string{secretValue, secretBase64, "hunter2", url.QueryEscape(secretValue)} {
		if strings.Contains(got, s) {
			t.Errorf("Slack received %q", s)
		}
		if strings.Contains(logs.String(), s) {
			t.Errorf("the log holds %q", s)
		}
	}
}
