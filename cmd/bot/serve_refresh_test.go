package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
)

// news137 is the release notes of a release kepbot has not seen: one
// deprecation, written for this test.
const news137 = `{"140001": {"pr_number": 140001, "pr_url": "https://github.com/kubernetes/kubernetes/pull/140001",
  "kinds": ["deprecation"], "sigs": ["node"],
  "text": "Deprecated the ` + "`--widget-mode`" + ` kubelet flag; it will be removed in 1.40."}}`

// serveProcess is a `bot serve` run in this process for a test.
type serveProcess struct {
	stop func()
	done chan int
	logs *syncBuffer
	base string
}

func startServe(t *testing.T, env map[string]string) *serveProcess {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	p := &serveProcess{stop: stop, done: make(chan int, 1), logs: &syncBuffer{}, base: "http://" + env["BOT_HTTP_ADDR"]}
	go func() {
		p.done <- Main(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: io.Discard, err: p.logs, getenv: func(k string) string { return env[k] }})
	}()
	waitHealthy(t, p.base, p.done, p.logs)
	return p
}

func (p *serveProcess) shutdown(t *testing.T) {
	t.Helper()
	p.stop()
	select {
	case code := <-p.done:
		if code != exitOK {
			t.Fatalf("serve exited %d; log:\n%s", code, p.logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30 s")
	}
}

// TestServeRefreshesAndSendsDigestOfNews is issue 12's end to end: serve
// runs with a fake upstream and a fake Slack, refreshing every 2 s; the
// upstream gains a new release's notes with a deprecation; within two
// refresh intervals a subscribed channel gets one digest naming it and the
// release answers, without a restart; `bot sync` while serve runs asks it
// to refresh; after a restart nothing is sent twice.
func TestServeRefreshesAndSendsDigestOfNews(t *testing.T) {
	up := upstreamtest.Shared(t)
	fake := &fakeSlackAPI{posted: make(chan struct{}, 16)}
	api := httptest.NewServer(fake)
	defer api.Close()
	dbPath := filepath.Join(t.TempDir(), "kepbot.db")
	env := map[string]string{
		"BOT_DB": dbPath, "BOT_HTTP_ADDR": freeAddr(t), "BOT_LOG_FORMAT": "json", "BOT_REFRESH_INTERVAL": "2s",
		"SLACK_SIGNING_SECRET": testSigningSecret, "SLACK_BOT_TOKEN": "xoxb-1-serve-test", "SLACK_API_URL": api.URL + "/api/",
	}
	for k, v := range up.Env() {
		env[k] = v
	}
	p := startServe(t, env)
	// The first pass reads every source; wait until it has.
	waitFor(t, 30*time.Second, p.logs, func() bool {
		return strings.Contains(get(t, p.base+"/metrics"), `kepbot_source_last_result{result="updated",source="release-page/1.36"} 1`)
	})
	if _, body := signedSlash(t, p.base, "UADMIN", "subscribe deprecations from:1.36"); !strings.Contains(body, "Subscribed") {
		t.Fatalf("subscribe: %s", body)
	}
	fake.mu.Lock()
	before := len(fake.posts)
	fake.mu.Unlock()

	up.Set("/releases/release-1.37/release-notes/release-notes-draft.json", []byte(news137))
	start := time.Now()
	select {
	case <-fake.posted:
	case <-time.After(20 * time.Second):
		t.Fatalf("no digest within 20 s of the news; log:\n%s", p.logs.String())
	}
	took := time.Since(start)
	fake.mu.Lock()
	posts := fake.posts[before:]
	fake.mu.Unlock()
	if len(posts) != 1 || !strings.Contains(posts[0].Get("blocks"), "140001") || posts[0].Get("channel") != "C0123ABCD" {
		t.Fatalf("posts after the news: %d, first %.400v", len(posts), posts)
	}
	t.Logf("the digest of the news went out %v after it was published upstream (refresh every 2 s)", took.Round(100*time.Millisecond))
	// Alone it takes about two intervals (4.2-4.6 s with -race on a 2-core
	// machine). CI runs every package at once under the race detector, and
	// there one pass has been seen to take 3-4 s: the bound is four
	// intervals and the posting, which still fails a digest that waits for
	// a restart or misses a pass.
	if took > 4*2*time.Second+4*time.Second {
		t.Errorf("the digest took %v; want within four refresh intervals (plus posting)", took)
	}
	if _, body := signedSlash(t, p.base, "UMEMBER", "1.37 deprecations"); !strings.Contains(body, "140001") {
		t.Errorf("1.37 deprecations does not name the news: %.400s", body)
	}

	// bot sync while serve holds the database asks serve to refresh.
	var out, errb bytes.Buffer
	code := syncCommand{}.run(context.Background(), stdio{in: strings.NewReader(""), out: &out, err: &errb,
		getenv: func(k string) string { return env[k] }}, []string{"--only", "lifecycle"})
	if code != exitOK || !strings.Contains(out.String(), "The running kepbot (pid") || !strings.Contains(out.String(), "lifecycle: not modified") {
		t.Errorf("bot sync beside serve: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}

	metrics := get(t, p.base+"/metrics")
	for _, want := range []string{`kepbot_source_refreshes_total{result="updated",source="release-notes/1.37"} 1`, "kepbot_knowledge_generation ",
		`kepbot_source_not_modified_total{source="kep.yaml"}`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s:\n%s", want, grepLines(metrics, "kepbot_source"))
		}
	}
	p.shutdown(t)

	// A restart sends nothing again.
	fake.mu.Lock()
	sent := len(fake.posts)
	fake.mu.Unlock()
	p = startServe(t, env)
	time.Sleep(5 * time.Second) // two refresh intervals and the start's own trigger
	p.shutdown(t)
	fake.mu.Lock()
	again := len(fake.posts) - sent
	fake.mu.Unlock()
	if again != 0 {
		t.Errorf("%d posts after the restart; want none", again)
	}
	if strings.Contains(p.logs.String(), "xoxb-1-serve-test") {
		t.Error("a secret reached the log")
	}
}

// waitFor polls ok until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, logs *syncBuffer, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("not within %v; log:\n%s", d, logs.String())
}

func get(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestServeStaysReadyWhileSourcesFail: every upstream source fails; serve
// stays ready (stale beats down), answers from the knowledge it has, and
// once the failures are older than stale_after its answers say since when.
// Refreshing every second, it asks the failing upstream a few times, not
// thousands (issue 28), and says so in its log.
func TestServeStaysReadyWhileSourcesFail(t *testing.T) {
	up := upstreamtest.Shared(t)
	up.FaultAll(upstreamtest.Status(http.StatusBadGateway))
	env := map[string]string{
		"BOT_DB": filepath.Join(t.TempDir(), "kepbot.db"), "BOT_HTTP_ADDR": freeAddr(t), "BOT_LOG_FORMAT": "json",
		"BOT_REFRESH_INTERVAL": "1s", "BOT_STALE_AFTER": "1s", "SLACK_SIGNING_SECRET": testSigningSecret,
	}
	for k, v := range up.Env() {
		env[k] = v
	}
	start := time.Now()
	p := startServe(t, env)
	defer p.shutdown(t)
	waitFor(t, 30*time.Second, p.logs, func() bool {
		_, body := signedSlash(t, p.base, "UMEMBER", "kep 4639")
		return strings.Contains(body, "This may be out of date: I could not refresh")
	})
	_, body := signedSlash(t, p.base, "UMEMBER", "kep 4639")
	if !strings.Contains(body, "KEP-4639") || !strings.Contains(body, "kep.yaml") {
		t.Errorf("kep 4639 while every source fails: %.500s", body)
	}
	if resp, err := http.Get(p.base + "/readyz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/readyz while sources fail: %v %v; want 200", resp, err)
	}
	if !strings.Contains(p.logs.String(), "a source failed; its part of the knowledge is kept") {
		t.Errorf("the log says nothing of the failures")
	}
	took, n := time.Since(start), up.Total()
	t.Logf("%d requests in %v of 1 s refreshes", n, took.Round(100*time.Millisecond))
	if limit := 6 + 2*int(took/time.Second); n > limit { // the first pass's, then a half-open request now and then
		t.Errorf("%d requests in %v of refreshing every second; want at most %d", n, took, limit)
	}
}
