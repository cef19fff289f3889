package delivery

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/digest"
)

func dl(platform, ws, ch string) *digest.Delivery {
	return &digest.Delivery{Platform: platform, Workspace: ws, Channel: ch}
}

func TestGate(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	g := newGate(map[string]Limits{
		"slack":   {ChannelGap: time.Second, Workspace: 2, WorkspaceBurst: 2},
		"discord": {ChannelGap: time.Second, Platform: 1, PlatformBurst: 1},
	}, 0, 0)
	a, b, c := dl("slack", "T1", "A"), dl("slack", "T1", "B"), dl("slack", "T1", "C")
	steps := []struct {
		name string
		d    *digest.Delivery
		at   time.Duration
		want bool
	}{
		{"first post", a, 0, true},
		{"same channel while busy", a, 0, false},
		{"second channel, workspace burst", b, 0, true},
		{"workspace out of tokens", c, 0, false},
		{"workspace refilled", c, 500 * time.Millisecond, true},
		{"discord first", dl("discord", "G", "1"), 0, true},
		{"discord platform limit", dl("discord", "G", "2"), 10 * time.Millisecond, false},
		{"discord after a second", dl("discord", "G", "2"), time.Second, true},
	}
	for _, s := range steps {
		at := t0.Add(s.at)
		got := g.accept(s.d, at)
		if got != s.want {
			t.Errorf("%s: accept = %v, want %v", s.name, got, s.want)
		}
		if got { // the post takes its tokens
			if err := g.take(context.Background(), s.d, func() time.Time { return at }); err != nil {
				t.Fatal(err)
			}
		}
	}
	g.release(b) // a claim that was not written frees its channel at once
	if !g.accept(b, t0.Add(time.Second)) {
		t.Error("a released channel was refused")
	}

	// Accepted deliveries are promised a token each: no more are accepted
	// than tokens are there.
	x, y := dl("discord", "G", "x"), dl("discord", "G", "y")
	at := t0.Add(5 * time.Second)
	if !g.accept(x, at) {
		t.Fatal("refused while a token is there")
	}
	if g.accept(y, at) {
		t.Error("accepted a second delivery for the one token promised to the first")
	}
	if err := g.take(context.Background(), x, func() time.Time { return at }); err != nil {
		t.Fatal(err)
	}
	// take waits when something else took the token since accept, and gives
	// it back when the context ends first.
	at = at.Add(time.Second)
	if !g.accept(y, at) {
		t.Fatal("refused a second later")
	}
	g.limiters["p/discord"].ReserveN(at, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := g.take(ctx, y, func() time.Time { return at }); err == nil {
		t.Error("take did not wait for a token")
	}
	g.done(y, at)
	if g.accept(dl("discord", "G", "z"), at) {
		t.Error("a token was there after it was taken")
	}
	if g.promised["p/discord"] != 0 {
		t.Errorf("%d tokens still promised after every post ended", g.promised["p/discord"])
	}

	// A Retry-After for the platform that arrives between accept and take
	// holds the post back.
	later := at.Add(time.Minute)
	w := dl("discord", "G", "w")
	if !g.accept(w, later) {
		t.Fatal("refused after a minute")
	}
	g.block(x, ScopePlatform, later.Add(time.Second))
	var held heldError
	if err := g.take(context.Background(), w, func() time.Time { return later }); !errors.As(err, &held) || !held.until.Equal(later.Add(time.Second)) {
		t.Errorf("take during a platform Retry-After: %v", err)
	}
	g.done(a, t0.Add(100*time.Millisecond))
	if g.accept(a, t0.Add(900*time.Millisecond)) {
		t.Error("a channel was posted to within its gap")
	}
	if w := g.nextWake("slack"); w.IsZero() {
		t.Error("a refusal left no wake-up time")
	}
	if !g.accept(a, t0.Add(2*time.Second)) {
		t.Error("a channel past its gap was refused")
	}
	g.done(a, t0.Add(2*time.Second))

	// A Retry-After for the workspace holds back every channel in it.
	g.block(b, ScopeWorkspace, t0.Add(10*time.Second))
	g.done(b, t0)
	if g.accept(dl("slack", "T1", "D"), t0.Add(9*time.Second)) {
		t.Error("a channel of a held-back workspace was accepted")
	}
	if !g.accept(dl("slack", "T2", "E"), t0.Add(9*time.Second)) {
		t.Error("another workspace was held back")
	}
	if !g.accept(dl("slack", "T1", "D"), t0.Add(10*time.Second)) {
		t.Error("the workspace stayed held back after its window")
	}
}

type terminalErr string

func (e terminalErr) Error() string            { return "refused: " + string(e) }
func (e terminalErr) Terminal() (string, bool) { return string(e), e != "" }

type limitErr time.Duration

func (e limitErr) Error() string             { return "429" }
func (e limitErr) RetryAfter() time.Duration { return time.Duration(e) }
func (e limitErr) RetryScope() Scope         { return ScopePlatform }

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

var _ net.Error = timeoutErr{}

func TestClassify(t *testing.T) {
	tests := []struct {
		err  error
		want outcome
	}{
		{nil, outcome{kind: posted}},
		{terminalErr("channel_not_found"), outcome{kind: terminal, reason: "channel_not_found"}},
		{fmt.Errorf("post: %w", terminalErr("50013")), outcome{kind: terminal, reason: "50013"}},
		{terminalErr(""), outcome{kind: failed, reason: "error"}},
		{fmt.Errorf("post: %w", limitErr(3*time.Second)), outcome{kind: rateLimited, retryAfter: 3 * time.Second, scope: ScopePlatform, reason: "rate_limited"}},
		{limitErr(-time.Second), outcome{kind: rateLimited, scope: ScopePlatform, reason: "rate_limited"}},
		{context.DeadlineExceeded, outcome{kind: failed, reason: "timeout"}},
		{&net.OpError{Op: "read", Err: timeoutErr{}}, outcome{kind: failed, reason: "timeout"}},
		{errors.New("HTTP 502"), outcome{kind: failed, reason: "error"}},
	}
	for _, tt := range tests {
		if got := classify(tt.err); got != tt.want {
			t.Errorf("classify(%v) = %+v, want %+v", tt.err, got, tt.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	w := &Worker{cfg: Config{BackoffBase: time.Second, BackoffMax: 10 * time.Second}}
	for _, r := range []float64{0, 0.999} {
		w.cfg.Rand = func() float64 { return r }
		var prev time.Duration
		for n := 1; n <= 8; n++ {
			d := w.backoff(n)
			full := min(time.Second<<(n-1), 10*time.Second)
			if d < full/2 || d > full {
				t.Errorf("rand %v, failure %d: %s, want within [%s, %s]", r, n, d, full/2, full)
			}
			if d < prev {
				t.Errorf("rand %v, failure %d: %s shrank from %s", r, n, d, prev)
			}
			prev = d
		}
	}
}
