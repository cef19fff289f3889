package download

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// testWords are a platform's sentences, each telling which it is.
var testWords = Words{
	Host:     "host sentence",
	Request:  "request sentence",
	Redirect: "redirect sentence",
	Timeout:  "took longer than %s",
	Network:  "network sentence",
	Status: func(code int) error {
		if code == http.StatusNotFound {
			return Fail("gone", "gone sentence (HTTP %d)", code)
		}
		return Fail("status", "status sentence (HTTP %d)", code)
	},
}

// testGuard allows the files host over https and srv (the API base).
func testGuard(srv *httptest.Server) *Guard {
	g := &Guard{
		Hosts:        []string{"files.example.com", "cdn.example.net"},
		MaxBytes:     1 << 10,
		Timeout:      time.Second,
		MaxRedirects: 2,
		Words:        testWords,
	}
	if srv != nil {
		g.APIURL = srv.URL + "/api/"
	}
	return g
}

// get downloads path from srv through g and returns the text, or the
// *Error's reason and sentence.
func get(t *testing.T, g *Guard, srv *httptest.Server, path string, header http.Header) (text, reason, msg string) {
	t.Helper()
	b, err := g.Get(context.Background(), g.Client(nil), srv.URL+path, header)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("GET %s: %v is no *Error", path, err)
		}
		if strings.Contains(e.Msg, srv.URL) || strings.Contains(e.Error(), srv.URL) || strings.Contains(e.Msg, path) {
			t.Errorf("GET %s: the error holds the URL: %q", path, e.Msg)
		}
		return "", e.Reason, e.Msg
	}
	return string(b), "", ""
}

func TestAllowed(t *testing.T) {
	g := testGuard(nil)
	g.APIURL = "http://127.0.0.1:8080/api/"
	for raw, want := range map[string]bool{
		"https://files.example.com/a/x.yaml?sig=1": true,
		"https://FILES.example.com/x.yaml":         true,
		"https://cdn.example.net/x.yaml":           true,
		"https://files.example.com:443/x":          true,
		"http://files.example.com/x":               false,
		"https://files.example.com:8443/x":         false,
		"https://files.example.com.evil.example/x": false,
		"https://evil.example/files.example.com/x": false,
		"https://user:pw@files.example.com/x":      false,
		"https://files.example.com@evil.example/x": false,
		"https://example.com/x":                    false,
		"http://127.0.0.1:8080/files/x":            true,  // the API base's host
		"https://127.0.0.1:8080/files/x":           false, // not its scheme
		"http://127.0.0.1:8081/files/x":            false, // not its port
		"http://user@127.0.0.1:8080/files/x":       false,
	} {
		u, err := url.Parse(raw)
		if got := err == nil && g.Allowed(u); got != want {
			t.Errorf("Allowed(%s) = %v, want %v", raw, got, want)
		}
	}
	if g.Allowed(nil) {
		t.Error("Allowed(nil)")
	}
	if (&Guard{}).Allowed(&url.URL{Scheme: "https", Host: "files.example.com"}) {
		t.Error("a zero Guard allows a URL")
	}
	for _, raw := range []string{"", "::", "https://evil.example/x"} {
		if _, err := g.Check(raw); Reason(err) != "host" || g.UserError(err).Error() != "host sentence" {
			t.Errorf("Check(%q) = %v, want the host refusal", raw, err)
		}
	}
}

func TestGet(t *testing.T) {
	var auth atomic.Value
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		_, _ = w.Write([]byte("apiVersion: v1\n"))
	})
	mux.HandleFunc("/bom", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("\xef\xbb\xbfkind: Pod\n")) })
	mux.HandleFunc("/nul", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("kind: Pod\x00\n")) })
	mux.HandleFunc("/png", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("\x89PNG\r\n\x1a\n")) })
	mux.HandleFunc("/utf16", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("\xff\xfek\x00i\x00")) })
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(strings.Repeat("a", 1<<10))) })
	mux.HandleFunc("/declared", func(w http.ResponseWriter, r *http.Request) {
		body := strings.Repeat("a", 3<<10)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write([]byte(body))
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		for range 8 { // flushed: no Content-Length
			_, _ = w.Write([]byte(strings.Repeat("b", 512)))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/teapot", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	g := testGuard(srv)

	for _, tc := range []struct {
		path, text, reason, msg string
	}{
		{path: "/ok", text: "apiVersion: v1\n"},
		{path: "/bom", text: "kind: Pod\n"},
		{path: "/exact", text: strings.Repeat("a", 1<<10)},
		{path: "/nul", reason: "binary", msg: "That file is not text (it holds bytes that are not UTF-8 text). Attach a YAML or JSON file saved as UTF-8."},
		{path: "/png", reason: "binary", msg: "That file is not text"},
		{path: "/utf16", reason: "binary", msg: "saved as UTF-8"},
		{path: "/declared", reason: "too_large", msg: "That file is 3 KiB; I scan files of up to 1 KiB. Split it, or attach only the manifests you upgrade."},
		{path: "/chunked", reason: "too_large", msg: "That file is larger than 1 KiB, the most I scan. Split it, or attach only the manifests you upgrade."},
		{path: "/missing", reason: "gone", msg: "gone sentence (HTTP 404)"},
		{path: "/teapot", reason: "status", msg: "status sentence (HTTP 418)"},
	} {
		text, reason, msg := get(t, g, srv, tc.path, http.Header{"Authorization": {"Bearer t"}})
		if text != tc.text || reason != tc.reason || !strings.Contains(msg, tc.msg) {
			t.Errorf("GET %s = %q, %s %q; want %q, %s %q", tc.path, text, reason, msg, tc.text, tc.reason, tc.msg)
		}
	}
	if got, _ := auth.Load().(string); got != "Bearer t" {
		t.Errorf("the download carried Authorization %q", got)
	}

	// Inspect sees the body within the cap, before the text check.
	g.Inspect = func(h http.Header, body []byte) error {
		if string(body) == "apiVersion: v1\n" {
			return Fail("inspected", "inspected sentence")
		}
		return nil
	}
	if _, reason, _ := get(t, g, srv, "/ok", nil); reason != "inspected" {
		t.Errorf("Inspect: reason %q", reason)
	}
	if _, reason, _ := get(t, g, srv, "/png", nil); reason != "binary" {
		t.Errorf("after Inspect: reason %q", reason)
	}
}

// TestGetHosts: a URL off the allowed hosts is refused without a request,
// and the header (a token) goes nowhere else.
func TestGetHosts(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	g := testGuard(nil)
	_, err := g.Get(context.Background(), g.Client(nil), other.URL+"/x", http.Header{"Authorization": {"Bearer t"}})
	if Reason(err) != "host" {
		t.Errorf("Get from another host: %v", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
}

func TestRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = w.Write([]byte("stolen: true\n"))
	}))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("kind: Pod\n")) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/stolen", http.StatusFound)
	})
	mux.HandleFunc("/hop/", func(w http.ResponseWriter, r *http.Request) { // /hop/n redirects n times, then serves the file
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		if n == 0 {
			http.Redirect(w, r, "/file", http.StatusFound)
			return
		}
		http.Redirect(w, r, "/hop/"+strconv.Itoa(n-1), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	g := testGuard(srv) // MaxRedirects 2

	if text, reason, _ := get(t, g, srv, "/hop/1", nil); text != "kind: Pod\n" || reason != "" {
		t.Errorf("two redirects within the host: %q, %s", text, reason)
	}
	if _, reason, msg := get(t, g, srv, "/hop/2", nil); reason != "redirect" || msg != "redirect sentence" {
		t.Errorf("three redirects: %s %q", reason, msg)
	}
	if _, reason, msg := get(t, g, srv, "/away", nil); reason != "redirect" || msg != "redirect sentence" {
		t.Errorf("a redirect to another host: %s %q", reason, msg)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
}

func TestTimeout(t *testing.T) {
	stall := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/headers" {
			select {
			case <-stall:
			case <-r.Context().Done():
			}
			return
		}
		_, _ = w.Write([]byte("apiVersion: v1\n"))
		w.(http.Flusher).Flush()
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(stall)
	g := testGuard(srv)
	g.Timeout = 200 * time.Millisecond
	for _, path := range []string{"/body", "/headers"} {
		start := time.Now()
		_, reason, msg := get(t, g, srv, path, nil)
		if reason != "timeout" || msg != "took longer than 200ms" {
			t.Errorf("%s: %s %q", path, reason, msg)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %s", path, d)
		}
	}
}

func TestNetwork(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	g := testGuard(srv)
	srv.Close() // nothing listens any more
	if _, err := g.Get(context.Background(), g.Client(nil), srv.URL+"/x", nil); Reason(err) != "network" || g.UserError(err).Error() != "network sentence" {
		t.Errorf("a closed server: %v", err)
	}
}

func TestRefusalsBeforeDownload(t *testing.T) {
	g := testGuard(nil)
	if err := g.TooLarge(1 << 10); err != nil {
		t.Errorf("TooLarge(max) = %v", err)
	}
	if err := g.TooLarge(2 << 20); Reason(err) != "too_large" || !strings.Contains(g.UserError(err).Error(), "That file is 2 MiB; I scan files of up to 1 KiB.") {
		t.Errorf("TooLarge(2 MiB) = %v", g.UserError(err))
	}
	for ct, want := range map[string]string{"image/png": "binary", "video/mp4": "binary", "audio/ogg": "binary", "text/yaml": "download", "": "download", "application/json": "download"} {
		if got := Reason(Media(ct)); got != want || (want == "download") != (Media(ct) == nil) {
			t.Errorf("Media(%q): %s, want %s", ct, got, want)
		}
	}
	if err := OneFile(3); !strings.Contains(g.UserError(err).Error(), "that message has 3.") {
		t.Errorf("OneFile(3) = %v", g.UserError(err))
	}
}

func TestUserError(t *testing.T) {
	g := testGuard(nil)
	for _, tc := range []struct {
		err       error
		want, why string
	}{
		{Fail("r", "sentence %d", 1), "sentence 1", "r"},
		{errors.Join(errors.New("wrapped"), Fail("r2", "second")), "second", "r2"},
		{errors.New("https://files.example.com/secret"), "network sentence", "download"},
	} {
		ue := g.UserError(tc.err)
		if ue.Error() != tc.want || knowledge.ErrorCode(ue) != knowledge.EBADINPUT {
			t.Errorf("UserError(%v) = %v (%s), want %q", tc.err, ue, knowledge.ErrorCode(ue), tc.want)
		}
		if got := Reason(tc.err); got != tc.why {
			t.Errorf("Reason(%v) = %q, want %q", tc.err, got, tc.why)
		}
	}
}

func TestSizeWords(t *testing.T) {
	for n, want := range map[int64]string{1 << 20: "1 MiB", 2 << 20: "2 MiB", 3 << 19: "1.5 MiB", 700 << 10: "700 KiB", 100: "100 bytes"} {
		if got := sizeWords(n); got != want {
			t.Errorf("sizeWords(%d) = %q, want %q", n, got, want)
		}
	}
}
