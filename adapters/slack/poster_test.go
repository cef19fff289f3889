package slack

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack/slacktest"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// fakePostAPI is a Slack Web API whose chat.postMessage answers as the
// test says, and counts and keeps every call.
type fakePostAPI struct {
	srv   *slacktest.Server
	mu    sync.Mutex
	posts []url.Values
	reply func(w http.ResponseWriter) // nil: ok with a ts
}

func newFakePostAPI(t *testing.T) *fakePostAPI {
	t.Helper()
	f := &fakePostAPI{}
	f.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/chat.postMessage", func(w http.ResponseWriter, r *http.Request) {
			_ = r.ParseForm()
			f.mu.Lock()
			f.posts = append(f.posts, r.PostForm)
			reply := f.reply
			f.mu.Unlock()
			if reply != nil {
				reply(w)
				return
			}
			_, _ = io.WriteString(w, `{"ok":true,"channel":"`+r.PostForm.Get("channel")+`","ts":"1700000000.000200"}`)
		})
	})
	f.srv.Start()
	t.Cleanup(f.srv.Stop)
	return f
}

func (f *fakePostAPI) answer(reply func(w http.ResponseWriter)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reply, f.posts = reply, nil
}

func (f *fakePostAPI) calls() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.posts...)
}

// newTestPoster returns the Poster of an HTTP-mode adapter with a bot token
// against f, its client timing out after timeout.
func newTestPoster(t *testing.T, f *fakePostAPI, timeout time.Duration) *Poster {
	t.Helper()
	cfg := Config{BotToken: config.NewSecret(testBotToken), SigningSecrets: []config.Secret{config.NewSecret(testSecret)},
		APIURL: f.srv.GetAPIURL(), HTTPClient: &http.Client{Timeout: timeout}}
	a, err := NewAdapter(cfg, &fakeAnswerer{}, testLogger(&logBuffer{}, testBotToken, testSecret))
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Poster()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func digestAnswer(n int) *knowledge.Answer {
	a := &knowledge.Answer{Kind: knowledge.KindList, Title: "Deprecation digest", Text: "New since this channel's last digest.", Query: "subscriptions",
		Facts: []knowledge.Fact{{Name: "1.43", Value: strconv.Itoa(n) + " removals"}}, Notes: []string{"Stop these digests with unsubscribe deprecations."}}
	for i := range n {
		a.Notices = append(a.Notices, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.43"),
			Title: "Widget v1beta" + strconv.Itoa(i) + " <!channel> & co", KEP: 9000 + i, Text: strings.Repeat("words ", 60),
			API: &knowledge.APIChange{GroupVersion: "widgets.k8s.io/v1beta" + strconv.Itoa(i), ReplacedBy: "widgets.k8s.io/v1"}})
	}
	return a
}

func TestPosterPostsOnceAndReturnsTS(t *testing.T) {
	f := newFakePostAPI(t)
	p := newTestPoster(t, f, 5*time.Second)
	ts, err := p.Post(context.Background(), "C0123", digestAnswer(3), "nonce-123456789012345678")
	if err != nil || ts != "1700000000.000200" {
		t.Fatalf("Post = %q, %v; want the ts", ts, err)
	}
	calls := f.calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	c := calls[0]
	if c.Get("channel") != "C0123" || c.Get("unfurl_links") != "false" || c.Get("unfurl_media") != "false" {
		t.Errorf("channel %q unfurl_links %q unfurl_media %q", c.Get("channel"), c.Get("unfurl_links"), c.Get("unfurl_media"))
	}
	if c.Has("link_names") || c.Has("parse") {
		t.Errorf("link_names %q parse %q set", c.Get("link_names"), c.Get("parse"))
	}
	if strings.Contains(c.Get("text"), "<!channel>") || strings.Contains(c.Get("blocks"), "<!channel>") {
		t.Error("a notice's title became a mass mention")
	}
	var blocks []map[string]any
	if err := json.Unmarshal([]byte(c.Get("blocks")), &blocks); err != nil || len(blocks) == 0 {
		t.Errorf("blocks %q: %v", c.Get("blocks"), err)
	}
	var meta struct {
		EventType    string         `json:"event_type"`
		EventPayload map[string]any `json:"event_payload"`
	}
	if err := json.Unmarshal([]byte(c.Get("metadata")), &meta); err != nil || meta.EventType != digestEventType || meta.EventPayload["nonce"] != "nonce-123456789012345678" {
		t.Errorf("metadata %q (%v), want the nonce", c.Get("metadata"), err)
	}
}

func TestPosterErrorsTellTheWorkerWhatHappened(t *testing.T) {
	f := newFakePostAPI(t)
	p := newTestPoster(t, f, 5*time.Second)
	slackError := func(code string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) { _, _ = io.WriteString(w, `{"ok":false,"error":"`+code+`"}`) }
	}
	status := func(code int, retryAfter string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(code)
			_, _ = io.WriteString(w, "<html>busy</html>")
		}
	}
	tests := []struct {
		name       string
		reply      func(w http.ResponseWriter)
		terminal   string        // "" when not terminal
		rateLimit  bool          // a delivery.RateLimited
		retryAfter time.Duration // its wait
		unposted   bool          // a delivery.Unposted: nothing was posted
	}{
		{"channel_not_found", slackError("channel_not_found"), "channel_not_found", false, 0, false},
		{"not_in_channel", slackError("not_in_channel"), "not_in_channel", false, 0, false},
		{"is_archived", slackError("is_archived"), "is_archived", false, 0, false},
		{"account_inactive", slackError("account_inactive"), "account_inactive", false, 0, false},
		{"token_revoked", slackError("token_revoked"), "token_revoked", false, 0, false},
		{"fatal_error is ambiguous", slackError("fatal_error"), "", false, 0, false},
		{"another Slack error posted nothing", slackError("msg_too_long"), "", false, 0, true},
		{"429 with Retry-After", status(429, "7"), "", true, 7 * time.Second, false},
		{"429 with a fraction", status(429, "1.2"), "", true, 2 * time.Second, false},
		{"429 with garbage", status(429, "soon"), "", true, 0, false},
		{"429 without Retry-After", status(429, ""), "", true, 0, false},
		{"400 posted nothing", status(400, ""), "", false, 0, true},
		{"500", status(500, ""), "", false, 0, false},
		{"503", status(503, "3"), "", false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.answer(tt.reply)
			ts, err := p.Post(context.Background(), "C0123", digestAnswer(1), "n1")
			if err == nil || ts != "" {
				t.Fatalf("Post = %q, %v; want an error", ts, err)
			}
			if n := len(f.calls()); n != 1 {
				t.Errorf("%d calls to chat.postMessage, want exactly 1: the Poster never retries", n)
			}
			var term delivery.Terminal
			gotTerm := ""
			if errors.As(err, &term) {
				if r, ok := term.Terminal(); ok {
					gotTerm = r
				}
			}
			if gotTerm != tt.terminal {
				t.Errorf("terminal %q, want %q (err %v)", gotTerm, tt.terminal, err)
			}
			var u delivery.Unposted
			if got := errors.As(err, &u) && u.Unposted(); got != tt.unposted {
				t.Errorf("unposted %v, want %v (err %v)", got, tt.unposted, err)
			}
			var rl delivery.RateLimited
			if got := errors.As(err, &rl); got != tt.rateLimit {
				t.Fatalf("rate limited %v, want %v (err %v)", got, tt.rateLimit, err)
			}
			if tt.rateLimit {
				if rl.RetryAfter() != tt.retryAfter {
					t.Errorf("RetryAfter %v, want %v", rl.RetryAfter(), tt.retryAfter)
				}
				var sc delivery.Scoped
				if !errors.As(err, &sc) || sc.RetryScope() != delivery.ScopeChannel {
					t.Errorf("scope: want ScopeChannel")
				}
			}
			assertNoSecrets(t, "error", err.Error())
			if strings.Contains(err.Error(), "127.0.0.1") {
				t.Errorf("error %q names the URL", err)
			}
		})
	}
}

func TestPosterTimeoutIsATimeoutAndNotRetried(t *testing.T) {
	f := newFakePostAPI(t)
	p := newTestPoster(t, f, 100*time.Millisecond)
	release := make(chan struct{})
	defer close(release)
	f.answer(func(w http.ResponseWriter) {
		select {
		case <-release:
		case <-time.After(2 * time.Second):
		}
	})
	_, err := p.Post(context.Background(), "C0123", digestAnswer(1), "n1")
	var ne net.Error
	if err == nil || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err %v, want a timeout the worker can tell", err)
	}
	if n := len(f.calls()); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestPosterRefusesWhatIsNoChannel(t *testing.T) {
	f := newFakePostAPI(t)
	p := newTestPoster(t, f, time.Second)
	if _, err := p.Post(context.Background(), "C01/../x", digestAnswer(1), "n"); err == nil {
		t.Error("a path as channel was posted")
	}
	if _, err := p.Post(context.Background(), "C0123", nil, "n"); err == nil {
		t.Error("a nil answer was posted")
	}
	if n := len(f.calls()); n != 0 {
		t.Errorf("%d calls, want none", n)
	}
}

func TestPosterNeedsABotToken(t *testing.T) {
	a, _ := newHTTPAdapter(t, &fakeAnswerer{})
	p, err := a.Poster()
	if p != nil || err == nil || !strings.Contains(err.Error(), "SLACK_BOT_TOKEN") {
		t.Errorf("Poster() = %v, %v; want an error naming SLACK_BOT_TOKEN", p, err)
	}
}

// TestPosterFitsAndSplitDigestsFit: a small digest fits whole; a huge one
// does not, and digest.SplitAnswer cuts it into parts that each fit,
// draw every notice once, and are within Slack's limits.
func TestPosterFitsAndSplitDigestsFit(t *testing.T) {
	p := &Poster{}
	small, huge := digestAnswer(3), digestAnswer(400)
	if !p.Fits(small) {
		m, _ := renderPost(small)
		t.Errorf("a 3-notice digest does not fit: %v", CheckLimits(m))
	}
	if p.Fits(huge) {
		t.Error("a 400-notice digest fits one message")
	}
	parts := digest.SplitAnswer(huge, p.Fits)
	if len(parts) < 2 {
		t.Fatalf("%d parts", len(parts))
	}
	notices := 0
	for i, part := range parts {
		if !p.Fits(part) {
			t.Errorf("part %d does not fit", i+1)
		}
		m, _ := renderPost(part)
		if lim := CheckLimits(m); lim != nil {
			t.Errorf("part %d: %v", i+1, lim)
		}
		js := string(m.BlocksJSON())
		notices += strings.Count(js, "*Removed* in 1.43")
		if strings.Contains(js, "more\"") && strings.Contains(js, "… and ") {
			t.Errorf("part %d left lines out", i+1)
		}
	}
	if notices != len(huge.Notices) {
		t.Errorf("the parts draw %d notices, want %d", notices, len(huge.Notices))
	}
}
