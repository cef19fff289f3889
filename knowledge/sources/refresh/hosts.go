package refresh

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/kepbot/kepbot/store"
)

// Restraint toward every host a pass asks (reliability notes §4.1: never
// retry in a tight loop, honour Retry-After). A host is a URL's host and
// port: api.github.com, raw.githubusercontent.com, 127.0.0.1:8080.
const (
	// CircuitAfter is how many sources in a row may fail on a host (each
	// after its retries) before the pass stops asking it: its circuit
	// opens, and the host's other sources are skipped.
	CircuitAfter = 2
	// MaxAttempts is how many times a pass asks one source that fails
	// with a server or network error (a 5xx, a reset, a refused
	// connection, a failed DNS lookup): the first request and two retries.
	MaxAttempts = 3
	// RetryBase is the wait before the first retry; it doubles before
	// each next one, spread by a tenth either way.
	RetryBase = time.Second
	// maxHostWait caps how long a server's Retry-After or rate-limit
	// reset may keep a host waiting.
	maxHostWait = 24 * time.Hour
)

// hostStatePrefix names a host's state among the sources' states, where it
// is kept with them (in bbolt, or in etcd for replicas) across passes:
// "host:raw.githubusercontent.com".
const hostStatePrefix = "host:"

// IsHostState reports whether a name among the sources' states is a
// host's, not a source's.
func IsHostState(name string) bool { return strings.HasPrefix(name, hostStatePrefix) }

// HostState returns the stored state of host among states: whether it may
// be asked (its RetryAt), why not (Result, Error) and how many times in a
// row its circuit opened (Failures).
func HostState(states map[string]store.SourceState, host string) store.SourceState {
	return states[hostStatePrefix+host]
}

// hostOf is the host (and port) of a source's URL, lower-case; "" when the
// URL does not parse (the fetch refuses it then).
func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// gate is what one pass knows of one host: its stored state and what
// happened to it in this pass.
type gate struct {
	name string
	st   store.SourceState // stored: Failures counts the circuit's openings in a row
	// failing counts the sources in a row that failed on it in this pass.
	failing int
	// open is set once the pass stops asking it: its circuit opened, or
	// it answered with a time to come back (Retry-After, a rate limit).
	// why says so, for the sources it skips.
	open bool
	why  string
	// halfOpen is set when its circuit was open and its time has come:
	// one request (no retries) decides whether it closes or opens again.
	halfOpen bool
	requests int
	touched  bool // asked, or some source was held back by it: reported and saved
}

// gate returns the gate of src's host, made from its stored state on first
// use in the pass.
func (p *pass) gate(src source) *gate {
	name := hostOf(src.url)
	if g := p.gates[name]; g != nil {
		return g
	}
	g := &gate{name: name, st: p.states[hostStatePrefix+name]}
	if g.st.Failures > 0 && !g.st.RetryAt.After(p.r.cfg.Now()) {
		g.halfOpen = true
	}
	p.gates[name] = g
	return g
}

// barred says why g's host must not be asked now, "" when it may be, and
// until when; fresh is true when the reason was found in this pass.
func (p *pass) barred(g *gate, now time.Time) (why string, until time.Time, fresh bool) {
	switch {
	case g.name == "":
		return "", time.Time{}, false
	case g.open:
		return g.why, g.st.RetryAt, true
	case g.st.RetryAt.After(now) && g.st.Result == ResultRateLimited:
		// a server's word is honoured even by bot sync
		return fmt.Sprintf("%s asked to wait (%s)", g.name, g.st.Error), g.st.RetryAt, false
	case g.st.RetryAt.After(now) && !p.opts.Force:
		return fmt.Sprintf("%s kept failing (%s)", g.name, g.st.Error), g.st.RetryAt, false
	}
	return "", time.Time{}, false
}

// attempts is how many requests a pass may make of one source on g.
func (g *gate) attempts() int {
	if g.halfOpen {
		return 1
	}
	return MaxAttempts
}

// answered records that g's host answered a request (news, nothing new,
// not published, or content that cannot be used): its circuit closes.
func (g *gate) answered() {
	g.failing, g.halfOpen = 0, false
	if g.st.Failures > 0 || !g.st.RetryAt.IsZero() {
		g.st = store.SourceState{URL: g.st.URL}
	}
}

// failed records a source that failed on g with fault f (after its
// retries) at now: a server's time to come back holds the host until then;
// CircuitAfter failures in a row, or the one request of a half-open
// circuit, open its circuit for a backoff that doubles with each opening.
func (g *gate) failed(f fault, err error, now time.Time, interval time.Duration) {
	if !f.host() {
		g.answered() // the host answered; the source is at fault
		return
	}
	g.failing++
	msg := hostReason(err)
	switch {
	case f.kind == faultWait:
		g.st.Failures++
		until := f.until
		if until.IsZero() || !until.After(now) {
			until = now.Add(jitter(backoff(interval, g.st.Failures)))
		}
		if limit := now.Add(maxHostWait); until.After(limit) {
			until = limit
		}
		g.st.RetryAt, g.st.Result, g.st.Error = until, ResultRateLimited, msg
		g.open, g.why = true, fmt.Sprintf("%s asked to wait (%s)", g.name, msg)
	case g.failing >= CircuitAfter || g.halfOpen:
		g.st.Failures++
		g.st.RetryAt, g.st.Result, g.st.Error = now.Add(jitter(backoff(interval, g.st.Failures))), ResultFailed, msg
		g.open, g.why = true, fmt.Sprintf("%s failed %d times in a row (%s)", g.name, max(g.failing, 1), msg)
	}
	g.halfOpen = false
	g.st.Checked = now
}

// saveGates puts the state of every host the pass touched among the
// states, and drops the state of a host that is well again.
func (p *pass) saveGates() {
	for _, name := range slices.Sorted(maps.Keys(p.gates)) {
		g := p.gates[name]
		if name == "" || !g.touched {
			continue
		}
		key := hostStatePrefix + name
		if g.st.Failures == 0 && g.st.RetryAt.IsZero() {
			delete(p.states, key)
		} else {
			p.states[key] = g.st
		}
		h := HostReport{Host: name, Requests: g.requests, Result: "ok", Failures: g.st.Failures, RetryAt: g.st.RetryAt, Error: g.st.Error}
		if !g.st.RetryAt.IsZero() {
			h.Result = g.st.Result
		}
		p.report.Hosts = append(p.report.Hosts, h)
		if p.r.cfg.Metrics != nil {
			p.r.cfg.Metrics.Host(h)
		}
	}
}

// HostReport is how one host fared in a pass.
type HostReport struct {
	Host string `json:"host"`
	// Result is "ok", or "failed" (its circuit is open) or "rate limited"
	// (it said when to come back) until RetryAt.
	Result   string    `json:"result"`
	Error    string    `json:"error,omitempty"`
	Requests int       `json:"requests"`           // made of it in this pass, retries included
	Failures int       `json:"failures,omitempty"` // its circuit's openings in a row
	RetryAt  time.Time `json:"retry_at,omitzero"`
}

// hostReason is what a host's failure says, without the URL (the sources
// it held back name theirs).
func hostReason(err error) string {
	s := strings.TrimPrefix(err.Error(), "could not fetch it: ")
	if rest, ok := strings.CutPrefix(s, "fetch "); ok {
		if i := strings.Index(rest, ": "); i >= 0 {
			s = rest[i+2:]
		}
	}
	return s
}
