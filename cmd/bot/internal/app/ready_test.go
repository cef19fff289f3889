package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/platform"
)

// fakePlatform is a Reporter whose status a test sets, and whose Run
// fails with fail (nil: it serves until stopped).
type fakePlatform struct {
	name string
	fail error
	mu   sync.Mutex
	s    platform.Status
}

func (f *fakePlatform) Name() string { return f.name }
func (f *fakePlatform) Run(ctx context.Context) error {
	if f.fail != nil {
		f.set(platform.Status{State: platform.Stopped, Error: f.fail.Error()})
		return f.fail
	}
	<-ctx.Done()
	return nil
}
func (f *fakePlatform) Status() platform.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.s
}
func (f *fakePlatform) set(s platform.Status) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.s = s
}

// readyBody is /readyz's answer, decoded.
func readyBody(t *testing.T, base, query string) (int, readiness) {
	t.Helper()
	code, body := get(t, base+"/readyz"+query)
	var r readiness
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("/readyz%s = %d %q: not JSON (%v)", query, code, body, err)
	}
	return code, r
}

// TestReadyzNamesThePlatformThatIsDown: /readyz is 503 while a configured
// platform is down, its body naming which and why, each platform's state
// beside; ?exclude=NAME leaves one out of the verdict; 200 once every
// platform is up.
func TestReadyzNamesThePlatformThatIsDown(t *testing.T) {
	eng, ready := engine(t)
	slackP := &fakePlatform{name: "slack", s: platform.Status{State: platform.Up}}
	next := time.Date(2026, 5, 1, 10, 0, 4, 0, time.UTC)
	discordP := &fakePlatform{name: "discord", s: platform.Status{State: platform.Down, Attempts: 3, NextAttempt: &next,
		Error: "register /k8s: discord register commands: dial tcp: lookup discord.com: no such host"}}
	c, _ := config.Load("", func(string) string { return "" })
	s := start(t, Deps{Config: c, Logger: zerolog.Nop(), Ready: ready, Adapters: []Adapter{slackP, discordP}}, eng)
	waitUp(t, s.base)

	code, r := readyBody(t, s.base, "")
	if code != 503 || r.Status != "not ready" ||
		r.Reason != "discord is down: register /k8s: discord register commands: dial tcp: lookup discord.com: no such host" {
		t.Errorf("/readyz with discord down = %d %+v", code, r)
	}
	if d := r.Platforms["discord"]; d.State != platform.Down || d.Attempts != 3 || d.NextAttempt == nil || !d.NextAttempt.Equal(next) {
		t.Errorf("discord's status = %+v", d)
	}
	if r.Platforms["slack"].State != platform.Up {
		t.Errorf("slack's status = %+v", r.Platforms["slack"])
	}
	if code, r := readyBody(t, s.base, "?exclude=discord"); code != 200 || r.Status != "ready" || r.Platforms["discord"].State != platform.Down {
		t.Errorf("/readyz?exclude=discord = %d %+v, want 200 still showing discord down", code, r)
	}
	discordP.set(platform.Status{State: platform.Up})
	if code, r := readyBody(t, s.base, ""); code != 200 || r.Status != "ready" || r.Reason != "" {
		t.Errorf("/readyz with both up = %d %+v", code, r)
	}
	slackP.set(platform.Status{State: platform.Connecting})
	discordP.set(platform.Status{State: platform.Stopped, Error: "HTTP 401"})
	if code, r := readyBody(t, s.base, ""); code != 503 || r.Reason != "slack is connecting; discord is stopped: HTTP 401" {
		t.Errorf("/readyz with both not up = %d %+v", code, r)
	}
}

// TestOnePlatformStoppingLeavesTheOther: a platform that refuses for good
// stops alone; Run keeps serving the other and /readyz says which
// stopped. When every platform has stopped, Run fails.
func TestOnePlatformStoppingLeavesTheOther(t *testing.T) {
	eng, ready := engine(t)
	c, _ := config.Load("", func(string) string { return "" })
	up := &fakePlatform{name: "slack", s: platform.Status{State: platform.Up}}
	refused := &fakePlatform{name: "discord", fail: errors.New("token revoked")}
	s := start(t, Deps{Config: c, Logger: zerolog.Nop(), Ready: ready, Adapters: []Adapter{up, refused}}, eng)
	waitUp(t, s.base)
	deadline := time.Now().Add(5 * time.Second)
	var r readiness
	for time.Now().Before(deadline) {
		if _, r = readyBody(t, s.base, ""); r.Platforms["discord"].State == platform.Stopped {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r.Reason != "discord is stopped: token revoked" {
		t.Errorf("/readyz = %+v, want discord stopped", r)
	}
	if code, _ := get(t, s.base+"/healthz"); code != 200 {
		t.Errorf("/healthz = %d with slack serving", code)
	}
	s.stop()
	if err, ok := s.wait(); !ok || err != nil {
		t.Errorf("Run = %v (returned %v), want nil after a stop with slack serving", err, ok)
	}

	alone := start(t, Deps{Config: c, Logger: zerolog.Nop(), Adapters: []Adapter{&fakePlatform{name: "discord", fail: errors.New("token revoked")}}}, eng)
	err, ok := alone.wait()
	if !ok || err == nil || !strings.Contains(err.Error(), "discord: token revoked") {
		t.Errorf("Run with its only platform refused = %v (returned %v), want the refusal", err, ok)
	}
}
