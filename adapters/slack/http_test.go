package slack

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge"
)

// newEventsAdapter returns an HTTP-mode adapter with a bot token, posting
// to the fake.
func newEventsAdapter(t *testing.T, f *fakeSlack, ans knowledge.Answerer, opts ...Option) (*Adapter, *logBuffer) {
	t.Helper()
	return newEventsAdapterConfig(t, f, ans, func(*Config) {}, opts...)
}

// newEventsAdapterConfig is newEventsAdapter with the config changed by
// change.
func newEventsAdapterConfig(t *testing.T, f *fakeSlack, ans knowledge.Answerer, change func(*Config), opts ...Option) (*Adapter, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	cfg := Config{BotToken: config.NewSecret(testBotToken), SigningSecrets: []config.Secret{config.NewSecret(testSecret)}, APIURL: f.apiURL()}
	change(&cfg)
	a, err := NewAdapter(cfg, ans, testLogger(logs, testBotToken, testSecret), opts...)
	if err != nil {
		t.Fatal(err)
	}
	runAdapter(t, a) // learns the bot's user ID, waits for background posts at the end
	waitFor(t, "auth.test", func() bool { return a.botUserID() == testBotUser })
	return a, logs
}

func serve(a *Adapter, r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, r)
	return rec
}

// retryDelays are when Slack sends an event's retries after the first
// delivery: at once after a timeout of 3 s, about a minute later, about
// five minutes later.
var retryDelays = []time.Duration{0, 3 * time.Second, 63 * time.Second, 290 * time.Second}

// eventRequest is an Events API delivery of payload signed now, or its
// retry: a new request, signed when Slack sends it, retryDelays[retry]
// after the first (all arrive at once here, still in the window).
func eventRequest(payload string, retry int) *http.Request {
	r := signedRequest(PathEvents, jsonType, testSecret, time.Now().Add(retryDelays[retry]), []byte(payload))
	if retry > 0 {
		r.Header.Set("X-Slack-Retry-Num", strconv.Itoa(retry))
		r.Header.Set("X-Slack-Retry-Reason", "http_timeout")
	}
	return r
}

func TestEventsURLVerification(t *testing.T) {
	a, _ := newHTTPAdapter(t, &fakeAnswerer{})
	body := `{"token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`
	rec := serve(a, eventRequest(body, 0))
	if rec.Code != 200 || rec.Body.String() != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Errorf("url_verification = %d %q", rec.Code, rec.Body.String())
	}
	unsigned := httptest.NewRequest(http.MethodPost, PathEvents, strings.NewReader(body))
	unsigned.Header.Set("Content-Type", jsonType)
	if rec := serve(a, unsigned); rec.Code != 401 || strings.Contains(rec.Body.String(), "3eZb") {
		t.Errorf("unsigned url_verification = %d %q, want 401 without the challenge", rec.Code, rec.Body.String())
	}
	evil := `{"type":"url_verification","challenge":"<script>alert(1)</script>"}`
	if rec := serve(a, eventRequest(evil, 0)); rec.Code != 400 {
		t.Errorf("a challenge with markup = %d, want 400", rec.Code)
	}
}

// TestEventRetriesAnsweredOnce delivers one mention four times (the first
// and Slack's three retries, two of them overlapping) and expects one answer.
func TestEventRetriesAnsweredOnce(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{delay: 20 * time.Millisecond}
	a, _ := newEventsAdapter(t, f, ans)
	payload := mentionPayload("Ev42", "1700000000.000042", "<@"+testBotUser+"> kep 4639")
	var wg sync.WaitGroup
	for retry := range 4 {
		wg.Go(func() {
			if rec := serve(a, eventRequest(payload, retry)); rec.Code != 200 {
				t.Errorf("retry %d: status %d", retry, rec.Code)
			}
		})
	}
	wg.Wait()
	waitFor(t, "the answer", func() bool { return len(f.postedMessages()) >= 1 })
	time.Sleep(100 * time.Millisecond)
	if n := len(f.postedMessages()); n != 1 {
		t.Errorf("%d answers posted for one event, want 1", n)
	}
	if n := len(ans.questions()); n != 1 {
		t.Errorf("the answerer was asked %d times, want 1", n)
	}
}

func TestEventsIgnored(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{}
	a, _ := newEventsAdapter(t, f, ans)
	event := func(id string, ev map[string]any) string {
		b, _ := json.Marshal(map[string]any{"type": "event_callback", "team_id": "T1", "event_id": id, "event": ev})
		return string(b)
	}
	for i, ev := range []map[string]any{
		{"type": "app_mention", "user": "U1", "bot_id": "B9", "text": "<@UBOT> kep 4639", "channel": "C1", "ts": "2.1"}, // another bot
		{"type": "app_mention", "user": testBotUser, "text": "<@UBOT> kep 4639", "channel": "C1", "ts": "2.2"},          // itself
		{"type": "message", "channel_type": "im", "user": testBotUser, "text": "kep 4639", "channel": "D1", "ts": "2.3"},
		{"type": "message", "channel_type": "im", "subtype": "message_changed", "user": "U1", "text": "kep 4639", "channel": "D1", "ts": "2.4"},
		{"type": "message", "channel_type": "channel", "user": "U1", "text": "kep 4639", "channel": "C1", "ts": "2.5"}, // not a DM
		{"type": "reaction_added", "user": "U1", "channel": "C1", "ts": "2.6"},
	} {
		if rec := serve(a, eventRequest(event("EvI"+strconv.Itoa(i), ev), 0)); rec.Code != 200 {
			t.Errorf("event %d: status %d, want 200 (acked, ignored)", i, rec.Code)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(f.postedMessages()); n != 0 {
		t.Errorf("%d answers to events that should be ignored", n)
	}
	if n := len(ans.questions()); n != 0 {
		t.Errorf("asked %d questions from ignored events", n)
	}
}

func TestDirectMessageAnswered(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{}
	a, _ := newEventsAdapter(t, f, ans)
	dm := `{"type":"event_callback","team_id":"T1","event_id":"EvDM","event":{"type":"message","channel_type":"im","user":"U1","text":"search a &amp; b","channel":"D1","ts":"3.1"}}`
	if rec := serve(a, eventRequest(dm, 0)); rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	waitFor(t, "the DM answer", func() bool { return len(f.postedMessages()) == 1 })
	p := f.postedMessages()[0]
	if p.Get("channel") != "D1" || p.Get("thread_ts") != "" {
		t.Errorf("DM answer posted to %q thread %q, want D1 unthreaded", p.Get("channel"), p.Get("thread_ts"))
	}
	if q := ans.questions(); len(q) != 1 || q[0].From.Channel != "D1" || q[0].Words != "a & b" {
		t.Errorf("questions = %+v", q)
	}
}

func TestPageButtonReplacesMessage(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{}
	a, _ := newEventsAdapter(t, f, ans)
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "response_url": f.responseURL("page"),
		"team": map[string]string{"id": "T1"}, "user": map[string]string{"id": "U1", "username": "u"},
		"channel": map[string]string{"id": "C1"},
		"actions": []map[string]string{{"action_id": actionNext, "block_id": pageBlockID, "value": pageValue("1.40 ga", 1, true)}},
	})
	body := []byte(url.Values{"payload": {string(payload)}}.Encode())
	if rec := serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(), body)); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Fatalf("interaction = %d %q, want an empty 200", rec.Code, rec.Body.String())
	}
	waitFor(t, "the page", func() bool { return len(f.responsePosts()) == 1 })
	r := f.responsePosts()[0]
	raw, _ := json.Marshal(r)
	if r["replace_original"] != true || r["response_type"] != InChannel || !strings.Contains(string(raw), "Page 2 of 3") ||
		!strings.Contains(string(raw), "KEP-1012") || strings.Contains(string(raw), "KEP-1011*") {
		t.Errorf("page answer = %s", raw)
	}
	bad := []byte(url.Values{"payload": {`{"type":"block_actions","response_url":"` + f.responseURL("x") + `","actions":[{"action_id":"` + actionNext + `","value":"garbage"}]}`}}.Encode())
	if rec := serve(a, signedRequest(PathInteractions, formType, testSecret, time.Now(), bad)); rec.Code != 200 {
		t.Errorf("a garbage page value = %d, want an acked 200", rec.Code)
	}
}

// TestLateHTTPSlashAnswer: an answer slower than the budget is acked with
// an empty 200 and posted to response_url; a response_url that is not
// Slack's (nor the configured API's) is never posted to.
func TestLateHTTPSlashAnswer(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{delay: 200 * time.Millisecond}
	a, logs := newEventsAdapter(t, f, ans)
	a.budget = 20 * time.Millisecond
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("kep 4639", f.responseURL("late"))))
	if rec.Code != 200 || rec.Body.Len() != 0 {
		t.Fatalf("late slash = %d %q, want an empty 200", rec.Code, rec.Body.String())
	}
	waitFor(t, "the late answer", func() bool { return len(f.responsePosts()) == 1 })

	ssrf := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("kepbot posted to a response_url outside Slack: %s", r.URL)
	}))
	defer ssrf.Close()
	for _, u := range []string{ssrf.URL + "/x", "http://169.254.169.254/latest", "https://user:pw@hooks.slack.com/x", "file:///etc/passwd", ""} {
		rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("kep 4639", u)))
		if rec.Code != 200 {
			t.Errorf("status %d", rec.Code)
		}
	}
	time.Sleep(400 * time.Millisecond)
	if !strings.Contains(logs.String(), "posting to response_url failed") {
		t.Error("a refused response_url is not logged")
	}
}

func TestInternalErrorIsLoggedNotShown(t *testing.T) {
	ans := &fakeAnswerer{err: errors.New("bbolt: page 42 corrupt")}
	a, logs := newHTTPAdapter(t, ans)
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("kep 4639", testHooksURL)))
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "corrupt") || !strings.Contains(rec.Body.String(), "something went wrong") {
		t.Errorf("answer = %d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(logs.String(), "page 42 corrupt") || !strings.Contains(logs.String(), `"level":"error"`) {
		t.Errorf("the cause is not logged at error level:\n%s", logs.String())
	}
}

func TestPanickingAnswererBecomesApology(t *testing.T) {
	a, logs := newHTTPAdapter(t, panicker{})
	rec := serve(a, signedRequest(PathCommands, formType, testSecret, time.Now(), slashBody("1.29", testHooksURL)))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "something went wrong") {
		t.Errorf("answer = %d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(logs.String(), "panicked") {
		t.Error("the panic is not logged")
	}
}

type panicker struct{}

func (panicker) Answer(_ context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	panic("index out of range")
}

func TestSlashTextAndMentions(t *testing.T) {
	for in, want := range map[string]struct {
		q      string
		public bool
	}{
		"kep 4639": {"kep 4639", false}, "kep 4639 --public": {"kep 4639", true}, "1.29 ga —public": {"1.29 ga", true},
		"  ": {"help", false}, "--public": {"help", true}, "search public": {"search public", false},
	} {
		q, pub := slashText(in)
		if q != want.q || pub != want.public {
			t.Errorf("slashText(%q) = %q %v, want %q %v", in, q, pub, want.q, want.public)
		}
	}
	for _, tt := range []struct{ text, bot, want string }{
		{"<@UBOT> kep 4639", "UBOT", "kep 4639"},
		{"<@UBOT|kepbot>   1.29   ga", "UBOT", "1.29 ga"},
		{"hey <@UBOT> kep 1 cc <@U2>", "UBOT", "hey kep 1 cc <@U2>"},
		{"<@UXYZ> kep 4639", "", "kep 4639"},
		{"<@UBOT>", "UBOT", "help"},
		{"<@UBOT> search a &amp; b &lt;c&gt;", "UBOT", "search a & b <c>"},
	} {
		if got := mentionText(tt.text, tt.bot); got != tt.want {
			t.Errorf("mentionText(%q, %q) = %q, want %q", tt.text, tt.bot, got, tt.want)
		}
	}
}
