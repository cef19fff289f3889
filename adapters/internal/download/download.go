package download

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
)

// What every platform takes: the adapters' exported constants are these.
const (
	// MaxBytes is the largest file kepbot scans: the manifest reader's cap
	// for chat (manifest.ChatLimits).
	MaxBytes = 1 << 20
	// DefaultTimeout bounds one download, from the request to the last
	// byte.
	DefaultTimeout = 10 * time.Second
	// MaxRedirects is how many redirects within the platform's own hosts
	// a download follows.
	MaxRedirects = 3
)

// Guard is how one platform downloads the file of a scan. Set every field
// but Inspect; a zero Guard refuses every URL. A Guard is not changed
// once in use.
type Guard struct {
	// Hosts are the hosts files are downloaded from, over https on port
	// 443, written in lower case.
	Hosts []string
	// APIURL is the platform's configured API base, or "": its scheme and
	// host (with the port) are allowed too, for a proxy or a test server.
	APIURL string
	// MaxBytes is the largest file downloaded.
	MaxBytes int64
	// Timeout bounds one download, from the request to the last byte.
	Timeout time.Duration
	// MaxRedirects is how many redirects within the allowed hosts a
	// download follows.
	MaxRedirects int
	// Words are the platform's sentences.
	Words Words
	// Inspect, if not nil, looks at a body within MaxBytes before it is
	// checked for text, and refuses it with an error (an *Error, made
	// with Fail) or passes it with nil.
	Inspect func(header http.Header, body []byte) error
}

// Words are the sentences a person is shown that name the platform or say
// what to do on it. Timeout takes the timeout (%s); the rest are shown as
// they are.
type Words struct {
	// Host: the file is not on an allowed host.
	Host string
	// Request: the request could not be made.
	Request string
	// Redirect: the host sent the download on to another host, or
	// redirected more than MaxRedirects times.
	Redirect string
	// Timeout: the download took longer than the timeout (%s).
	Timeout string
	// Network: the request or the read failed otherwise; also what an
	// error not of this package is shown as (UserError).
	Network string
	// Status is the error of an answer other than 200 OK, made with Fail.
	Status func(code int) error
}

// Error is a download refused or failed.
type Error struct {
	// Reason is a short word for logs and metrics ("too_large").
	Reason string
	// Msg is the sentence the person is shown.
	Msg string
}

// Error returns the reason: never the URL, name or content of the file.
func (e *Error) Error() string { return e.Reason }

// Fail returns the *Error of reason, its sentence formatted from format.
func Fail(reason, format string, args ...any) error {
	return &Error{Reason: reason, Msg: fmt.Sprintf(format, args...)}
}

// fail returns the *Error of reason with msg as it is.
func fail(reason, msg string) error { return &Error{Reason: reason, Msg: msg} }

// Reason is err's reason for logs and metrics: "download" for an error
// not of this package.
func Reason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return "download"
}

// For returns a copy of g with the adapter's configured API base (a
// proxy or a test server, allowed too) and download timeout.
func (g Guard) For(apiURL string, timeout time.Duration) *Guard {
	g.APIURL = apiURL
	g.Timeout = timeout
	return &g
}

// UserError turns a refused or failed download into the error the person
// sees: bad input, with the *Error's sentence or else Words.Network.
func (g *Guard) UserError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return knowledge.Errorf(knowledge.EBADINPUT, "%s", e.Msg)
	}
	return knowledge.Errorf(knowledge.EBADINPUT, "%s", g.Words.Network)
}

// errRedirectElsewhere stops a download redirected off the allowed hosts
// (or too often); Get tells it by Words.Redirect.
var errRedirectElsewhere = errors.New("redirect to a host that is not allowed")

// Allowed reports whether a download may go to u: https on one of Hosts
// (port 443), or the scheme and host of APIURL; never with user info.
func (g *Guard) Allowed(u *url.URL) bool {
	if u == nil || u.User != nil {
		return false
	}
	if u.Scheme == "https" && slices.Contains(g.Hosts, strings.ToLower(u.Hostname())) && (u.Port() == "" || u.Port() == "443") {
		return true
	}
	if g.APIURL != "" {
		if api, err := url.Parse(g.APIURL); err == nil && api.Host != "" && strings.EqualFold(api.Host, u.Host) && u.Scheme == api.Scheme {
			return true
		}
	}
	return false
}

// Check parses rawURL and refuses it, with Words.Host, unless Allowed.
func (g *Guard) Check(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if rawURL == "" || err != nil || !g.Allowed(u) {
		return nil, fail("host", g.Words.Host)
	}
	return u, nil
}

// Client is the client downloads go through: transport t (nil: Go's
// default), redirects followed only to URLs Allowed accepts and at most
// MaxRedirects of them, and no timeout of its own (Get gives each
// download's context one).
func (g *Guard) Client(t http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: t,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > g.MaxRedirects || !g.Allowed(req.URL) {
				return errRedirectElsewhere
			}
			return nil
		},
	}
}

// TooLarge refuses a file the platform says is size bytes when that is
// more than MaxBytes; otherwise it returns nil.
func (g *Guard) TooLarge(size int64) error {
	if size > g.MaxBytes {
		return g.tooLarge(size)
	}
	return nil
}

func (g *Guard) tooLarge(size int64) error {
	return Fail("too_large", "That file is %s; I scan files of up to %s. Split it, or attach only the manifests you upgrade.", sizeWords(size), sizeWords(g.MaxBytes))
}

// Media refuses, before any download, a file whose MIME type (as the
// platform gives it; the registry's types are lower case) is an image,
// a video or audio; otherwise it returns nil.
func Media(mimetype string) error {
	if strings.HasPrefix(mimetype, "image/") || strings.HasPrefix(mimetype, "video/") || strings.HasPrefix(mimetype, "audio/") {
		return fail("binary", "That file is not text. Attach a YAML or JSON file saved as UTF-8.")
	}
	return nil
}

// OneFile refuses a scan message with n files (n > 1): one file a message
// is scanned.
func OneFile(n int) error {
	return Fail("several_files", "I scan one file a message, and that message has %d. Send them one at a time, or put the manifests into one file.", n)
}

// Get downloads rawURL through c (made by Client) with header and returns
// its text: only from a URL Allowed accepts (Check), within Timeout, at
// most MaxBytes (by Content-Length and by what is read), passed by Inspect,
// and only text (Text). Every failure is an *Error.
func (g *Guard) Get(ctx context.Context, c *http.Client, rawURL string, header http.Header) ([]byte, error) {
	if _, err := g.Check(rawURL); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, g.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fail("request", g.Words.Request)
	}
	for k, v := range header {
		req.Header[k] = slices.Clone(v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, g.failed(ctx, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode != http.StatusOK:
		return nil, g.status(resp.StatusCode)
	case resp.ContentLength > g.MaxBytes:
		return nil, g.tooLarge(resp.ContentLength)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, g.MaxBytes+1))
	if err != nil {
		return nil, g.failed(ctx, err)
	}
	if int64(len(body)) > g.MaxBytes {
		return nil, Fail("too_large", "That file is larger than %s, the most I scan. Split it, or attach only the manifests you upgrade.", sizeWords(g.MaxBytes))
	}
	if g.Inspect != nil {
		if err := g.Inspect(resp.Header, body); err != nil {
			return nil, err
		}
	}
	text, ok := Text(body)
	if !ok {
		return nil, fail("binary", "That file is not text (it holds bytes that are not UTF-8 text). Attach a YAML or JSON file saved as UTF-8.")
	}
	return text, nil
}

// status is the error of an answer other than 200 OK.
func (g *Guard) status(code int) error {
	if g.Words.Status != nil {
		return g.Words.Status(code)
	}
	return fail("status", g.Words.Network)
}

// failed describes a failed request or body read without its URL.
func (g *Guard) failed(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, errRedirectElsewhere):
		return fail("redirect", g.Words.Redirect)
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return fail("timeout", fmt.Sprintf(g.Words.Timeout, g.Timeout))
	}
	return fail("network", g.Words.Network)
}

// Text returns b without a UTF-8 byte order mark when it is text: valid
// UTF-8 without NUL bytes. UTF-16 files, images and archives are not.
func Text(b []byte) ([]byte, bool) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		return nil, false
	}
	return b, true
}

// sizeWords writes n bytes as "1 MiB", "2.0 MiB" or "700 KiB".
func sizeWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
