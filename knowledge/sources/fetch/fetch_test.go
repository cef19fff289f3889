package fetch

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// testServer is a local TLS server whose handler the test sets, and which
// records the headers of every request.
type testServer struct {
	*httptest.Server
	mu      sync.Mutex
	headers []http.Header
}

func newTestServer(t *testing.T, h http.HandlerFunc) *testServer {
	t.Helper()
	ts := &testServer{}
	ts.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.mu.Lock()
		ts.headers = append(ts.headers, r.Header.Clone())
		ts.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *testServer) requests() []http.Header {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]http.Header(nil), ts.headers...)
}

// client returns a Client that may fetch from ts (at 127.0.0.1, allowed to
// be loopback) and trusts its certificate.
func (ts *testServer) client(t *testing.T, opts Options) *Client {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(ts.Certificate())
	opts.AllowedHosts = append(opts.AllowedHosts, "127.0.0.1")
	opts.LoopbackHosts = append(opts.LoopbackHosts, "127.0.0.1")
	opts.RootCAs = pool
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func readAll(t *testing.T, r *Response) ([]byte, error) {
	t.Helper()
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}

func TestGetAndNotModified(t *testing.T) {
	payload := bytes.Repeat([]byte("tarball bytes "), 1000)
	ts := newTestServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(payload)
	})
	c := ts.client(t, Options{})
	resp, err := c.Get(t.Context(), ts.URL+"/tarball", "")
	if err != nil {
		t.Fatal(err)
	}
	if resp.NotModified || resp.ETag != `"v1"` || resp.URL != ts.URL+"/tarball" {
		t.Errorf("response %+v", resp)
	}
	got, err := readAll(t, resp)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("body: %d bytes, %v; want the %d bytes served", len(got), err, len(payload))
	}

	resp, err = c.Get(t.Context(), ts.URL+"/tarball", `"v1"`)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.NotModified || resp.Body != nil || resp.ETag != `"v1"` {
		t.Errorf("conditional get: %+v; want NotModified without a body", resp)
	}
	reqs := ts.requests()
	if len(reqs) != 2 || reqs[0].Get("If-None-Match") != "" || reqs[1].Get("If-None-Match") != `"v1"` {
		t.Errorf("If-None-Match sent: %q", []string{reqs[0].Get("If-None-Match"), reqs[1].Get("If-None-Match")})
	}
	if ua := reqs[0].Get("User-Agent"); ua != "kepbot" {
		t.Errorf("User-Agent %q", ua)
	}
	if ae := reqs[0].Get("Accept-Encoding"); ae != "" {
		t.Errorf("Accept-Encoding %q; want none, so the cap counts bytes as sent", ae)
	}
}

// TestFailures serves each kind of bad answer: every one must be an *Error
// that says what failed.
func TestFailures(t *testing.T) {
	big := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(100<<20))
		chunk := make([]byte, 64<<10)
		for range (100 << 20) / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
	chunked := func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		for range (100 << 20) / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}
	slowHeaders := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	slowBody := func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		etag    string
		kind    error
		want    string
		inBody  bool // the error comes from reading the body
	}{
		{"server error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) },
			"", ErrStatus, "the server answered HTTP 500 Internal Server Error", false},
		{"not found", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			"", ErrStatus, "HTTP 404 Not Found", false},
		{"304 unasked", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(304) },
			"", ErrStatus, "HTTP 304 Not Modified", false},
		{"declared too large", big, "", ErrTooLarge, "the server says the file is 104857600 bytes, over the cap of 1048576", false},
		{"streamed too large", chunked, "", ErrTooLarge, "the file is over the cap of 1048576 bytes", true},
		{"slow headers", slowHeaders, "", ErrTimeout, "timed out after 300ms", false},
		{"slow body", slowBody, "", ErrTimeout, "read the body: timed out after 300ms", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, tc.handler)
			c := ts.client(t, Options{MaxBytes: 1 << 20, Timeout: 300 * time.Millisecond})
			start := time.Now()
			resp, err := c.Get(t.Context(), ts.URL+"/x?token=s3cr3t", tc.etag)
			if tc.inBody {
				if err != nil {
					t.Fatalf("Get: %v", err)
				}
				_, err = readAll(t, resp)
			}
			t.Logf("%v after %v", err, time.Since(start))
			var fe *Error
			if !errors.As(err, &fe) || !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want a *fetch.Error wrapping %v and saying %q", err, tc.kind, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "fetch "+ts.URL+"/x: ") || strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("error %q does not name the redacted URL", err)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %v; the timeout is 300ms", time.Since(start))
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	var ts *testServer
	ts = newTestServer(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		switch {
		case r.URL.Path == "/final":
			w.Header().Set("ETag", `"final"`)
			fmt.Fprint(w, "arrived")
		case r.URL.Path == "/metadata":
			http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/?token=s3cr3t", http.StatusFound)
		case r.URL.Path == "/plain":
			http.Redirect(w, r, "http://127.0.0.1/x", http.StatusFound)
		case r.URL.Path == "/userinfo":
			http.Redirect(w, r, strings.Replace(ts.URL, "https://", "https://me:s3cr3t@", 1)+"/final", http.StatusFound)
		default:
			if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &n); err != nil {
				http.NotFound(w, r)
				return
			}
			next := "/final"
			if n > 1 {
				next = fmt.Sprintf("/hop/%d", n-1)
			}
			http.Redirect(w, r, next+"?token=s3cr3t", http.StatusFound)
		}
	})
	c := ts.client(t, Options{})

	resp, err := c.Get(t.Context(), ts.URL+"/hop/5?token=first", "")
	if err != nil {
		t.Fatalf("5 redirects: %v", err)
	}
	if body, _ := readAll(t, resp); string(body) != "arrived" || resp.URL != ts.URL+"/final" || resp.ETag != `"final"` {
		t.Errorf("after 5 redirects: %q from %s, etag %s", body, resp.URL, resp.ETag)
	}
	for _, h := range ts.requests() {
		if ref := h.Get("Referer"); ref != "" {
			t.Errorf("a redirect sent Referer %q", ref)
		}
	}

	for path, want := range map[string]string{
		"/hop/6":    "stopped after 5 redirects",
		"/metadata": `redirect to https://169.254.169.254/latest/meta-data/: host "169.254.169.254" is not on the allowlist`,
		"/plain":    `redirect to http://127.0.0.1/x: only https URLs are fetched`,
		"/userinfo": "user name or password",
	} {
		_, err := c.Get(t.Context(), ts.URL+path, "")
		if !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a refusal saying %q", path, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error repeats a secret: %v", path, err)
		}
	}
}

func TestRefusedURLsNeverReachTheServer(t *testing.T) {
	ts := newTestServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hi") })
	c := ts.client(t, Options{})
	for _, raw := range []string{
		strings.Replace(ts.URL, "https://", "http://", 1) + "/x",
		strings.Replace(ts.URL, "https://", "https://user:s3cr3t@", 1) + "/x",
		strings.Replace(ts.URL, "127.0.0.1", "localhost", 1) + "/x",
		strings.Replace(ts.URL, "127.0.0.1", "127.1", 1) + "/x",
	} {
		_, err := c.Get(t.Context(), raw, "")
		if !errors.Is(err, ErrNotAllowed) {
			t.Errorf("Get(%s): %v; want a refusal", Redact(raw), err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("the error repeats a secret: %v", err)
		}
	}
	if n := len(ts.requests()); n != 0 {
		t.Errorf("the server saw %d requests; want none", n)
	}
}

// TestCallersDeadline: a deadline of the caller's that comes before the
// client's own timeout ends the fetch as a timeout, saying whose it was.
func TestCallersDeadline(t *testing.T) {
	ts := newTestServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := ts.client(t, Options{Timeout: time.Minute})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Get(ctx, ts.URL+"/slow", "")
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "timed out before its own 1m0s: the caller's deadline came first") {
		t.Errorf("err = %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v", took)
	}
}
