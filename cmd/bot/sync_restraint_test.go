package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

// upstreamSync is `bot sync` pointed at up through the environment, as an
// operator would point it at a mirror, with a clock that stands still
// (moved by the test) and waits between retries that are counted, not
// waited.
type upstreamSync struct {
	up    *upstreamtest.Upstream
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func newUpstreamSync(t *testing.T) *upstreamSync {
	return &upstreamSync{up: upstreamtest.Shared(t), now: time.Date(2031, 3, 4, 5, 0, 0, 0, time.UTC)}
}

func (s *upstreamSync) command() syncCommand {
	return syncCommand{
		now: func() time.Time { s.mu.Lock(); defer s.mu.Unlock(); return s.now },
		wait: func(ctx context.Context, d time.Duration) error {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.waits = append(s.waits, d)
			return ctx.Err()
		},
	}
}

func (s *upstreamSync) advance(d time.Duration) { s.mu.Lock(); s.now = s.now.Add(d); s.mu.Unlock() }

// run runs the command with args and the upstream's environment.
func (s *upstreamSync) run(t *testing.T, c syncCommand, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	env := s.up.Env()
	var out, errb bytes.Buffer
	code = c.run(context.Background(), stdio{in: strings.NewReader(""), out: &out, err: &errb, getenv: func(k string) string { return env[k] }}, args)
	return code, out.String(), errb.String()
}

// TestSyncAgainstAFailingUpstream is issue 28's `bot sync` against an
// upstream that fails as a whole: it gives up after a few requests (six at
// most, the first source's and the next one's retries, before the host's
// circuit opens), within its time, exits 3 naming every source and its
// fault, and leaves the knowledge as it was. A second sync against a
// server that said when to come back asks nothing.
func TestSyncAgainstAFailingUpstream(t *testing.T) {
	s := newUpstreamSync(t)
	good := filepath.Join(t.TempDir(), "good.db")
	if code, out, errs := s.run(t, s.command(), "--db", good); code != exitOK {
		t.Fatalf("the first sync: exit %d\n%s%s", code, out, errs)
	}
	for _, tc := range []struct {
		name   string
		fault  http.HandlerFunc
		args   []string
		asked  int
		says   string
		within time.Duration
		// again is how many requests a second sync right after makes
		again int
	}{
		{"503", upstreamtest.Status(http.StatusServiceUnavailable), nil, 6, "HTTP 503 Service Unavailable", 5 * time.Second, 6},
		{"429 with Retry-After: 60", upstreamtest.TooManyRequests("60"), nil, 1, "HTTP 429 Too Many Requests (rate limited until", 5 * time.Second, 0},
		{"403 with GitHub's rate limit", upstreamtest.RateLimited(time.Date(2031, 3, 4, 6, 0, 0, 0, time.UTC)), nil, 1, "HTTP 403 Forbidden (rate limited until 2031-03-04T06:00:00Z)", 5 * time.Second, 0},
		{"connection reset", upstreamtest.Reset(), nil, 6, "could not fetch it", 5 * time.Second, 6},
		{"hang", upstreamtest.Hang(), []string{"--timeout", "300ms"}, 1, "timed out: the time to ask the sources (300ms) ran out", 2 * time.Second, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "kb.db")
			copyFile(t, good, db)
			before := readState(t, db)
			s.up.FaultAll(tc.fault)
			defer s.up.FaultAll(nil)
			start, began := s.up.Total(), time.Now()
			code, out, errs := s.run(t, s.command(), append([]string{"--db", db}, tc.args...)...)
			took := time.Since(began)
			asked := s.up.Total() - start
			t.Logf("exit %d after %v and %d requests", code, took.Round(time.Millisecond), asked)
			if code != exitFailure {
				t.Errorf("exit %d; want %d\n%s", code, exitFailure, out)
			}
			if asked != tc.asked {
				t.Errorf("%d requests; want %d", asked, tc.asked)
			}
			if took > tc.within {
				t.Errorf("took %v; want within %v", took, tc.within)
			}
			if !strings.Contains(errs, "bot sync: kep.yaml failed: could not fetch it: fetch "+s.up.URL) || !strings.Contains(errs, tc.says) {
				t.Errorf("stderr does not say kep.yaml failed with %q:\n%s", tc.says, errs)
			}
			for _, name := range []string{"lifecycle", "patches", "release-notes/1.25", "release-notes/1.36", "release-page/1.36"} {
				if !namedNotReached(errs, name) {
					t.Errorf("stderr does not name %s:\n%s", name, errs)
				}
			}
			after := readState(t, db)
			after.Sync = before.Sync // the failure is recorded; the knowledge must not move
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the knowledge changed (-before +after):\n%s", diff)
			}

			start = s.up.Total()
			if code, _, errs := s.run(t, s.command(), append([]string{"--db", db}, tc.args...)...); code != exitFailure || s.up.Total()-start != tc.again {
				t.Errorf("a second sync at once: exit %d, %d requests; want %d, %d\n%s", code, s.up.Total()-start, exitFailure, tc.again, errs)
			} else if tc.again == 0 && (!namedNotReached(errs, "kep.yaml") || !strings.Contains(errs, " were not asked: "+s.up.URL[len("http://"):]+" asked to wait (")) {
				t.Errorf("the second sync does not say the host asked to wait:\n%s", errs)
			}
		})
	}
}

// TestSyncANewDatabaseAgainst503 is the first sync: no database
// yet, every source answering 503. The database made from the built-in
// snapshot is left as the snapshot made it.
func TestSyncANewDatabaseAgainst503(t *testing.T) {
	s := newUpstreamSync(t)
	s.up.FaultAll(upstreamtest.Status(http.StatusServiceUnavailable))
	db := filepath.Join(t.TempDir(), "kb.db")
	code, _, errs := s.run(t, s.command(), "--db", db)
	if code != exitFailure || s.up.Total() != 2*refresh.MaxAttempts || !namedNotReached(errs, "release-page/1.36") {
		t.Errorf("exit %d after %d requests; want %d after %d\n%s", code, s.up.Total(), exitFailure, 2*refresh.MaxAttempts, errs)
	}
	ref := filepath.Join(t.TempDir(), "snapshot.db")
	seeded, err := store.OpenSeeded(t.Context(), ref, store.Options{}, snapshot.Load, nil)
	if err != nil {
		t.Fatal(err)
	}
	seeded.Close()
	got, want := readState(t, db), readState(t, ref)
	got.Sync, got.Info.Path, got.Info.Replaced = want.Sync, want.Info.Path, want.Info.Replaced
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the new database is not the snapshot's (-snapshot +synced):\n%s", diff)
	}
}

// TestSyncProgressAndJSON: on a terminal bot sync keeps one line up to
// date and rubs it out before the report; in a pipe it writes none; with
// --json it prints one object a script reads.
func TestSyncProgressAndJSON(t *testing.T) {
	s := newUpstreamSync(t)
	db := filepath.Join(t.TempDir(), "kb.db")
	c := s.command()
	c.terminal = func(io.Writer) bool { return true }
	code, out, errs := s.run(t, c, "--db", db, "--only", "kep.yaml,lifecycle")
	if code != exitOK || !strings.Contains(errs, "\r\x1b[Kbot sync: 0 sources done, 0 not reached; asking kep.yaml") ||
		!strings.Contains(errs, "bot sync: 2 sources done, 0 not reached; lifecycle: updated") || !strings.HasSuffix(errs, "\r\x1b[K") {
		t.Errorf("on a terminal: exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "Synced "+db) || strings.Contains(out, "\r") {
		t.Errorf("stdout %q", out)
	}
	if _, _, errs := s.run(t, s.command(), "--db", db, "--only", "lifecycle"); errs != "" {
		t.Errorf("in a pipe, stderr %q; want nothing", errs)
	}

	s.up.Fault("/patches/kubernetes.json", upstreamtest.Status(http.StatusBadGateway))
	code, out, errs = s.run(t, c, "--db", db, "--only", "lifecycle,patches", "--json")
	var rep struct {
		Database   string         `json:"database"`
		Applied    bool           `json:"applied"`
		Generation uint64         `json:"generation"`
		Counts     map[string]int `json:"counts"`
		Exit       int            `json:"exit"`
		Sources    []struct {
			Name, Result, Error string
			Requests            int
		} `json:"sources"`
		Hosts []refresh.HostReport `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json printed %q: %v", out, err)
	}
	if code != exitFailure || rep.Exit != code || rep.Database != db || rep.Generation == 0 || len(rep.Sources) != 2 ||
		rep.Counts["not modified"] != 1 || rep.Counts["failed"] != 1 || rep.Sources[1].Name != "patches" || rep.Sources[1].Requests != 3 ||
		!strings.Contains(rep.Sources[1].Error, "HTTP 502 Bad Gateway") || len(rep.Hosts) != 1 || rep.Hosts[0].Requests != 4 {
		t.Errorf("exit %d, report %+v", code, rep)
	}
	if strings.Contains(errs, "\r") || !strings.Contains(errs, "bot sync: patches failed:") {
		t.Errorf("with --json, stderr %q; want no progress line, and the failure named", errs)
	}
	code, out, _ = s.run(t, c, "--db", db, "--only", "kep.yml", "--json")
	if code != exitBadInput || !strings.Contains(out, `"error": "--only: \"kep.yml\" is not a source`) || !strings.Contains(out, `"exit": 2`) {
		t.Errorf("a bad flag with --json: exit %d, %s", code, out)
	}
}

// copyFile copies the file at from to to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// namedNotReached reports whether bot sync's stderr names the source name
// as failed or not asked.
func namedNotReached(stderr, name string) bool {
	for _, l := range strings.Split(stderr, "\n") {
		names, _, ok := strings.Cut(strings.TrimPrefix(l, "bot sync: "), " failed: ")
		if !ok {
			names, _, ok = strings.Cut(strings.TrimPrefix(l, "bot sync: "), " not asked: ")
			names = strings.TrimSuffix(strings.TrimSuffix(names, " were"), " was")
		}
		if ok && slices.Contains(strings.Split(names, ", "), name) {
			return true
		}
	}
	return false
}
