package discord

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
)

// secretValue is the value of a Secret in the manifests the scan tests
// paste and attach: it must never reach Discord or a log.
const (
	secretValue  = "Zq7-hunter2-DoNotLeak-41d8"
	secretBase64 = "WnE3LWh1bnRlcjItRG9Ob3RMZWFrLTQxZDg="
)

// scanYAML is a manifest stream as people paste it: an Ingress and a
// CronJob removed by 1.36, a Secret, a custom resource, a YAML anchor.
const scanYAML = `apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
  namespace: prod
  labels: &common
    app: web
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

// recordingAnswerer passes questions to the engine and keeps them.
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

// shown is what Discord shows of a message body: its content and the
// titles, descriptions, fields and footers of its embeds, unescaped of
// Discord markdown's backslashes.
func shown(t *testing.T, body []byte) string {
	t.Helper()
	var m struct {
		sentMessage
		Data sentMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	var b strings.Builder
	for _, s := range []sentMessage{m.sentMessage, m.Data} {
		b.WriteString(s.Content + "\n")
		for _, e := range s.Embeds {
			b.WriteString(e.Title + "\n" + e.Description + "\n")
			for _, f := range e.Fields {
				b.WriteString(f.Name + "\n" + f.Value + "\n")
			}
			if e.Footer != nil {
				b.WriteString(e.Footer.Text + "\n")
			}
		}
	}
	return strings.NewReplacer(`\_`, "_", `\*`, "*", `\<`, "<", `\>`, ">", `\|`, "|", `\~`, "~", `\[`, "[", `\]`, "]").Replace(b.String())
}

// withAttachments is message() with files attached, as Discord sends them.
func withAttachments(m map[string]any, atts ...map[string]any) map[string]any {
	m["attachments"] = atts
	return m
}

// attachment describes a file on the fake's CDN.
func attachment(id, url string, size int, contentType string) map[string]any {
	return map[string]any{"id": id, "filename": "deploy.yaml", "size": size, "url": url,
		"proxy_url": strings.Replace(url, "/attachments/", "/proxy/", 1), "content_type": contentType}
}

// scanInteraction is /k8s scan target:… [from:…] file:<att>, with the
// file in the interaction's resolved data as Discord sends it.
func scanInteraction(id, target, from string, att map[string]any) map[string]any {
	opts := []map[string]any{{"name": "target", "type": 3, "value": target}}
	resolved := map[string]any{}
	if att != nil {
		opts = append(opts, map[string]any{"name": "file", "type": 11, "value": att["id"]})
		resolved["attachments"] = map[string]any{att["id"].(string): att}
	}
	if from != "" {
		opts = append(opts, map[string]any{"name": "from", "type": 3, "value": from})
	}
	p := interactionPayload(id, discordgo.InteractionApplicationCommand, discordgo.ApplicationCommandInteractionData{Name: CommandName})
	p["member"] = map[string]any{"user": map[string]any{"id": "user-" + id, "username": "alice"}} // each under their own rate
	p["data"] = map[string]any{"id": "5", "name": CommandName, "type": 1, "resolved": resolved,
		"options": []map[string]any{{"name": "scan", "type": 1, "options": opts}}}
	return p
}

func serveText(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/yaml; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
}

// TestGatewayScan: `!k8s scan 1.36` with the YAML in a code block, a
// mention with it in plain text and one with it attached, and a DM with
// an attachment, are each answered with the findings; the engine gets
// exactly what was pasted or attached, and the CDN is asked without a
// token.
func TestGatewayScan(t *testing.T) {
	f := newFakeDiscord(t)
	logger, logs := testLogger(t)
	ans := &recordingAnswerer{inner: scanEngine(t)}
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, ans, nil, logger)
	f.next("PUT", "/api/v9/applications/", 5*time.Second)
	f.serveAttachment("ok.yaml", serveText(scanYAML))

	f.dispatch("MESSAGE_CREATE", message("1", "c1", testGuild, "100", "!k8s scan 1.36\n```yaml\n"+scanYAML+"```", false))
	f.dispatch("MESSAGE_CREATE", message("2", "c2", testGuild, "101", "<@"+botUserID+"> scan 1.36\n"+scanYAML, false))
	f.dispatch("MESSAGE_CREATE", message("3", "c3", testGuild, "102", "!k8s scan 1.36 ```"+scanYAML+"```", false))
	f.dispatch("MESSAGE_CREATE", withAttachments(message("4", "c4", testGuild, "103", "<@"+botUserID+"> scan 1.36", false),
		attachment("a4", f.attachmentURL("ok.yaml"), len(scanYAML), "text/yaml")))
	f.dispatch("MESSAGE_CREATE", withAttachments(message("5", "dm5", "", "104", "scan 1.36", false),
		attachment("a5", f.attachmentURL("ok.yaml"), len(scanYAML), "")))
	got := map[string]string{}
	for len(got) < 5 {
		p := f.next("POST", "/api/v9/channels/", 10*time.Second)
		got[strings.Split(p.Path, "/")[4]] += shown(t, p.Body)
	}
	for ch, out := range got {
		checkFindings(t, ch, out)
	}
	for _, q := range ans.questions() {
		if q.Kind != knowledge.AskScan || strings.TrimSpace(string(q.Manifest)) != strings.TrimSpace(scanYAML) {
			t.Errorf("the engine got %s with manifest:\n%q\nwant exactly what was pasted", q.Canonical(), q.Manifest)
		}
	}
	for _, r := range f.all() {
		if strings.HasPrefix(r.Path, "/attachments/") && r.Auth != "" {
			t.Errorf("the CDN was sent Authorization %q", r.Auth)
		}
	}
	if strings.Contains(logs.String(), attachmentSignature) || strings.Contains(logs.String(), "/attachments/") {
		t.Error("the log holds an attachment URL")
	}
	f.checkAllMessagesMuted(t)
}

// TestInteractionScan: /k8s scan with a file defers privately (type 5,
// ephemeral), downloads the file and edits the answer in; without a file,
// with one too large or not on Discord's CDN, it answers at once,
// privately, without downloading anything.
func TestInteractionScan(t *testing.T) {
	f := newFakeDiscord(t)
	f.serveAttachment("ok.yaml", serveText(scanYAML))
	ans := &recordingAnswerer{inner: scanEngine(t)}
	a, key, mux := httpAdapter(t, ans, nil, f.srv.URL)

	do := func(p map[string]any) (int, string) {
		b, _ := json.Marshal(p)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, signed(key, now, b))
		return w.Code, w.Body.String()
	}
	code, body := do(scanInteraction("s1", "1.36", "1.32", attachment("a1", f.attachmentURL("ok.yaml"), len(scanYAML), "text/yaml")))
	if code != 200 || !strings.HasPrefix(body, `{"type":5`) || !strings.Contains(body, `"flags":64`) {
		t.Fatalf("scan with a file = %d %s, want an ephemeral type 5 deferral", code, body)
	}
	edit := f.next("PATCH", "/api/v9/webhooks/"+testAppID+"/"+testInteractionToken+"/messages/@original", 10*time.Second)
	out := shown(t, edit.Body)
	checkFindings(t, "the edited answer", out)
	if !strings.Contains(out, "Scan for Kubernetes 1.32 → 1.36") {
		t.Errorf("the answer does not scan from 1.32: %s", out)
	}
	a.wg.Wait()
	if q := ans.questions(); len(q) != 1 || string(q[0].Manifest) != scanYAML || q[0].Version.String() != "1.32" {
		t.Errorf("the engine got %+v", q)
	}

	for _, tc := range []struct {
		name string
		att  map[string]any
		want string
	}{
		{"no file", nil, "Attach your manifests in the file option"},
		{"too large", attachment("a2", f.attachmentURL("ok.yaml"), 2<<20, "text/yaml"), "That file is 2 MiB; I scan files of up to 1 MiB"},
		{"image", attachment("a3", f.attachmentURL("ok.yaml"), 100, "image/png"), "That file is not text"},
		{"other host", attachment("a4", "https://evil.example/attachments/x.yaml?ex=1&is=2&hm=3", 100, "text/yaml"), "only download attachments from Discord's own CDN"},
	} {
		code, body := do(scanInteraction("s-"+tc.name, "1.36", "", tc.att))
		var c struct {
			Type int         `json:"type"`
			Data sentMessage `json:"data"`
		}
		_ = json.Unmarshal([]byte(body), &c)
		if code != 200 || c.Type != 4 || !strings.Contains(body, `"flags":64`) || !strings.Contains(shown(t, []byte(body)), tc.want) {
			t.Errorf("%s: %d %s; want an ephemeral reply saying %q", tc.name, code, body, tc.want)
		}
	}
	downloads := 0
	for _, r := range f.all() {
		if strings.HasPrefix(r.Path, "/attachments/") {
			downloads++
		}
	}
	if downloads != 1 {
		t.Errorf("%d downloads, want 1: a refused file was fetched", downloads)
	}
	// A release it does not know: refused at once.
	_, body = do(scanInteraction("s-bad", "9.99", "", attachment("a9", f.attachmentURL("ok.yaml"), len(scanYAML), "text/yaml")))
	if !strings.HasPrefix(body, `{"type":5`) {
		t.Fatalf("scan 9.99: %s", body)
	}
	edit = f.next("PATCH", "/api/v9/webhooks/", 10*time.Second)
	if !strings.Contains(shown(t, edit.Body), "I don't know Kubernetes 9.99") {
		t.Errorf("scan 9.99 answered %s", edit.Body)
	}
	a.wg.Wait()
	f.checkAllMessagesMuted(t)
}

// TestInteractionScanOverGateway: the same over the gateway, with the
// deferral sent to the callback endpoint.
func TestInteractionScanOverGateway(t *testing.T) {
	f := newFakeDiscord(t)
	f.serveAttachment("ok.yaml", serveText(scanYAML))
	logger, _ := testLogger(t)
	runAdapter(t, f, Config{GatewayURL: f.gatewayURL()}, scanEngine(t), nil, logger)
	f.next("PUT", "/api/v9/applications/", 5*time.Second)
	f.dispatch("INTERACTION_CREATE", scanInteraction("g1", "1.36", "", attachment("ga", f.attachmentURL("ok.yaml"), len(scanYAML), "text/yaml")))
	cb := f.next("POST", "/api/v9/interactions/g1/", 5*time.Second)
	if !strings.HasPrefix(string(cb.Body), `{"type":5`) || !strings.Contains(string(cb.Body), `"flags":64`) {
		t.Errorf("callback = %s, want an ephemeral deferral", cb.Body)
	}
	edit := f.next("PATCH", "/api/v9/webhooks/", 10*time.Second)
	checkFindings(t, "the gateway scan", shown(t, edit.Body))
}

// TestScanCommandText: /k8s scan becomes scan [FROM] TARGET.
func TestScanCommandText(t *testing.T) {
	for _, tc := range []struct {
		data discordgo.ApplicationCommandInteractionData
		want string
	}{
		{invocation("scan", "target", "1.36"), "scan 1.36"},
		{invocation("scan", "target", "1.36", "from", "1.32"), "scan 1.32 1.36"},
	} {
		if got, err := commandText(tc.data); err != nil || got != tc.want {
			t.Errorf("commandText = %q, %v; want %q", got, err, tc.want)
		}
	}
	c := choices(NewStaticCatalog(nil, []knowledge.Version{knowledge.MustVersion("1.36"), knowledge.MustVersion("1.35")}, nil),
		func() discordgo.ApplicationCommandInteractionData {
			d := invocation("scan", "target", "1.3")
			d.Options[0].Options[0].Focused = true
			return d
		}())
	if len(c) != 2 {
		t.Errorf("scan target autocomplete offers %d releases, want 2", len(c))
	}

}
