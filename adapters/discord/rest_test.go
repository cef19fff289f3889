package discord

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// restAgainst returns a REST client for the fake, as the adapter makes it.
func restAgainst(t *testing.T, f *fakeDiscord) (*Adapter, *rest) {
	t.Helper()
	logger, _ := testLogger(t)
	a, err := NewAdapter(Config{BotToken: NewSecret(testToken), APIURL: f.srv.URL}, &answerFunc{}, nil, logger)
	if err != nil {
		t.Fatal(err)
	}
	return a, a.rest
}

func count(f *fakeDiscord, method, path string) int {
	n := 0
	for _, r := range f.all() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

var hello = Message{Content: "hello"}

func TestRESTRetriesRateLimitsBounded(t *testing.T) {
	tests := []struct {
		name       string
		failures   int    // 429s before success (-1: always)
		retryAfter string // seconds
		wantErr    bool
		wantCalls  int
	}{
		{"two 429s then success", 2, "0.05", false, 3},
		{"always 429", -1, "0.05", true, maxAttempts},
		{"retry_after too long", -1, "60", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeDiscord(t)
			a, r := restAgainst(t, f)
			var n atomic.Int64
			f.setOverride(func(req *http.Request) (int, string, bool) {
				if tt.failures >= 0 && n.Add(1) > int64(tt.failures) {
					return 0, "", false
				}
				return 429, `{"message":"You are being rate limited.","retry_after":` + tt.retryAfter + `,"global":false}`, true
			})
			start := time.Now()
			err := r.sendChannel(context.Background(), "c1", hello)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			var ae *APIError
			if tt.wantErr && (!errors.As(err, &ae) || ae.Status != 429) {
				t.Errorf("err = %#v, want an *APIError with status 429", err)
			}
			if got := count(f, "POST", "/api/v9/channels/c1/messages"); got != tt.wantCalls {
				t.Errorf("%d requests, want %d", got, tt.wantCalls)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
			if a.InvalidRequests() != count(f, "POST", "/api/v9/channels/c1/messages")-boolInt(!tt.wantErr) {
				t.Errorf("invalid requests counted %d", a.InvalidRequests())
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestRESTStopsWaitingWhenContextEnds(t *testing.T) {
	f := newFakeDiscord(t)
	_, r := restAgainst(t, f)
	f.setOverride(func(*http.Request) (int, string, bool) {
		return 429, `{"message":"slow down","retry_after":5}`, true
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := r.sendChannel(ctx, "c1", hello); err == nil {
		t.Fatal("no error")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("returned after %s, not when the context ended", d)
	}
}

// TestRESTRemembersRefusedChannels makes one failing request per refused
// channel, then none until the refusal expires.
func TestRESTRemembersRefusedChannels(t *testing.T) {
	f := newFakeDiscord(t)
	a, r := restAgainst(t, f)
	clock := time.Now()
	a.now = func() time.Time { return clock }
	refusals := map[string]string{
		"no-access": `{"message":"Missing Access","code":50001}`,
		"no-perms":  `{"message":"Missing Permissions","code":50013}`,
		"gone":      `{"message":"Unknown Channel","code":10003}`,
	}
	f.setOverride(func(req *http.Request) (int, string, bool) {
		for ch, body := range refusals {
			if strings.Contains(req.URL.Path, "/"+ch+"/") {
				if ch == "gone" {
					return 404, body, true
				}
				return 403, body, true
			}
		}
		return 0, "", false
	})
	for ch := range refusals {
		for i := 0; i < 3; i++ {
			err := r.sendChannel(context.Background(), ch, hello)
			if i > 0 && !errors.Is(err, errRefused) {
				t.Errorf("%s attempt %d: err = %v, want errRefused", ch, i, err)
			}
		}
		if got := count(f, "POST", "/api/v9/channels/"+ch+"/messages"); got != 1 {
			t.Errorf("%s: %d requests, want 1", ch, got)
		}
	}
	if err := r.sendChannel(context.Background(), "fine", hello); err != nil {
		t.Errorf("another channel: %v", err)
	}
	if got := a.InvalidRequests(); got != 2 { // the two 403s; a 404 is not invalid
		t.Errorf("invalid requests = %d, want 2", got)
	}
	clock = clock.Add(refuseFor + time.Minute)
	r.sendChannel(context.Background(), "no-access", hello)
	if got := count(f, "POST", "/api/v9/channels/no-access/messages"); got != 2 {
		t.Errorf("after the refusal expired: %d requests, want 2", got)
	}
}

func TestRESTStopsPastInvalidBudget(t *testing.T) {
	f := newFakeDiscord(t)
	a, r := restAgainst(t, f)
	for i := 0; i < InvalidLimit; i++ {
		a.invalid.add(a.clock())
	}
	if err := r.sendChannel(context.Background(), "c1", hello); !errors.Is(err, errBudget) {
		t.Errorf("err = %v, want errBudget", err)
	}
	if n := len(f.all()); n != 0 {
		t.Errorf("%d requests made past the budget", n)
	}
}

func TestRESTServerErrors(t *testing.T) {
	f := newFakeDiscord(t)
	_, r := restAgainst(t, f)
	f.setOverride(func(*http.Request) (int, string, bool) { return 503, `{"message":"unavailable","code":0}`, true })
	if err := r.sendChannel(context.Background(), "c1", hello); err == nil {
		t.Error("post after 503: no error")
	}
	if got := count(f, "POST", "/api/v9/channels/c1/messages"); got != 1 {
		t.Errorf("a message post was retried after a 5xx (%d requests): it may be a duplicate", got)
	}
	if err := r.register(context.Background(), testAppID, "", Commands()); err == nil {
		t.Error("register after 503: no error")
	}
	if got := count(f, "PUT", "/api/v9/applications/"+testAppID+"/commands"); got != 2 {
		t.Errorf("bulk overwrite made %d requests after 5xx, want 2 (one retry)", got)
	}
}

// TestRESTErrorsHideTokens fails webhook calls, whose URLs hold the
// interaction token, and checks that no error text carries it.
func TestRESTErrorsHideTokens(t *testing.T) {
	f := newFakeDiscord(t)
	_, r := restAgainst(t, f)
	i := &discordgo.Interaction{ID: "1", AppID: testAppID, Token: testInteractionToken}
	f.setOverride(func(*http.Request) (int, string, bool) {
		return 429, `{"message":"slow","retry_after":60}`, true
	})
	errs := []error{r.followup(context.Background(), i, hello), r.editOriginal(context.Background(), i, hello),
		r.respond(context.Background(), i, pong())}
	f.setOverride(nil)
	f.srv.Close() // a transport error names the URL
	errs = append(errs, r.followup(context.Background(), i, hello))
	for _, err := range errs {
		if err == nil {
			t.Fatal("no error")
		}
		if strings.Contains(err.Error(), testInteractionToken) || strings.Contains(err.Error(), "secret-part") {
			t.Errorf("error text carries the interaction token: %v", err)
		}
	}
}
