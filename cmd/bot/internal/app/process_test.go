package app

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/store/storetest"
)

// process is a Process over a new database holding the built-in
// snapshot, serving Slack's HTTP endpoints on addr.
func process(t *testing.T, addr string, stderr *bytes.Buffer) Process {
	t.Helper()
	db := storetest.SnapshotDB(t)
	c := httpConfig(t)
	c.HTTP.Addr = addr
	c.Sources.Refresh = false
	return Process{Config: c, Slack: slack.Config{SigningSecrets: []slack.Secret{c.Slack.SigningSecret}}, DB: db,
		Getenv: func(string) string { return "" }, Version: "test", Stderr: stderr, BadInput: 2, Failure: 3}
}

// TestProcessListenFailure: a busy http.addr fails serve with the key
// named, before any adapter runs.
func TestProcessListenFailure(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	var stderr bytes.Buffer
	p := process(t, busy.Addr().String(), &stderr)
	if code := p.Run(context.Background()); code != 3 {
		t.Errorf("Run on a busy port = %d, want 3 (Failure)", code)
	}
	if !strings.Contains(stderr.String(), "bot serve: listen on "+busy.Addr().String()+" (http.addr, BOT_HTTP_ADDR)") {
		t.Errorf("stderr %q; want the listen failure naming http.addr", stderr.String())
	}
}

// TestProcessBadSlackConfig: a Slack adapter that cannot be built is a bad
// config, said on stderr after "bot serve: slack: ".
func TestProcessBadSlackConfig(t *testing.T) {
	var stderr bytes.Buffer
	p := process(t, "127.0.0.1:0", &stderr)
	p.Slack.SigningSecrets = nil
	if code := p.Run(context.Background()); code != 2 {
		t.Errorf("Run without a signing secret = %d, want 2 (BadInput); stderr %q", code, stderr.String())
	}
	if !strings.HasPrefix(stderr.String(), "bot serve: slack: ") {
		t.Errorf("stderr %q; want the Slack adapter's error", stderr.String())
	}
}

// TestProcessServesUntilTheContextEnds: with its adapters built, serve
// runs until ctx ends and then exits 0.
func TestProcessServesUntilTheContextEnds(t *testing.T) {
	var stderr bytes.Buffer
	p := process(t, "127.0.0.1:0", &stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if code := p.Run(ctx); code != 0 {
		t.Errorf("Run = %d, want 0; stderr %q", code, stderr.String())
	}
}

// TestProcessStoppedWhileLoading: a stop that comes before the knowledge
// is loaded (a SIGTERM during start-up) exits 0 as a stop, not 3 with
// "load the knowledge: context canceled".
func TestProcessStoppedWhileLoading(t *testing.T) {
	var stderr bytes.Buffer
	p := process(t, "127.0.0.1:0", &stderr)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := p.Run(ctx); code != 0 || strings.Contains(stderr.String(), `"level":"error"`) {
		t.Errorf("Run = %d, want 0 and no error; stderr %q", code, stderr.String())
	}
}
