package discord

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// testNonce is 24 hex characters, as delivery.Delivery.Nonce makes them.
const testNonce = "0123456789abcdef01234567"

// posterAgainst returns the adapter and its digest poster for the fake.
func posterAgainst(t *testing.T, f *fakeDiscord) (*Adapter, *Poster) {
	t.Helper()
	a, _ := restAgainst(t, f)
	p, err := a.Poster()
	if err != nil {
		t.Fatal(err)
	}
	return a, p
}

func digestAnswer() *knowledge.Answer {
	return digest.RenderDigest(testDigest(), digest.FormatCompact)
}

// TestPosterPostsOnceWithNonce posts a digest: the body carries the nonce,
// enforce_nonce and allowed_mentions.parse []; Post returns the message ID.
// A resend with the same nonce (after a crash) gets the first message back
// and Discord makes no second one; another nonce makes another message.
func TestPosterPostsOnceWithNonce(t *testing.T) {
	f := newFakeDiscord(t)
	_, p := posterAgainst(t, f)
	const channel = "111111111111111111"
	id, err := p.Post(context.Background(), channel, digestAnswer(), testNonce)
	if err != nil || id == "" {
		t.Fatalf("Post = %q, %v", id, err)
	}
	reqs := f.all()
	if len(reqs) != 1 || reqs[0].Method != http.MethodPost || reqs[0].Path != "/api/v9/channels/"+channel+"/messages" {
		t.Fatalf("requests = %+v, want one POST to the channel's messages", reqs)
	}
	var body struct {
		Nonce        *string          `json:"nonce"`
		EnforceNonce *bool            `json:"enforce_nonce"`
		Embeds       []map[string]any `json:"embeds"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Nonce == nil || *body.Nonce != testNonce || body.EnforceNonce == nil || !*body.EnforceNonce {
		t.Errorf("body lacks nonce %q with enforce_nonce true: %s", testNonce, reqs[0].Body)
	}
	if len(body.Embeds) == 0 || body.Embeds[0]["title"] != testDigest().Title {
		t.Errorf("body does not hold the digest: %s", reqs[0].Body)
	}
	if reqs[0].Auth != "Bot "+testToken {
		t.Errorf("authorization = %q", reqs[0].Auth)
	}
	f.checkAllMessagesMuted(t)

	again, err := p.Post(context.Background(), channel, digestAnswer(), testNonce)
	if err != nil || again != id {
		t.Errorf("resend with the same nonce = %q, %v; want the first message %q", again, err, id)
	}
	if n := f.messagesMade(); n != 1 {
		t.Errorf("Discord made %d messages for one nonce, want 1", n)
	}
	other, err := p.Post(context.Background(), channel, digestAnswer(), "fedcba9876543210fedcba98")
	if err != nil || other == id {
		t.Errorf("another nonce = %q, %v; want a new message", other, err)
	}
	if !p.Idempotent() {
		t.Error("Idempotent() = false")
	}
}

// TestPosterRateLimited answers 429 in each form Discord uses: Post makes
// one request, never waits, and says how long to wait and for what.
func TestPosterRateLimited(t *testing.T) {
	tests := []struct {
		name    string
		headers http.Header
		body    string
		after   time.Duration
		scope   delivery.Scope
	}{
		{"route", nil, `{"message":"You are being rate limited.","retry_after":2.5,"global":false}`, 2500 * time.Millisecond, delivery.ScopeChannel},
		{"global in body", nil, `{"message":"You are being rate limited.","retry_after":1,"global":true}`, time.Second, delivery.ScopePlatform},
		{"global header", http.Header{"X-Ratelimit-Global": {"true"}, "X-Ratelimit-Scope": {"global"}}, `{"message":"slow","retry_after":0.5}`, 500 * time.Millisecond, delivery.ScopePlatform},
		{"no retry_after", http.Header{"Retry-After": {"3"}}, `{"message":"slow","global":false}`, 3 * time.Second, delivery.ScopeChannel},
		{"not Discord's JSON", http.Header{"Retry-After": {"7"}}, `<html>error 1015</html>`, 7 * time.Second, delivery.ScopePlatform},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeDiscord(t)
			a, p := posterAgainst(t, f)
			f.setHeaders(tt.headers)
			f.setOverride(func(*http.Request) (int, string, bool) { return http.StatusTooManyRequests, tt.body, true })
			start := time.Now()
			_, err := p.Post(context.Background(), "111111111111111111", digestAnswer(), testNonce)
			if took := time.Since(start); took > time.Second {
				t.Errorf("Post took %s: it waited", took)
			}
			var rl delivery.RateLimited
			if !errors.As(err, &rl) {
				t.Fatalf("err = %v, want RateLimited", err)
			}
			if rl.RetryAfter() != tt.after {
				t.Errorf("RetryAfter = %s, want %s", rl.RetryAfter(), tt.after)
			}
			var sc delivery.Scoped
			if !errors.As(err, &sc) || sc.RetryScope() != tt.scope {
				t.Errorf("scope = %v, want %v", sc, tt.scope)
			}
			var term delivery.Terminal
			if errors.As(err, &term) {
				t.Errorf("a 429 is terminal")
			}
			if n := len(f.all()); n != 1 {
				t.Errorf("%d requests, want 1 (no retry)", n)
			}
			if a.InvalidRequests() != 1 {
				t.Errorf("invalid requests = %d, want 1", a.InvalidRequests())
			}
		})
	}
}

// TestPosterTerminal answers each refusal: Terminal with Discord's code;
// the next post to the channel fails the same way without a request.
func TestPosterTerminal(t *testing.T) {
	tests := []struct {
		status int
		body   string
		code   string
	}{
		{403, `{"message":"Missing Permissions","code":50013}`, "50013"},
		{403, `{"message":"Missing Access","code":50001}`, "50001"},
		{404, `{"message":"Unknown Channel","code":10003}`, "10003"},
		{404, `{"message":"Unknown Guild","code":10004}`, "10004"},
		{403, `{"message":"Forbidden"}`, "50013"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			f := newFakeDiscord(t)
			_, p := posterAgainst(t, f)
			f.setOverride(func(*http.Request) (int, string, bool) { return tt.status, tt.body, true })
			for i := range 2 {
				_, err := p.Post(context.Background(), "222222222222222222", digestAnswer(), testNonce)
				var term delivery.Terminal
				if !errors.As(err, &term) {
					t.Fatalf("post %d: err = %v, want Terminal", i, err)
				}
				if reason, ok := term.Terminal(); !ok || reason != tt.code {
					t.Errorf("post %d: Terminal() = %q, %v; want %q", i, reason, ok, tt.code)
				}
				var rl delivery.RateLimited
				if errors.As(err, &rl) {
					t.Errorf("post %d: a refusal is RateLimited", i)
				}
			}
			if n := len(f.all()); n != 1 {
				t.Errorf("%d requests, want 1: a refused channel is not asked again within the hour", n)
			}
		})
	}
}

// TestPosterServerErrorIsOrdinary fails with 5xx: an ordinary error after
// one request (Discord may have made the message); the worker's retry with
// the same nonce then succeeds.
func TestPosterServerErrorIsOrdinary(t *testing.T) {
	for _, status := range []int{500, 502, 503} {
		f := newFakeDiscord(t)
		_, p := posterAgainst(t, f)
		f.setOverride(func(*http.Request) (int, string, bool) { return status, `{"message":"oops","code":0}`, true })
		_, err := p.Post(context.Background(), "333333333333333333", digestAnswer(), testNonce)
		var rl delivery.RateLimited
		var term delivery.Terminal
		if err == nil || errors.As(err, &rl) || errors.As(err, &term) {
			t.Errorf("HTTP %d: err = %v, want an ordinary error", status, err)
		}
		if n := len(f.all()); n != 1 {
			t.Errorf("HTTP %d: %d requests, want 1", status, n)
		}
		f.setOverride(nil)
		if id, err := p.Post(context.Background(), "333333333333333333", digestAnswer(), testNonce); err != nil || id == "" {
			t.Errorf("HTTP %d, then retry: %q, %v", status, id, err)
		}
	}
}

// TestPosterStopsPastInvalidBudget spends the invalid-request budget: Post
// fails RateLimited for the whole platform until the budget frees, and
// asks Discord nothing.
func TestPosterStopsPastInvalidBudget(t *testing.T) {
	f := newFakeDiscord(t)
	a, p := posterAgainst(t, f)
	clock := time.Unix(1_800_000_000, 0) // on a minute's start
	a.now = func() time.Time { return clock }
	for i := 0; i < InvalidLimit; i++ {
		a.invalid.add(clock)
	}
	clock = clock.Add(90 * time.Second)
	_, err := p.Post(context.Background(), "111111111111111111", digestAnswer(), testNonce)
	var rl delivery.RateLimited
	var sc delivery.Scoped
	if !errors.As(err, &rl) || !errors.As(err, &sc) || sc.RetryScope() != delivery.ScopePlatform {
		t.Fatalf("err = %v, want RateLimited for the platform", err)
	}
	if want := InvalidWindow - 90*time.Second; rl.RetryAfter() != want {
		t.Errorf("RetryAfter = %s, want %s (when the first minute's requests leave the window)", rl.RetryAfter(), want)
	}
	if n := len(f.all()); n != 0 {
		t.Errorf("%d requests made past the budget", n)
	}
}

// TestPosterRefusesBadInput fails before any request: no answer, a nonce
// Discord would not keep, a channel that is no ID (terminal: it can never
// take a post). Error texts hold neither the token nor a URL.
func TestPosterRefusesBadInput(t *testing.T) {
	f := newFakeDiscord(t)
	_, p := posterAgainst(t, f)
	ctx := context.Background()
	errs := map[string]error{}
	_, errs["nil answer"] = p.Post(ctx, "111111111111111111", nil, testNonce)
	_, errs["long nonce"] = p.Post(ctx, "111111111111111111", digestAnswer(), strings.Repeat("n", MaxNonce+1))
	_, errs["no nonce"] = p.Post(ctx, "111111111111111111", digestAnswer(), "")
	_, errs["bad channel"] = p.Post(ctx, "1/../../users/@me", digestAnswer(), testNonce)
	for name, err := range errs {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	var term delivery.Terminal
	if !errors.As(errs["bad channel"], &term) {
		t.Errorf("bad channel: %v, want Terminal", errs["bad channel"])
	}
	if n := len(f.all()); n != 0 {
		t.Errorf("%d requests made for bad input", n)
	}
	f.srv.Close() // a transport failure names the URL
	_, err := p.Post(ctx, "111111111111111111", digestAnswer(), testNonce)
	if err == nil || strings.Contains(err.Error(), f.srv.URL) || strings.Contains(err.Error(), testToken) {
		t.Errorf("transport failure = %v: want an error without URL or token", err)
	}
}

// TestPosterNeedsBotToken refuses to make a poster for an HTTP-only setup.
func TestPosterNeedsBotToken(t *testing.T) {
	logger, _ := testLogger(t)
	a, err := NewAdapter(Config{PublicKey: strings.Repeat("ab", 32)}, &answerFunc{}, nil, logger)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Poster(); err == nil || !strings.Contains(err.Error(), EnvBotToken) {
		t.Errorf("Poster() error = %v, want one naming %s", err, EnvBotToken)
	}
}
