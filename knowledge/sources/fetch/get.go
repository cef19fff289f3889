package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Response is the answer to one Get.
type Response struct {
	// NotModified is true when the server answered 304 to If-None-Match:
	// nothing new, and no Body.
	NotModified bool
	// ETag is the server's entity tag, as sent (quotes included).
	ETag string
	// LastModified is the server's Last-Modified header, as sent.
	LastModified string
	// URL is the URL that answered, after redirects, redacted.
	URL string
	// Length is the declared Content-Length, or -1.
	Length int64
	// Body reads the file, failing with an *Error past the cap or the
	// timeout. The caller must close it; it is nil when NotModified.
	Body io.ReadCloser
}

// Get fetches rawURL, sending etag (when not empty) as If-None-Match. It
// returns a Response with NotModified set for a 304, and with a Body for a
// 200. Any other outcome is an *Error naming the redacted URL and wrapping
// ErrNotAllowed (the URL, a redirect or an address was refused),
// ErrTimeout, ErrTooLarge (a declared length over the cap), ErrStatus, or
// the network's error. The timeout runs from this call until the Body is
// closed.
func (c *Client) Get(ctx context.Context, rawURL, etag string) (*Response, error) {
	return c.GetIf(ctx, rawURL, Conditions{ETag: etag})
}

// Conditions are what a conditional request sends: the ETag as
// If-None-Match and the Last-Modified as If-Modified-Since, each when not
// empty. A server that has nothing new answers 304.
type Conditions struct {
	ETag         string
	LastModified string
}

// GetIf is Get with both conditions: it sends what cond holds, and reads a
// 304 as NotModified when it sent either.
func (c *Client) GetIf(ctx context.Context, rawURL string, cond Conditions) (*Response, error) {
	etag := cond.ETag
	shown := Redact(rawURL)
	u, err := c.checkURL(rawURL)
	if err != nil {
		return nil, &Error{URL: shown, Err: err}
	}
	limit := fmt.Sprintf("after %s", c.timeout)
	if d, ok := ctx.Deadline(); ok && time.Until(d) < c.timeout {
		limit = fmt.Sprintf("before its own %s: the caller's deadline came first", c.timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel()
		return nil, &Error{URL: shown, Err: refuse("not a request: %v", err)}
	}
	req.Header.Set("User-Agent", c.userAgent)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if cond.LastModified != "" {
		req.Header.Set("If-Modified-Since", cond.LastModified)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		cancel()
		return nil, &Error{URL: shown, Err: cause(ctx, err, limit)}
	}
	out := &Response{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		URL: Redact(resp.Request.URL.String()), Length: resp.ContentLength}
	switch {
	case resp.StatusCode == http.StatusNotModified && (etag != "" || cond.LastModified != ""):
		resp.Body.Close()
		cancel()
		out.NotModified = true
		if out.ETag == "" {
			out.ETag = etag
		}
		if out.LastModified == "" {
			out.LastModified = cond.LastModified
		}
		return out, nil
	case resp.StatusCode != http.StatusOK:
		resp.Body.Close()
		cancel()
		return nil, &Error{URL: out.URL, Err: statusError(resp, c.now())}
	case resp.ContentLength > c.maxBytes:
		resp.Body.Close()
		cancel()
		return nil, &Error{URL: out.URL, Err: fmt.Errorf("%w: the server says the file is %d bytes, over the cap of %d", ErrTooLarge, resp.ContentLength, c.maxBytes)}
	}
	out.Body = &body{r: resp.Body, max: c.maxBytes, ctx: ctx, cancel: cancel, limit: limit, url: out.URL}
	return out, nil
}

// statusText is "500 Internal Server Error", with the code alone when the
// server's reason phrase is odd.
func statusText(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return strconv.Itoa(resp.StatusCode) + " " + t
	}
	return strconv.Itoa(resp.StatusCode)
}

// cause turns what the http client returned into the reason to report:
// the *url.Error wrapper goes (its text holds the whole URL), a deadline
// becomes ErrTimeout saying which (limit: "after 5m0s", or the caller's), a
// refusal is kept as it is.
func cause(ctx context.Context, err error, limit string) error {
	var na *NotAllowedError
	if errors.As(err, &na) {
		return na
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w %s", ErrTimeout, limit)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err
}

// body caps and times a response body.
type body struct {
	r      io.ReadCloser
	n, max int64
	ctx    context.Context
	cancel context.CancelFunc
	limit  string // what cause says of a deadline
	url    string
}

func (b *body) Read(p []byte) (int, error) {
	if b.n > b.max {
		return 0, b.tooLarge()
	}
	if room := b.max - b.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.max {
		return 0, b.tooLarge()
	}
	if err != nil {
		// net/http may end a body with a clean io.EOF when the request's
		// context ends mid-body: a cut body must not pass for a whole one.
		if cerr := b.ctx.Err(); cerr != nil {
			err = cerr
		}
		if err != io.EOF {
			return n, &Error{URL: b.url, Err: fmt.Errorf("read the body: %w", cause(b.ctx, err, b.limit))}
		}
	}
	return n, err
}

func (b *body) tooLarge() error {
	return &Error{URL: b.url, Err: fmt.Errorf("%w: the file is over the cap of %d bytes", ErrTooLarge, b.max)}
}

// Close closes the body and ends the fetch's timeout.
func (b *body) Close() error {
	err := b.r.Close()
	b.cancel()
	return err
}

// Redact returns rawURL fit to print, store or log: without user info,
// query or fragment, any of which may carry a token. A URL that does not
// parse is not echoed at all.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User = nil
	u.RawQuery, u.ForceQuery = "", false
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// statusError reads a failed response's status and when to ask again:
// Retry-After (delta seconds or an HTTP date), or GitHub's rate-limit
// headers (X-RateLimit-Remaining 0 and X-RateLimit-Reset, epoch seconds).
func statusError(resp *http.Response, now time.Time) *StatusError {
	e := &StatusError{Code: resp.StatusCode, Status: statusText(resp)}
	h := resp.Header
	if ra := strings.TrimSpace(h.Get("Retry-After")); ra != "" {
		if secs, err := strconv.Atoi(ra); err == nil && secs >= 0 {
			e.RetryAfter = now.Add(time.Duration(min(secs, 86400)) * time.Second)
		} else if t, err := http.ParseTime(ra); err == nil {
			e.RetryAfter = t
		}
	}
	if h.Get("X-RateLimit-Remaining") == "0" && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests) {
		e.RateLimited = true
		if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil && e.RetryAfter.IsZero() {
			if t := time.Unix(reset, 0); t.After(now) && t.Before(now.Add(24*time.Hour)) {
				e.RetryAfter = t
			}
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		e.RateLimited = true
	}
	return e
}
