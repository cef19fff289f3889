package slack

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// anyLink is the only <…> sequence an answer may hold: a link the renderer
// built from an http(s) URL.
var anyLink = regexp.MustCompile(`^<https?://[^\s<>|]+\|[^<>]*>$`)

// FuzzSlashCommand sends fuzzed slash-command text through the whole HTTP
// path (signature, form, parser, real engine over bbolt, renderer). Every
// request gets a 200 with JSON that holds no mention and no link but the
// renderer's own, within Slack's limits; text that is not UTF-8 gets a 400.
//
//	go test -run '^$' -fuzz FuzzSlashCommand -fuzztime 60s ./adapters/slack/
func FuzzSlashCommand(f *testing.F) {
	for _, s := range []string{"kep 4639", "1.29 ga --public", "", "help", "search <!channel>", "gate <@U1> &amp;",
		"diff 1.29 1.32", "稳定 1.30", "kep 99999999999999999999", "\x00\xff", "1.29 deprecations —public", "sig node 1.30",
		"<https://evil|innocent>", "kep ４６３９"} {
		f.Add(s)
	}
	eng, _ := realEngine(f)
	a, _ := newHTTPAdapter(f, eng)
	a.log = a.log.Level(3) // errors only: the fuzzer is loud enough
	h := a.Handler()
	f.Fuzz(func(t *testing.T, text string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody(text, testHooksURL)))
		if !utf8.ValidString(text) {
			if rec.Code != 400 && rec.Code != 200 {
				t.Fatalf("invalid UTF-8: status %d", rec.Code)
			}
			return
		}
		if rec.Code != 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
		var v any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		ans, opts := a.slash(context.Background(), slashCommand{Text: text, Channel: "C1"}, "fuzz", func() {})
		if ans == nil {
			t.Fatal("the answer missed the inline budget")
		}
		m := Render(ans, opts)
		if p := CheckLimits(m); p != nil {
			t.Fatalf("over the limits: %v", p)
		}
		for _, s := range messageTexts(t, m) {
			for _, seq := range angle.FindAllString(s, -1) {
				if !anyLink.MatchString(seq) {
					t.Fatalf("text %q holds %q", s, seq)
				}
			}
		}
	})
}

// FuzzEventsEndpoint sends fuzzed, signed bodies to /slack/events with a
// Pauser over a real bbolt store and a subscribed channel: whatever the
// body (broken JSON, a lifecycle event with odd fields, a mention of
// anything), the answer is 200, 400 or 413 and nothing panics.
//
//	go test -run '^$' -fuzz FuzzEventsEndpoint -fuzztime 60s ./adapters/slack/
func FuzzEventsEndpoint(f *testing.F) {
	for _, s := range []string{
		`{"type":"url_verification","challenge":"abc"}`,
		lifecycleEvent("Ev1", "T1", map[string]any{"type": "channel_archive", "channel": "C1"}),
		lifecycleEvent("Ev2", "T1", map[string]any{"type": "tokens_revoked", "tokens": map[string]any{"bot": []string{"U1"}}}),
		lifecycleEvent("Ev3", "T1", map[string]any{"type": "app_uninstalled"}),
		lifecycleEvent("Ev4", "T1", map[string]any{"type": "app_mention", "channel": "C1", "user": "U2", "text": "<@U0> kep 4639"}),
		lifecycleEvent("Ev5", "", map[string]any{"type": "channel_left", "channel": ""}),
		`{"type":"event_callback","event":null}`, `[]`, `{"type":"event_callback","event":{"type":7}}`, "",
	} {
		f.Add(s)
	}
	_, db := subscriptionEngine(f)
	filter, err := digest.ParseFilter(nil)
	if err != nil {
		f.Fatal(err)
	}
	ref := digest.ChannelRef{Platform: Platform, Workspace: "T1", Channel: "C1"}
	if _, err := db.Subscriptions().SaveSubscription(context.Background(), digest.Subscription{ID: ref.ID(), Platform: Platform,
		Workspace: "T1", Channel: "C1", Filter: filter, State: digest.SubscriptionActive, CreatedAt: time.Now()}); err != nil {
		f.Fatal(err)
	}
	a, _ := newHTTPAdapter(f, &fakeAnswerer{}, WithPauser(db.Subscriptions()))
	a.log = a.log.Level(3)
	h := a.Handler()
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, signedRequest(PathEvents, jsonType, testSecret, time.Now(), []byte(body)))
		switch rec.Code {
		case 200, 400, 413:
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}
