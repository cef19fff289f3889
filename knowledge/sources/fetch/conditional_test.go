package fetch

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestIfModifiedSince: a source without an ETag is asked again with its
// Last-Modified; a 304 to that is NotModified, keeping what was sent.
func TestIfModifiedSince(t *testing.T) {
	const stamp = "Wed, 21 Oct 2026 07:28:00 GMT"
	ts := newTestServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-Modified-Since") == stamp {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Last-Modified", stamp)
		w.Write([]byte("{}"))
	})
	c := ts.client(t, Options{})
	resp, err := c.GetIf(t.Context(), ts.URL+"/x.json", Conditions{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.LastModified != stamp {
		t.Fatalf("Last-Modified %q", resp.LastModified)
	}
	resp, err = c.GetIf(t.Context(), ts.URL+"/x.json", Conditions{LastModified: resp.LastModified})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.NotModified || resp.LastModified != stamp {
		t.Errorf("second get %+v; want NotModified keeping Last-Modified", resp)
	}
}

// TestRetryAfterAndRateLimit: a 503 with Retry-After, a 429, and GitHub's
// 403 with no requests left say when to ask again.
func TestRetryAfterAndRateLimit(t *testing.T) {
	now := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	reset := now.Add(37 * time.Minute)
	ts := newTestServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/busy":
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/date":
			w.Header().Set("Retry-After", now.Add(time.Hour).Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
		case "/github":
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
			w.WriteHeader(http.StatusForbidden)
		case "/forbidden":
			w.Header().Set("X-RateLimit-Remaining", "41")
			w.WriteHeader(http.StatusForbidden)
		}
	})
	c := ts.client(t, Options{Now: func() time.Time { return now }})
	tests := []struct {
		path    string
		code    int
		retry   time.Time
		limited bool
	}{
		{"/busy", 503, now.Add(2 * time.Minute), false},
		{"/date", 429, now.Add(time.Hour), true},
		{"/github", 403, reset, true},
		{"/forbidden", 403, time.Time{}, false},
	}
	for _, tt := range tests {
		_, err := c.Get(t.Context(), ts.URL+tt.path, "")
		var se *StatusError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v; want a StatusError", tt.path, err)
		}
		if se.Code != tt.code || !se.RetryAfter.Equal(tt.retry) || se.RateLimited != tt.limited {
			t.Errorf("%s: code %d, retry after %v, rate limited %v; want %d, %v, %v", tt.path, se.Code, se.RetryAfter, se.RateLimited, tt.code, tt.retry, tt.limited)
		}
		if tt.limited && !strings.Contains(err.Error(), "rate limited") {
			t.Errorf("%s: %q does not say it was rate limited", tt.path, err)
		}
	}
}

// TestPlainHTTPOnlyToLoopback: with PlainHTTPLoopback, http:// reaches a
// loopback host on the allowlist and nothing else; without it, http is
// refused everywhere.
func TestPlainHTTPOnlyToLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	t.Cleanup(srv.Close)
	c, err := New(Options{AllowedHosts: []string{"127.0.0.1", "example.com"}, LoopbackHosts: []string{"127.0.0.1"}, PlainHTTPLoopback: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := c.Get(t.Context(), srv.URL+"/x", "")
	if err != nil {
		t.Fatalf("plain http to loopback: %v", err)
	}
	resp.Body.Close()
	for raw, want := range map[string]string{
		"http://example.com/x": "plain http is fetched only from a loopback host",
		"ftp://127.0.0.1/x":    "only https URLs are fetched",
	} {
		if _, err := c.Get(t.Context(), raw, ""); !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), want) {
			t.Errorf("Get(%s): %v; want a refusal saying %q", raw, err, want)
		}
	}
	strict, err := New(Options{AllowedHosts: []string{"127.0.0.1"}, LoopbackHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	if _, err := strict.Get(t.Context(), srv.URL+"/x", ""); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("without PlainHTTPLoopback: %v; want a refusal", err)
	}
}
