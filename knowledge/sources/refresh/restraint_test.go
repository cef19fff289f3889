package refresh

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
)

// TestAFailingUpstreamIsAskedWithRestraint is issue 28's first item: an
// upstream that fails as a whole, in each way it can, is asked a few times
// in a pass (two sources, each with its retries, before the host's circuit
// opens; once when it says when to come back), never again before its
// backoff or its Retry-After, even by a forced pass for a rate limit; every
// source is reported with its fault, and the knowledge does not move.
func TestAFailingUpstreamIsAskedWithRestraint(t *testing.T) {
	u := upstreamtest.Shared(t)
	reset := day0.Add(2 * time.Hour)
	for _, tc := range []struct {
		name  string
		fault http.HandlerFunc
		// asked is how many requests the first pass makes; waits the
		// retries' waits it takes
		asked, waits int
		result       string // of the first source
		says         string
		// rateLimit: the host said when to come back, which even a forced
		// pass honours until then
		rateLimit bool
		until     time.Time
	}{
		{name: "503", fault: upstreamtest.Status(http.StatusServiceUnavailable), asked: 2 * MaxAttempts, waits: 2 * (MaxAttempts - 1),
			result: ResultFailed, says: "HTTP 503 Service Unavailable"},
		{name: "429 with Retry-After: 60", fault: upstreamtest.TooManyRequests("60"), asked: 1,
			result: ResultRateLimited, says: "HTTP 429 Too Many Requests (rate limited until 2031-02-03T05:01:00Z)", rateLimit: true, until: day0.Add(time.Hour + time.Minute)},
		{name: "403 with GitHub's rate limit spent", fault: upstreamtest.RateLimited(reset), asked: 1,
			result: ResultRateLimited, says: "HTTP 403 Forbidden (rate limited until 2031-02-03T06:00:00Z)", rateLimit: true, until: reset},
		{name: "503 with Retry-After: 120", fault: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
		}, asked: 1, result: ResultFailed, says: "HTTP 503 Service Unavailable", rateLimit: true, until: day0.Add(time.Hour + 2*time.Minute)},
		{name: "connection reset", fault: upstreamtest.Reset(), asked: 2 * MaxAttempts, waits: 2 * (MaxAttempts - 1),
			result: ResultFailed, says: "could not fetch it"},
		{name: "hang", fault: upstreamtest.Hang(), asked: CircuitAfter, // a timeout is not retried
			result: ResultFailed, says: "timed out after 200ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &testClock{now: day0}
			good, kb := newRefresher(t, u, clock, nil)
			if _, err := good.Run(t.Context(), Options{}); err != nil { // the knowledge holds every source
				t.Fatal(err)
			}
			clock.Add(time.Hour)
			r := refresherOver(t, kb, u, clock, func(c *Config) { c.Fetch.Timeout = 200 * time.Millisecond })
			before := snapshotOf(t, kb)
			gen, _ := kb.Generation(t.Context())
			u.FaultAll(tc.fault)
			defer u.FaultAll(nil)
			start := u.Total()

			rep, err := r.Run(t.Context(), Options{Force: true}) // as bot sync
			if err != nil {
				t.Fatal(err)
			}
			if n := u.Total() - start; n != tc.asked {
				t.Errorf("the pass made %d requests; want %d%s", n, tc.asked, lines(rep))
			}
			if w := clock.Waits(); len(w) != tc.waits {
				t.Errorf("waited %v between retries; want %d waits", w, tc.waits)
			} else {
				for i, d := range w {
					base := RetryBase << (i % (MaxAttempts - 1))
					if d < base-base/10 || d > base+base/10 {
						t.Errorf("wait %d was %v; want %v, give or take a tenth", i, d, base)
					}
				}
			}
			first := rep.Outcomes[0]
			if first.Name != sources.NameKEPYAML || first.Result != tc.result || !strings.Contains(first.Error, tc.says) {
				t.Errorf("kep.yaml: %s; want %s saying %q", first.Line(), tc.result, tc.says)
			}
			for _, o := range rep.Outcomes {
				if !notAskedHeld(o) && (o.Severity != SeverityFailure || o.Error == "") {
					t.Errorf("%s: severity %d; want every source reported as not reached, with why", o.Line(), o.Severity)
				}
			}
			if len(rep.Outcomes) < 20 || rep.Applied || rep.Severity() != SeverityFailure {
				t.Errorf("%d outcomes, applied %v, severity %d; want every source the knowledge holds named", len(rep.Outcomes), rep.Applied, rep.Severity())
			}
			if g, _ := kb.Generation(t.Context()); g != gen {
				t.Errorf("generation %d; was %d", g, gen)
			}
			if after := snapshotOf(t, kb); !equalParts(before, after) {
				t.Errorf("the knowledge changed")
			}
			states, _ := kb.SourceStates(t.Context())
			h := HostState(states, hostOf(u.URL))
			if h.RetryAt.IsZero() || h.Failures != 1 || h.Error == "" {
				t.Fatalf("the host's state %+v; want its circuit open, and why", h)
			}
			if tc.rateLimit && !h.RetryAt.Equal(tc.until) {
				t.Errorf("host retry at %v; want the server's %v", h.RetryAt, tc.until)
			}
			if len(rep.Hosts) != 1 || rep.Hosts[0].Requests != tc.asked || rep.Hosts[0].RetryAt.IsZero() {
				t.Errorf("hosts %+v", rep.Hosts)
			}

			// The next pass, a minute on, asks nothing: serve's backs off,
			// and a forced one honours a server's time to come back.
			clock.Add(30 * time.Second)
			start = u.Total()
			rep, _ = r.Run(t.Context(), Options{})
			if n, c := u.Total()-start, rep.Counts(); n != 0 || c[ResultWaiting] != len(rep.Outcomes)-c[ResultNotModified] {
				t.Errorf("a pass in the backoff made %d requests: %v", n, c)
			}
			if tc.rateLimit {
				rep, _ = r.Run(t.Context(), Options{Force: true})
				if n := u.Total() - start; n != 0 {
					t.Errorf("a forced pass before the host's time made %d requests", n)
				}
				if o := rep.Outcomes[0]; o.Result != ResultWaiting || !o.RetryAt.Equal(tc.until) || !strings.Contains(o.Line(), "asked to wait") {
					t.Errorf("%s; want it waiting for the host until %v", o.Line(), tc.until)
				}
			}

			// Once its time has passed, one request decides (half-open):
			// it fails, and the circuit opens again for longer.
			clock.Add(2 * time.Hour)
			start = u.Total()
			r.Run(t.Context(), Options{})
			if n := u.Total() - start; n != 1 {
				t.Errorf("a half-open circuit let %d requests through; want 1", n)
			}
			states, _ = kb.SourceStates(t.Context())
			if h2 := HostState(states, hostOf(u.URL)); h2.Failures != 2 || !h2.RetryAt.After(clock.Now()) {
				t.Errorf("after the half-open request failed: %+v", h2)
			}

			// The upstream well again, the next pass after the backoff
			// reads it and closes the circuit.
			u.FaultAll(nil)
			clock.Add(12 * time.Hour)
			rep, err = r.Run(t.Context(), Options{})
			// all held sources not modified; the notes and pages of 1.37 and
			// 1.38 and the code of 1.38 (feature gates) not published
			if err != nil || rep.Severity() != SeverityNone || rep.Counts()[ResultNotModified] != len(rep.Outcomes)-5 {
				t.Fatalf("after the fault: %v%s", err, lines(rep))
			}
			states, _ = kb.SourceStates(t.Context())
			if h := HostState(states, hostOf(u.URL)); !h.RetryAt.IsZero() || h.Failures != 0 || h.Error != "" {
				t.Errorf("the host's state %+v after it answered; want none", h)
			}
		})
	}
}

// notAskedHeld reports whether o is a k8s.io/api tag the knowledge holds, which
// is never asked for (a tag never changes).
func notAskedHeld(o Outcome) bool { return o.Result == ResultNotModified && o.Requests == 0 }

// equalParts reports whether two snapshots of the knowledge hold the same
// parts by source.
func equalParts(a, b knowledgeParts) bool {
	for name, p := range a.parts {
		if b.parts[name] != p {
			return false
		}
	}
	return true
}

// TestServeEveryTwoSecondsAgainst503 is issue 28's serve: refreshing every
// 2 s against an upstream that answers 503 to everything, for 30 s of its
// clock (the passes Loop would run, each after Loop's own wait). It asks a
// few dozen times at most, not thousands.
func TestServeEveryTwoSecondsAgainst503(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, _ := newRefresher(t, u, clock, func(c *Config) { c.Interval = 2 * time.Second })
	if _, err := r.Run(t.Context(), Options{}); err != nil { // a good first pass: the knowledge holds every release
		t.Fatal(err)
	}
	u.FaultAll(upstreamtest.Status(http.StatusServiceUnavailable))
	defer u.FaultAll(nil)
	start, end := u.Total(), clock.Now().Add(30*time.Second)
	passes := 0
	for clock.Now().Before(end) {
		clock.Add(r.nextWait(t.Context(), 2*time.Second))
		if _, err := r.Run(t.Context(), Options{}); err != nil {
			t.Fatal(err)
		}
		for _, w := range clock.Waits() {
			clock.Add(w) // the retries' waits take the loop's time
		}
		passes++
	}
	n := u.Total() - start
	t.Logf("%d passes in 30 s made %d requests", passes, n)
	if n > 24 || n < 2*MaxAttempts {
		t.Errorf("%d requests in 30 s of 2 s passes; want a few dozen at most (the first pass's %d, then one a half-open circuit)", n, 2*MaxAttempts)
	}
}

// TestTheWalkIsBounded: an upstream that answers every release asked (a
// mirror gone wrong) is walked at most MaxAhead past what the knowledge
// holds in a pass; a release probed while its host failed is not taken
// for a known one later.
func TestTheWalkIsBounded(t *testing.T) {
	u := upstreamtest.Shared(t)
	clock := &testClock{now: day0}
	r, _ := newRefresher(t, u, clock, nil)
	if _, err := r.Run(t.Context(), Options{}); err != nil {
		t.Fatal(err)
	}
	notes := u.File("/releases/release-1.36/release-notes/release-notes-draft.json")
	path := func(minor int) string {
		return "/releases/release-1." + itoa(minor) + "/release-notes/release-notes-draft.json"
	}
	for m := 37; m < 100; m++ {
		u.Set(path(m), notes)
	}
	clock.Add(time.Hour)
	rep, err := r.Run(t.Context(), Options{Only: []string{sources.NameReleaseNotes}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(u.Requests(path(39))); n != 1 {
		t.Errorf("1.39 asked %d times; want once", n)
	}
	if n := len(u.Requests(path(40))); n != 0 {
		t.Errorf("1.40, four past the newest held (1.36), was asked%s", lines(rep))
	}
	for m := 40; m < 100; m++ {
		u.Set(path(m), nil)
	}

	// A probe that fails is no known release: the next pass asks it as
	// one that may not be published, and a 404 is no failure.
	u.Fault(path(40), upstreamtest.Status(http.StatusBadGateway))
	clock.Add(time.Hour)
	if rep, _ = r.Run(t.Context(), Options{Only: []string{sources.NameReleaseNotes}}); outcome(t, rep, "release-notes/1.40").Result != ResultFailed {
		t.Fatalf("1.40 behind a 502:%s", lines(rep))
	}
	if len(u.Requests(path(41))) != 0 {
		t.Errorf("the walk went on past a failed probe")
	}
	u.Fault(path(40), nil)
	clock.Add(time.Hour)
	rep, _ = r.Run(t.Context(), Options{Only: []string{sources.NameReleaseNotes}})
	if o := outcome(t, rep, "release-notes/1.40"); o.Result != ResultNotPublished || o.Severity != SeverityNone {
		t.Errorf("1.40 after its failed probe: %s; want not published", o.Line())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// downDNS is a resolver with no network: every lookup fails at once, or
// (hang) only when the caller gives up.
type downDNS struct{ hang bool }

func (d downDNS) LookupNetIP(ctx context.Context, _, host string) ([]netip.Addr, error) {
	if d.hang {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestNoNetwork: with every lookup failing, a pass asks each host a few
// times and stops; with every lookup hanging, a pass with a budget ends
// when it runs out, naming every source it could not ask.
func TestNoNetwork(t *testing.T) {
	clock := &testClock{now: day0}
	for _, tc := range []struct {
		name     string
		dns      downDNS
		budget   time.Duration
		lookups  int
		says     string
		maxTaken time.Duration
	}{
		{name: "lookups fail", dns: downDNS{}, lookups: 3 * CircuitAfter * MaxAttempts, says: "no such host", maxTaken: 5 * time.Second},
		{name: "lookups hang", dns: downDNS{hang: true}, budget: 300 * time.Millisecond, lookups: 1, says: "timed out: the time to ask the sources (300ms) ran out", maxTaken: 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			counted := &countingDNS{next: tc.dns}
			u := upstreamtest.Shared(t)
			r, kb := newRefresher(t, u, clock, func(c *Config) {
				c.URLs = nil // the defaults: GitHub's hosts
				c.Fetch.Resolver = counted
			})
			gen, _ := kb.Generation(t.Context())
			start := time.Now()
			rep, err := r.Run(t.Context(), Options{Force: true, Budget: tc.budget})
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if took > tc.maxTaken {
				t.Errorf("the pass took %v", took)
			}
			if n := counted.n.Load(); int(n) > tc.lookups {
				t.Errorf("%d lookups; want at most %d%s", n, tc.lookups, lines(rep))
			}
			if o := rep.Outcomes[0]; !strings.Contains(o.Error, tc.says) {
				t.Errorf("%s; want it to say %q", o.Line(), tc.says)
			}
			for _, o := range rep.Outcomes {
				if !notAskedHeld(o) && o.Severity != SeverityFailure {
					t.Errorf("%s; want every source reported as not reached", o.Line())
				}
			}
			if g, _ := kb.Generation(t.Context()); g != gen {
				t.Errorf("generation %d; was %d", g, gen)
			}
		})
	}
}

// countingDNS counts the lookups it passes to next.
type countingDNS struct {
	next downDNS
	n    atomic.Int32
}

func (c *countingDNS) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	c.n.Add(1)
	return c.next.LookupNetIP(ctx, network, host)
}
