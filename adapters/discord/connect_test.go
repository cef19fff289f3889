package discord

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/platform"
)

// fastBackoff keeps the tests' retries to milliseconds.
var fastBackoff = WithBackoff(platform.Backoff{Base: 10 * time.Millisecond, Max: 20 * time.Millisecond})

// TestStartRetriesUntilDiscordAnswers: while registering /k8s fails (a
// 502, as from a proxy in front of an unreachable Discord), Run keeps
// trying with backoff, logs each failure with its wait, and reports down
// with the error; once Discord answers it registers, opens the gateway
// and reports up. It never registers again once it has.
func TestStartRetriesUntilDiscordAnswers(t *testing.T) {
	f := newFakeDiscord(t)
	var puts atomic.Int32
	f.setOverride(func(r *http.Request) (int, string, bool) {
		if r.Method == http.MethodPut && puts.Add(1) <= 2 {
			return http.StatusBadGateway, `{"message":"bad gateway"}`, true
		}
		return 0, "", false
	})
	logger, logs := testLogger(t)
	a, err := NewAdapter(Config{BotToken: NewSecret(testToken), AppID: testAppID, APIURL: f.srv.URL, GatewayURL: f.gatewayURL()},
		testEngine(t), nil, logger, fastBackoff)
	if err != nil {
		t.Fatal(err)
	}
	if s := a.Status(); s.State != platform.Connecting {
		t.Errorf("status before Run = %+v, want connecting", s)
	}
	startAdapter(t, a)
	var down platform.Status
	deadline := time.Now().Add(10 * time.Second)
	for a.Status().State != platform.Up && time.Now().Before(deadline) {
		if s := a.Status(); s.State == platform.Down {
			down = s
		}
		time.Sleep(time.Millisecond)
	}
	if s := a.Status(); s.State != platform.Up {
		t.Fatalf("status = %+v, want up once Discord answers; log:\n%s", s, logs.String())
	}
	if down.Attempts != 1 || !strings.Contains(down.Error, "register /k8s: discord register commands:") || !strings.Contains(down.Error, "HTTP 502") || down.NextAttempt == nil {
		t.Errorf("status while failing = %+v, want down after 1 attempt, naming the 502 and when it tries again", down)
	}
	if n := strings.Count(logs.String(), "discord: start failed; retrying"); n != 1 || !strings.Contains(logs.String(), `"retry_in"`) {
		t.Errorf("%d retry lines, want 1 with its wait; log:\n%s", n, logs.String())
	}
	if n := puts.Load(); n != 3 {
		t.Errorf("%d registrations, want 3 (two refused: the call's own retry of a 5xx, then one more attempt)", n)
	}
}

// TestStartStopsWhenDiscordRefusesTheToken: a 401 on registering, or the
// gateway closing with 4004 (authentication failed), is not retried: Run
// returns at once and the status says stopped, with why.
func TestStartStopsWhenDiscordRefusesTheToken(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(f *fakeDiscord)
		appID   string
		wantErr string
	}{
		{"401 on register", func(f *fakeDiscord) {
			f.setOverride(func(r *http.Request) (int, string, bool) {
				if r.Method == http.MethodPut {
					return http.StatusUnauthorized, `{"message":"401: Unauthorized","code":0}`, true
				}
				return 0, "", false
			})
		}, testAppID, "HTTP 401"},
		{"4004 on identify", func(f *fakeDiscord) { f.closeAfterIdentify = 4004 }, "", "4004"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeDiscord(t)
			tc.setup(f)
			logger, logs := testLogger(t)
			a, err := NewAdapter(Config{BotToken: NewSecret(testToken), AppID: tc.appID, APIURL: f.srv.URL, GatewayURL: f.gatewayURL()},
				testEngine(t), nil, logger, fastBackoff)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = a.Run(ctx)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !platform.IsPermanent(err) {
				t.Fatalf("Run = %v, want a permanent error naming %s", err, tc.wantErr)
			}
			if s := a.Status(); s.State != platform.Stopped || !strings.Contains(s.Error, tc.wantErr) {
				t.Errorf("status = %+v, want stopped", s)
			}
			if strings.Contains(logs.String(), testToken) || strings.Contains(err.Error(), testToken) {
				t.Error("the token was logged or returned")
			}
			if strings.Contains(logs.String(), "failed; retrying") {
				t.Errorf("a refusal was retried:\n%s", logs.String())
			}
		})
	}
}

// TestInteractionsOnlyIsUpAtOnce: with only the public key (the HTTP
// interactions endpoint) there is nothing to connect.
func TestInteractionsOnlyIsUpAtOnce(t *testing.T) {
	logger, _ := testLogger(t)
	a, err := NewAdapter(Config{PublicKey: strings.Repeat("ab", 32)}, testEngine(t), nil, logger)
	if err != nil {
		t.Fatal(err)
	}
	startAdapter(t, a)
	deadline := time.Now().Add(5 * time.Second)
	for a.Status().State != platform.Up && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if s := a.Status(); s.State != platform.Up {
		t.Errorf("status = %+v, want up", s)
	}
}
