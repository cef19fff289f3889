package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// Defaults for Options.
const (
	DefaultTimeout  = 5 * time.Minute
	DefaultMaxBytes = 256 << 20 // a GitHub tarball of kubernetes/enhancements is far smaller
	MaxRedirects    = 5
)

// DefaultHosts are the hosts a GitHub tarball is fetched from: the API
// answers with a redirect to codeload.
var DefaultHosts = []string{"api.github.com", "codeload.github.com", "github.com"}

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options tune a Client. The zero Options fetch from DefaultHosts with the
// default timeout and cap.
type Options struct {
	// AllowedHosts are the exact host names (or IP addresses, for tests)
	// that may be fetched; nil means DefaultHosts.
	AllowedHosts []string
	// LoopbackHosts are hosts of AllowedHosts that may resolve to a
	// loopback address: only for tests against a local server. Private,
	// link-local and the other refused addresses stay refused for them.
	LoopbackHosts []string
	// Timeout bounds a whole fetch: connecting, redirects, the headers and
	// reading the body. Zero or less means DefaultTimeout.
	Timeout time.Duration
	// MaxBytes caps the body, read as sent (compressed). Zero or less
	// means DefaultMaxBytes.
	MaxBytes int64
	// RootCAs verifies servers; nil means the system's roots.
	RootCAs *x509.CertPool
	// Resolver looks host names up; nil means net.DefaultResolver.
	Resolver Resolver
	// UserAgent names the client; empty means "kepbot".
	UserAgent string
	// Now is the clock Retry-After dates are read against; nil means
	// time.Now.
	Now func() time.Time
	// PlainHTTPLoopback lets plain http:// reach the LoopbackHosts that
	// name this machine (127.0.0.1, ::1, localhost): a mirror or a test
	// server beside kepbot. Every other host stays https only.
	PlainHTTPLoopback bool
}

// Client fetches URLs under its Options. It is safe for concurrent use.
type Client struct {
	http      *http.Client
	allowed   map[string]bool
	allowList []string
	loopback  map[string]bool
	resolver  Resolver
	timeout   time.Duration
	maxBytes  int64
	userAgent string
	now       func() time.Time
	// plainLoopback is Options.PlainHTTPLoopback.
	plainLoopback bool
	// testDial, when set by this package's tests, replaces the dial that
	// follows every check.
	testDial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// New returns a Client for opts. It fails when a loopback host is not
// also an allowed host.
func New(opts Options) (*Client, error) {
	c := &Client{
		allowed:   map[string]bool{},
		loopback:  map[string]bool{},
		resolver:  opts.Resolver,
		timeout:   opts.Timeout,
		maxBytes:  opts.MaxBytes,
		userAgent: opts.UserAgent,
		now:       opts.Now,

		plainLoopback: opts.PlainHTTPLoopback,
	}
	if c.now == nil {
		c.now = time.Now
	}
	hosts := opts.AllowedHosts
	if hosts == nil {
		hosts = DefaultHosts
	}
	for _, h := range hosts {
		h = normalizeHost(h)
		if !c.allowed[h] {
			c.allowed[h] = true
			c.allowList = append(c.allowList, h)
		}
	}
	for _, h := range opts.LoopbackHosts {
		h = normalizeHost(h)
		if !c.allowed[h] {
			return nil, fmt.Errorf("fetch: loopback host %q is not an allowed host", h)
		}
		c.loopback[h] = true
	}
	if c.resolver == nil {
		c.resolver = net.DefaultResolver
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxBytes <= 0 {
		c.maxBytes = DefaultMaxBytes
	}
	if c.userAgent == "" {
		c.userAgent = "kepbot"
	}
	c.http = &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // never from the environment
			DialContext:            c.dialContext,
			TLSClientConfig:        &tls.Config{RootCAs: opts.RootCAs, MinVersion: tls.VersionTLS12},
			ForceAttemptHTTP2:      true,
			DisableCompression:     true, // the cap counts the bytes as sent; no transparent gunzip
			MaxIdleConns:           2,
			IdleConnTimeout:        30 * time.Second,
			TLSHandshakeTimeout:    30 * time.Second,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: c.checkRedirect,
	}
	return c, nil
}

// checkRedirect re-applies checkURL to every redirect, allows at most
// MaxRedirects, and drops the Referer header (it would carry the previous
// URL's query to the next host).
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	req.Header.Del("Referer")
	if len(via) > MaxRedirects {
		return refuse("stopped after %d redirects", MaxRedirects)
	}
	if _, err := c.checkURL(req.URL.String()); err != nil {
		return refuse("redirect to %s: %v", Redact(req.URL.String()), err)
	}
	return nil
}

// Close lets go of idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// The errors a fetch fails with, found with errors.Is. ErrNotAllowed is in
// guard.go.
var (
	ErrTimeout  = errors.New("timed out")
	ErrTooLarge = errors.New("too large")
	ErrStatus   = errors.New("unexpected HTTP status")
)

// Error is what Get and reads of a Response's Body fail with: the URL,
// redacted, and what went wrong.
type Error struct {
	URL string
	Err error
}

func (e *Error) Error() string { return "fetch " + e.URL + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// StatusError is an HTTP status other than 200 and 304, with when the
// server says to ask again.
type StatusError struct {
	Code   int
	Status string // "500 Internal Server Error"
	// RetryAfter is when the server says to try again: from Retry-After
	// (seconds or an HTTP date), or GitHub's X-RateLimit-Reset when
	// X-RateLimit-Remaining is 0. Zero when it says nothing.
	RetryAfter time.Time
	// RateLimited is true for GitHub's 403 or 429 with no requests left,
	// and for any 429.
	RateLimited bool
}

func (e *StatusError) Error() string {
	s := "the server answered HTTP " + e.Status
	if e.RateLimited {
		s += " (rate limited"
		if !e.RetryAfter.IsZero() {
			s += " until " + e.RetryAfter.UTC().Format(time.RFC3339)
		}
		s += ")"
	}
	return s
}
func (e *StatusError) Is(target error) bool { return target == ErrStatus }
