package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// TestScanNeverLeaksManifest pastes and attaches a Secret, in readable
// and in broken YAML, through every way a scan arrives (a prefix command,
// a mention, a DM, /k8s scan over the gateway and over HTTP), with the log
// at debug level. The Secret's value appears nowhere in what the fake
// Discord receives and nowhere in the log.
func TestScanNeverLeaksManifest(t *testing.T) {
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	ans := &recordingAnswerer{inner: scanEngine(t)}
	a, _ := runAdapter(t, f, Config{GatewayURL: f.gatewayURL(), UserBurst: 100, UserPerMinute: 100}, ans, nil, logger)
	f.next("PUT", "/api/v9/applications/", 5*time.Second)
	_, key, mux := httpAdapter(t, ans, nil, f.srv.URL)

	var responses []string
	posts := 0
	for i, m := range []string{scanYAML, brokenYAML} {
		n := fmt.Sprint(i)
		f.serveAttachment("secret-"+n, serveText(m))
		att := func(id string) map[string]any {
			return attachment(id+n, f.attachmentURL("secret-"+n), len(m), "text/yaml")
		}
		f.dispatch("MESSAGE_CREATE", message("p"+n, "cp"+n, testGuild, "100", "!k8s scan 1.36\n```yaml\n"+m+"```", false))
		f.dispatch("MESSAGE_CREATE", message("m"+n, "cm"+n, testGuild, "100", "<@"+botUserID+"> scan 1.36\n"+m, false))
		f.dispatch("MESSAGE_CREATE", withAttachments(message("f"+n, "cf"+n, testGuild, "100", "!k8s scan 1.36", false), att("fa")))
		f.dispatch("MESSAGE_CREATE", withAttachments(message("d"+n, "dm"+n, "", "100", "scan 1.36", false), att("da")))
		posts += 4
		f.dispatch("INTERACTION_CREATE", scanInteraction("g"+n, "1.36", "", att("ga")))
		b, _ := json.Marshal(scanInteraction("h"+n, "1.36", "", att("ha")))
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, signed(key, now, b))
		responses = append(responses, w.Body.String())
	}
	count := func(method, prefix string) int {
		n := 0
		for _, r := range f.all() {
			if r.Method == method && strings.HasPrefix(r.Path, prefix) {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(10 * time.Second)
	for count("POST", "/api/v9/channels/") < posts || count("PATCH", "/api/v9/webhooks/") < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("%d posts and %d edits, want %d and 4", count("POST", "/api/v9/channels/"), count("PATCH", "/api/v9/webhooks/"), posts)
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.wg.Wait()
	if n := len(ans.questions()); n != 12 {
		t.Errorf("%d scans answered, want 12", n)
	}
	var sent strings.Builder
	scanned := false
	for _, r := range f.all() {
		sent.WriteString(r.Path + "\n" + string(r.Body) + "\n")
		if strings.Contains(shown(t, orEmpty(r.Body)), "Removed in 1.22") {
			scanned = true
		}
	}
	if !scanned {
		t.Fatal("no scan answer was sent: the test would prove nothing")
	}
	got := sent.String() + strings.Join(responses, "\n")
	for _, s := range []string{secretValue, secretBase64, "hunter2"} {
		if strings.Contains(got, s) {
			t.Errorf("Discord received %q", s)
		}
		if strings.Contains(logs.String(), s) {
			t.Errorf("the log holds %q", s)
		}
	}
	f.checkAllMessagesMuted(t)
}

func orEmpty(b []byte) []byte {
	if len(b) == 0 || b[0] != '{' {
		return []byte("{}")
	}
	return b
}

// TestScanMassMentions: objects named @everyone, @here and <@&role> are
// named in the answer without a mention Discord would ping, and every
// message says allowed_mentions.parse is empty.
func TestScanMassMentions(t *testing.T) {
	f := newFakeDiscord(t)
	logger, _ := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, scanEngine(t), nil, logger)
	f.next("PUT", "/api/v9/applications/", 5*time.Second)
	yaml := "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: \"@everyone\"\n  namespace: \"<!channel>\"\n---\n" +
		"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: \"@here\"\n---\napiVersion: x.io/v1\nkind: Widget\nmetadata: {name: \"<@&123456>\"}\n"
	f.dispatch("MESSAGE_CREATE", message("1", "c1", testGuild, "100", "!k8s scan 1.36\n"+yaml, false))
	p := f.next("POST", "/api/v9/channels/", 10*time.Second)
	out := string(p.Body)
	if !strings.Contains(out, "Removed in 1.22") {
		t.Fatalf("not a scan answer: %s", out)
	}
	for _, m := range []string{"@everyone", "@here", "<@&", "<!"} {
		if strings.Contains(out, m) {
			t.Errorf("the answer holds %q: %s", m, out)
		}
	}
	f.checkAllMessagesMuted(t)
}

// TestScanAndAPIRenderWithinLimits: api and scan answers of any size fit
// Discord's limits, in at most MaxMessagesAnswer messages, with what does
// not fit counted.
func TestScanAndAPIRenderWithinLimits(t *testing.T) {
	for _, kind := range []knowledge.Kind{knowledge.KindScan, knowledge.KindAPI} {
		for _, n := range []int{0, 1, 6, 30, 400} {
			a := &knowledge.Answer{Kind: kind, Title: "Scan for Kubernetes 1.36", Text: "many objects: <@123> **bold**", Query: "scan 1.36",
				Sources: []knowledge.SourceRef{{Name: "k8s.io/api v0.37.2 @everyone", AsOf: "2026-10-28"}}}
			for i := range n {
				a.Facts = append(a.Facts, knowledge.Fact{Name: fmt.Sprintf("Removed in 1.%d: g%d.example.io/v1beta1 Kind @here", i%30, i),
					Value: "use g.example.io/v1 Kind · per the guide · 8 objects: " + strings.Repeat("ns/name_with_underscores (document 12), ", 60)})
			}
			for i := range 40 {
				a.Notes = append(a.Notes, fmt.Sprintf("document %d, line %d: a value is missing *here*", i, i))
			}
			msgs := Render(a)
			if len(msgs) == 0 || len(msgs) > MaxMessagesAnswer {
				t.Fatalf("%s with %d facts: %d messages", kind, n, len(msgs))
			}
			all := ""
			for i, m := range msgs {
				if err := CheckMessage(m); err != nil {
					t.Errorf("%s with %d facts, message %d: %v", kind, n, i, err)
				}
				checkMessageInert(t, fmt.Sprintf("%s/%d/%d", kind, n, i), m)
				for _, e := range m.Embeds {
					all += e.Description
				}
			}
			if shown := strings.Count(all, "g.example.io/v1 Kind"); shown < n && !strings.Contains(all, "more*") {
				t.Errorf("%s with %d facts: %d shown, the rest not counted", kind, n, shown)
			}
		}
	}
	// The real engine's api and scan answers.
	ask := question.NewAsker(nil, scanEngine(t))
	for _, q := range []string{"api Ingress", "api CronJob", "api v1", "api batch/v1beta1 in 1.24", "api Nope",
		"scan 1.36\n" + scanYAML, "scan 1.22 1.36\n" + scanYAML} {
		ans := ask.Ask(context.Background(), q, knowledge.Origin{})
		if strings.HasPrefix(q, "scan") && ans.Kind != knowledge.KindScan {
			t.Errorf("%q: %s %s", q, ans.Kind, ans.Text)
		}
		for i, m := range Render(ans) {
			if err := CheckMessage(m); err != nil {
				t.Errorf("%q message %d: %v", q, i, err)
			}
		}
	}
}
