package platform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// TestBackoffWait: equal jitter around a doubling step, capped.
func TestBackoffWait(t *testing.T) {
	lo := Backoff{Base: time.Second, Max: 8 * time.Second, Rand: func() float64 { return 0 }}
	hi := lo
	hi.Rand = func() float64 { return 0.999999 }
	for n, step := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 8 * time.Second, 60: 8 * time.Second} {
		if got := lo.Wait(n); got != step/2 {
			t.Errorf("Wait(%d) with no jitter = %s, want %s", n, got, step/2)
		}
		if got := hi.Wait(n); got < step-step/1000 || got > step {
			t.Errorf("Wait(%d) with the most jitter = %s, want just under %s", n, got, step)
		}
	}
	if w := (Backoff{}).Wait(1); w < 500*time.Millisecond || w > time.Second {
		t.Errorf("zero Backoff waits %s, want DefaultBackoff's 0.5–1 s", w)
	}
}

// TestRetry: failures are retried after growing waits, one log line each
// with the wait, the tracker says Down with the error and the attempt,
// then Up; a permanent error stops at once; a cancelled context ends it.
func TestRetry(t *testing.T) {
	var log strings.Builder
	tr := NewTracker(nil)
	calls := 0
	var seen []Status
	err := Retry(context.Background(), Backoff{Base: time.Millisecond, Max: 4 * time.Millisecond, Rand: func() float64 { return 0 }},
		tr, zerolog.New(&log), "discord: register", func(context.Context) error {
			calls++
			seen = append(seen, tr.Status())
			if calls < 4 {
				return errors.New("dial tcp: lookup discord.com: no such host")
			}
			return nil
		})
	if err != nil || calls != 4 {
		t.Fatalf("Retry = %v after %d calls, want nil after 4", err, calls)
	}
	if s := seen[3]; s.State != Down || s.Attempts != 3 || !strings.Contains(s.Error, "no such host") || s.NextAttempt == nil {
		t.Errorf("status before the 4th attempt = %+v, want down after 3 attempts with the error", s)
	}
	if s := tr.Status(); s.State != Up || s.Error != "" {
		t.Errorf("status after = %+v, want up", s)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], `"retry_in":0.5`) || !strings.Contains(lines[2], `"attempt":3`) ||
		!strings.Contains(lines[2], `"retry_in":2`) || !strings.Contains(lines[3], "connected after failures") {
		t.Errorf("log:\n%s\nwant a line per failure with its wait (0.5, 1, 2 ms), then one on connecting", log.String())
	}

	tr = NewTracker(nil)
	calls = 0
	err = Retry(context.Background(), DefaultBackoff, tr, zerolog.Nop(), "x", func(context.Context) error {
		calls++
		return Permanent(errors.New("HTTP 401"))
	})
	if !IsPermanent(err) || calls != 1 || tr.Status().State != Stopped || tr.Status().Error != "HTTP 401" {
		t.Errorf("permanent: Retry = %v after %d calls, status %+v", err, calls, tr.Status())
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- Retry(ctx, Backoff{Base: time.Hour, Max: time.Hour}, NewTracker(nil), zerolog.Nop(), "x", func(context.Context) error { return errors.New("down") })
	}()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Retry after its context ended = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Retry kept waiting after its context ended")
	}
}
