package slack

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kepbot/kepbot/knowledge"
)

// secretValue is the value of a Secret in the manifests the scan tests
// paste and attach: it must never reach Slack or a log.
const (
	secretValue  = "Zq7-hunter2-DoNotLeak-41d8"
	secretBase64 = "WnE3LWh1bnRlcjItRG9Ob3RMZWFrLTQxZDg="
)

// scanYAML is a manifest stream as people paste it: an Ingress and a
// CronJob removed by 1.36, a Secret, a custom resource, a YAML anchor
// (&) and merge, a URL and a < in a value.
const scanYAML = `apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
  namespace: prod
  labels: &common
    app: web
  annotations:
    docs: https://example.com/runbook
    note: "a <b> & c"
spec:
  defaultBackend:
    labels: *common
---
apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: nightly
---
apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: ` + secretValue + `
data:
  token: ` + secretBase64 + `
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: gadget
`

// brokenYAML holds the Secret in a document that cannot be read.
const brokenYAML = `apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: "` + secretValue + `
  other: [unclosed
`

// slackEscaped is text as Slack delivers what was typed: & < > escaped,
// and links wrapped in <…>.
func slackEscaped(s string) string {
	s = esc(s)
	return strings.ReplaceAll(s, "https://example.com/runbook", "<https://example.com/runbook>")
}

// recordingAnswerer passes questions to the real engine and keeps them.
type recordingAnswerer struct {
	inner knowledge.Answerer
	mu    sync.Mutex
	asked []knowledge.Question
}

func (r *recordingAnswerer) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	r.mu.Lock()
	r.asked = append(r.asked, q)
	r.mu.Unlock()
	return r.inner.Answer(ctx, q)
}

func (r *recordingAnswerer) questions() []knowledge.Question {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]knowledge.Question(nil), r.asked...)
}

// scanAnswerer is the real engine over the built-in snapshot (which holds
// the API lifecycle), recording what it is asked.
func scanAnswerer(t *testing.T) *recordingAnswerer {
	t.Helper()
	eng, _ := realEngine(t)
	return &recordingAnswerer{inner: eng}
}

// mentionEvent is an app_mention (or, with channel type im, a DM) event.
func mentionEvent(id, channel, text string, files ...map[string]any) string {
	ev := map[string]any{"type": "app_mention", "user": "U1", "text": text, "channel": channel, "ts": id + ".1"}
	if strings.HasPrefix(channel, "D") {
		ev["type"], ev["channel_type"] = "message", "im"
	}
	if len(files) > 0 {
		ev["files"] = files
		if ev["type"] == "message" {
			ev["subtype"] = "file_share"
		}
	}
	b, _ := json.Marshal(map[string]any{"type": "event_callback", "team_id": "T1", "event_id": "Ev" + id, "event": ev})
	return string(b)
}

// postsTo returns the text and every string in the blocks of each
// message posted to channel.
func postsTo(f *fakeSlack, channel string) string {
	var b strings.Builder
	for _, p := range f.postedMessages() {
		if p.Get("channel") == channel {
			b.WriteString(p.Get("text") + "\n" + jsonStrings(p.Get("blocks")) + "\n")
		}
	}
	return b.String()
}

// jsonStrings returns every string in a JSON document, a line each, as
// Slack reads them (JSON may write < as \u003c).
func jsonStrings(raw string) string {
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return raw
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v + "\n")
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// findings are what the answer to scanYAML against 1.36 must say.
var findings = []string{
	"4 objects: 2 removed by 1.36",
	"Removed in 1.22: extensions/v1beta1 Ingress", "networking.k8s.io/v1 Ingress", "prod/web",
	"Removed in 1.25: batch/v1beta1 CronJob", "nightly",
	"Not built in: example.com/v1 Widget", "gadget",
}

func checkFindings(t *testing.T, where, got string) {
	t.Helper()
	for _, w := range findings {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", where, w, got)
		}
	}
}

func TestUnslack(t *testing.T) {
	for in, want := range map[string]string{
		"plain: text":                              "plain: text",
		"labels: &amp;common\n  app: web":          "labels: &common\n  app: web",
		"x: &lt;b&gt; &amp;amp; y":                 "x: <b> &amp; y",
		"url: <https://example.com/a?b=1&amp;c=2>": "url: https://example.com/a?b=1&c=2",
		"host: <http://example.com|example.com>":   "host: example.com",
		"mail: <mailto:a@b.io|a@b.io>":             "mail: a@b.io",
		"who: <@U123>":                             "who: @U123",
		"who: <@U123|ada>":                         "who: @ada",
		"where: <#C1|general>":                     "where: #general",
		"all: <!here> <!channel> <!everyone>":      "all: @here @channel @everyone",
		"team: <!subteam^S1|@sre>":                 "team: @sre",
		"open: <unclosed":                          "open: <unclosed",
		"```yaml\na: &amp;x 1\n```":                "```yaml\na: &x 1\n```",
	} {
		if got := unslack(in); got != want {
			t.Errorf("unslack(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScanMentionScansWhatWasPasted: a mention and a DM with manifests
// after the question, as Slack delivers them (escaped, links wrapped, in a
// code block or not), reach the engine exactly as pasted, and the answer
// in the thread names each API with its replacement and objects.
func TestScanMentionScansWhatWasPasted(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := scanAnswerer(t)
	a, _ := newEventsAdapter(t, f, ans)
	for i, tc := range []struct{ channel, text string }{
		{"C1", "<@" + testBotUser + "> scan 1.36\n```yaml\n" + slackEscaped(scanYAML) + "```"},
		{"C2", "<@" + testBotUser + "> scan 1.36\n" + slackEscaped(scanYAML)},
		{"D1", "scan 1.36 ```" + slackEscaped(scanYAML) + "```"},
	} {
		if rec := serve(a, eventRequest(mentionEvent("m"+string(rune('a'+i)), tc.channel, tc.text), 0)); rec.Code != 200 {
			t.Fatalf("%s: status %d", tc.channel, rec.Code)
		}
		waitFor(t, "the answer in "+tc.channel, func() bool { return postsTo(f, tc.channel) != "" })
		checkFindings(t, tc.channel, postsTo(f, tc.channel))
	}
	qs := ans.questions()
	if len(qs) != 3 {
		t.Fatalf("%d questions, want 3", len(qs))
	}
	for _, q := range qs {
		if q.Kind != knowledge.AskScan || q.To.String() != "1.36" || strings.TrimLeft(string(q.Manifest), "\n") != scanYAML {
			t.Errorf("the engine got %s with manifest:\n%s\nwant exactly what was pasted:\n%s", q.Canonical(), q.Manifest, scanYAML)
		}
	}
	for _, p := range f.postedMessages() {
		if p.Get("channel") == "C1" && p.Get("thread_ts") != "ma.1" {
			t.Errorf("the channel answer is not in the mention's thread: %v", p)
		}
	}
}

// TestScanSlashCommand: /k8s scan 1.36 with the YAML on the lines after
// it, over HTTP and Socket Mode, is answered with the findings: in the
// ack, or on response_url in parts.
func TestScanSlashCommand(t *testing.T) {
	text := "scan 1.36\n" + slackEscaped(scanYAML)
	acks := make(chan []map[string]any, 1)
	var f *fakeSlack
	f = newFakeSlack(t, func(n int, c *websocket.Conn) {
		_ = c.WriteJSON(map[string]any{"type": "hello"})
		_ = c.WriteJSON(envelope("slash_commands", "env-scan", 0, slashPayload(text, f.responseURL("s"))))
		acks <- readAcks(c, 1)
		drain(c)
	})
	ans := scanAnswerer(t)
	a := newSocketAdapter(t, f, ans, false, &logBuffer{})
	runAdapter(t, a)

	select {
	case got := <-acks:
		raw, _ := json.Marshal(got)
		checkFindings(t, "the Socket Mode ack", jsonStrings(string(raw)))
		if !strings.Contains(string(raw), `"response_type":"ephemeral"`) {
			t.Errorf("the scan answer is not ephemeral: %s", raw)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no ack")
	}

	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("scan 1.36 --public\n"+slackEscaped(scanYAML), f.responseURL("p"))))
	if rec.Code != 200 {
		t.Fatalf("HTTP public scan: status %d", rec.Code)
	}
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	checkFindings(t, "the public HTTP answer", jsonStrings(rec.Body.String()))
	if m["response_type"] != InChannel {
		t.Errorf("a --public scan is %v, want in_channel", m["response_type"])
	}
	for _, q := range ans.questions() {
		if q.Kind != knowledge.AskScan || !strings.HasPrefix(strings.TrimLeft(string(q.Manifest), "\n"), scanYAML) {
			t.Errorf("the engine got %s with manifest %q", q.Canonical(), q.Manifest)
		}
	}
}

// TestScanErrorsArePrivate: no manifest (with no form to open), a release
// the knowledge does not know, and manifests without one object are each
// answered with a sentence, privately.
func TestScanErrorsArePrivate(t *testing.T) {
	f := newFakeSlack(t, nil)
	a, _ := newEventsAdapter(t, f, scanAnswerer(t))
	for _, tc := range []struct{ text, want string }{
		{"scan 9.99\n" + scanYAML, "I don't know Kubernetes 9.99"},
		{"scan 1.36\nfoo: bar\n", "no Kubernetes object"},
		{"scan 1.36 1.32\n" + scanYAML, "give the release you run first"},
	} {
		body := slashBody(tc.text, f.responseURL("e"))
		rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), body))
		var m map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		if rec.Code != 200 || m["response_type"] != Ephemeral || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%q: %d %s; want an ephemeral answer saying %q", strings.SplitN(tc.text, "\n", 2)[0], rec.Code, rec.Body.String(), tc.want)
		}
	}
	// Without a trigger_id no form can open: the answer says what to send.
	body := []byte(strings.Replace(string(slashBody("scan 1.36", f.responseURL("n"))), "trigger_id=1.2.3", "trigger_id=", 1))
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), body))
	if !strings.Contains(rec.Body.String(), "Send the manifests with the question") || !strings.Contains(rec.Body.String(), Ephemeral) {
		t.Errorf("a bare scan without a form: %s", rec.Body.String())
	}
	if len(f.openedViews()) != 0 {
		t.Errorf("views.open called without a trigger_id")
	}
}

// TestScanMassMentions: objects named @everyone, <!channel> and @here
// are named in the answer without any mention Slack would notify.
func TestScanMassMentions(t *testing.T) {
	f := newFakeSlack(t, nil)
	a, _ := newEventsAdapter(t, f, scanAnswerer(t))
	yaml := "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: \"@everyone\"\n  namespace: \"<!channel>\"\n---\n" +
		"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: \"@here\"\n---\napiVersion: x.io/v1\nkind: \"<!here>\"\nmetadata: {name: \"<@U999>\"}\n"
	serve(a, eventRequest(mentionEvent("mm", "C9", "<@"+testBotUser+"> scan 1.36\n"+esc(yaml)), 0))
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("scan 1.36 --public\n"+esc(yaml), f.responseURL("mm"))))
	waitFor(t, "the answer", func() bool { return postsTo(f, "C9") != "" })
	for where, out := range map[string]string{"the mention answer": postsTo(f, "C9"), "the slash answer": jsonStrings(rec.Body.String())} {
		if !strings.Contains(out, "Removed in 1.22") {
			t.Errorf("%s is not a scan answer: %s", where, out)
		}
		for _, m := range []string{"<!", "<@", "@everyone", "@here", "@channel"} {
			if strings.Contains(out, m) {
				t.Errorf("%s holds %q:\n%s", where, m, out)
			}
		}
	}
	for _, p := range f.postedMessages() {
		if p.Get("link_names") == "true" || p.Get("parse") == "full" {
			t.Errorf("a post asks Slack to link names: %v", p)
		}
	}
}
