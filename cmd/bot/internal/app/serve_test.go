package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	kengine "github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/store/storetest"
)

const signingSecret = "8f14e45fceea167a5a36dedd4bea2543"

// engine opens a bbolt file in a temporary folder, loads the snapshot
// and returns the knowledge engine over it, with the store's readiness.
func engine(t *testing.T) (*kengine.Engine, func() error) {
	t.Helper()
	db := storetest.SnapshotDB(t)
	ready := func() error {
		empty, err := db.Knowledge().IsEmpty(context.Background())
		if err == nil && empty {
			err = errors.New("no knowledge loaded")
		}
		return err
	}
	return kengine.New(db.Knowledge()), ready
}

// httpConfig is a config with the Slack HTTP endpoints only.
func httpConfig(t *testing.T) *config.Config {
	t.Helper()
	c, err := config.Load("", func(k string) string {
		return map[string]string{"SLACK_SIGNING_SECRET": signingSecret, "BOT_SHUTDOWN_TIMEOUT": "5s"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// started is a running app.Run.
type started struct {
	base     string
	stop     context.CancelFunc
	done     chan error
	m        *metrics.Metrics
	mu       sync.Mutex
	finished bool
	err      error
}

// wait returns what Run returned, waiting up to 10 s; ok is false when it
// has not returned by then.
func (s *started) wait() (err error, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.finished {
		select {
		case s.err = <-s.done:
			s.finished = true
		case <-time.After(10 * time.Second):
			return nil, false
		}
	}
	return s.err, true
}

// withSlack adds the Slack adapter d.Config asks for, over ans and
// recording into d.Metrics (made here when nil), as cmd/bot builds it.
func withSlack(t *testing.T, d Deps, ans knowledge.Answerer) Deps {
	t.Helper()
	if d.Metrics == nil {
		d.Metrics = metrics.New("test")
	}
	if d.Config.SlackSocketMode() || d.Config.SlackHTTP() {
		sc := d.Config.Slack
		cfg := slack.Config{BotToken: sc.BotToken, AppToken: sc.AppToken, APIURL: sc.APIURL, Command: sc.Command, Debug: sc.Debug,
			SubscriptionManagers: sc.SubscriptionManagers, AllowReplays: sc.AllowReplays}
		for _, sec := range []slack.Secret{sc.SigningSecret, sc.SigningSecretPrevious} {
			if !sec.IsZero() {
				cfg.SigningSecrets = append(cfg.SigningSecrets, sec)
			}
		}
		s, err := slack.NewAdapter(cfg, ans, d.Logger, slack.WithRecorder(d.Metrics))
		if err != nil {
			t.Fatal(err)
		}
		d.Adapters = append([]Adapter{s}, d.Adapters...)
	}
	return d
}

// start runs Run with d and the Slack adapter its config asks for, over
// ans, on a free port.
func start(t *testing.T, d Deps, ans knowledge.Answerer) *started {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d = withSlack(t, d, ans)
	d.Listener = ln
	ctx, cancel := context.WithCancel(context.Background())
	s := &started{base: "http://" + ln.Addr().String(), stop: cancel, done: make(chan error, 1), m: d.Metrics}
	go func() { s.done <- Run(ctx, d) }()
	t.Cleanup(func() {
		cancel()
		if _, ok := s.wait(); !ok {
			t.Error("Run did not return")
		}
	})
	return s
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// slash sends a signed /k8s command, as Slack does.
func slash(t *testing.T, base, text string) (int, string) {
	t.Helper()
	body := url.Values{"team_id": {"T1"}, "channel_id": {"C1"}, "user_id": {"U1"}, "command": {"/k8s"}, "text": {text},
		"response_url": {"https://hooks.slack.com/commands/T1/1/x"}}.Encode()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(signingSecret))
	mac.Write([]byte("v0:" + ts + ":" + body))
	req, _ := http.NewRequest(http.MethodPost, base+"/slack/commands", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestNoAdapters(t *testing.T) {
	c, _ := config.Load("", func(string) string { return "" })
	if c.HasAdapters() {
		t.Fatal("HasAdapters with nothing set")
	}
	err := Run(context.Background(), Deps{Config: c, Logger: zerolog.Nop()})
	if !errors.Is(err, ErrNoAdapters) || !strings.Contains(err.Error(), "SLACK_APP_TOKEN") || !strings.Contains(err.Error(), "SLACK_SIGNING_SECRET") {
		t.Errorf("Run = %v, want ErrNoAdapters naming what to set", err)
	}
}

// TestServe runs the whole server over the real engine: health, readiness
// that follows the database, a signed slash command, and its metrics.
func TestServe(t *testing.T) {
	eng, ready := engine(t)
	var notReady atomic.Bool
	s := start(t, Deps{Config: httpConfig(t), Logger: zerolog.Nop(), Ready: func() error {
		if notReady.Load() {
			return errors.New("database closed")
		}
		return ready()
	}}, eng)
	waitUp(t, s.base)

	if code, body := get(t, s.base+"/readyz"); code != 200 || !strings.HasPrefix(body, `{"status":"ready","platforms":{"slack":{"state":"up","since":`) {
		t.Errorf("/readyz = %d %q", code, body)
	}
	notReady.Store(true)
	if code, body := get(t, s.base+"/readyz"); code != 503 || !strings.HasPrefix(body, `{"status":"not ready","reason":"database closed",`) {
		t.Errorf("/readyz not ready = %d %q", code, body)
	}
	if code, body := slash(t, s.base, "kep 4639"); code != 200 || !strings.Contains(body, `"blocks"`) || !strings.Contains(body, "4639") {
		t.Errorf("slash = %d %s", code, body)
	}
	if code, body := slash(t, s.base, "1.29 ga"); code != 200 || !strings.Contains(body, "1.29") {
		t.Errorf("slash 1.29 ga = %d %s", code, body)
	}
	code, body := get(t, s.base+"/metrics")
	if code != 200 || !strings.Contains(body, `kepbot_questions_total{kind="kep",platform="slack"} 1`) ||
		!strings.Contains(body, `kepbot_answer_duration_seconds_count{platform="slack"} 2`) {
		t.Errorf("/metrics = %d, lacks the two answers:\n%s", code, grep(body, "kepbot_"))
	}
	if code, _ := get(t, s.base+"/slack/commands"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /slack/commands = %d, want 405", code)
	}
	s.stop()
	if err, ok := s.wait(); !ok || err != nil {
		t.Errorf("Run after a stop = %v (returned %v), want nil", err, ok)
	}
}

func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func waitUp(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// slowAnswerer answers after a delay and says when it has started.
type slowAnswerer struct {
	knowledge.Answerer
	delay   time.Duration
	started chan struct{}
	once    sync.Once
}

func (s *slowAnswerer) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	s.once.Do(func() { close(s.started) })
	time.Sleep(s.delay)
	return s.Answerer.Answer(ctx, q)
}

// TestStopFinishesInFlight stops the server while a slash command is being
// answered: that answer still arrives, readiness turns 503 at once, and
// Run returns only after.
func TestStopFinishesInFlight(t *testing.T) {
	eng, _ := engine(t)
	slow := &slowAnswerer{Answerer: eng, delay: 500 * time.Millisecond, started: make(chan struct{})}
	s := start(t, Deps{Config: httpConfig(t), Logger: zerolog.Nop()}, slow)
	waitUp(t, s.base)
	type result struct {
		code int
		body string
	}
	res := make(chan result, 1)
	go func() {
		code, body := slash(t, s.base, "kep 4639")
		res <- result{code, body}
	}()
	<-slow.started
	s.stop()
	r := <-res
	if r.code != 200 || !strings.Contains(r.body, "4639") {
		t.Errorf("the answer in flight = %d %s", r.code, r.body)
	}
	if err, ok := s.wait(); !ok || err != nil {
		t.Fatalf("Run = %v (returned %v), want nil after the answer in flight", err, ok)
	}
	if _, err := http.Get(s.base + "/healthz"); err == nil {
		t.Error("the server still takes requests after Run returned")
	}
}

// failingAdapter stands for a platform that refuses its token.
type failingAdapter struct{}

func (failingAdapter) Name() string                  { return "discord" }
func (failingAdapter) Run(ctx context.Context) error { return errors.New("token revoked") }

// mountedAdapter stands for the Discord adapter: its own route on the mux.
type mountedAdapter struct{ ran atomic.Bool }

func (m *mountedAdapter) Name() string { return "discord" }
func (m *mountedAdapter) Run(ctx context.Context) error {
	m.ran.Store(true)
	<-ctx.Done()
	return nil
}
func (m *mountedAdapter) Mount(mux *http.ServeMux) {
	mux.HandleFunc("POST /discord/interactions", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("pong")) })
}

func TestAdapterFailureStopsServe(t *testing.T) {
	eng, _ := engine(t)
	s := start(t, Deps{Config: httpConfig(t), Logger: zerolog.Nop(), Adapters: []Adapter{failingAdapter{}}}, eng)
	err, ok := s.wait()
	if !ok {
		t.Fatal("Run kept going after an adapter failed")
	}
	if err == nil || !strings.Contains(err.Error(), "discord: token revoked") {
		t.Errorf("Run = %v, want the adapter's failure", err)
	}
}

func TestExtraAdapterMountsRoutes(t *testing.T) {
	eng, _ := engine(t)
	c, _ := config.Load("", func(string) string { return "" }) // no Slack: the extra adapter alone
	extra := &mountedAdapter{}
	s := start(t, Deps{Config: c, Logger: zerolog.Nop(), Adapters: []Adapter{extra}}, eng)
	waitUp(t, s.base)
	resp, err := http.Post(s.base+"/discord/interactions", "application/json", bytes.NewReader(nil))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "pong" || !extra.ran.Load() {
		t.Errorf("extra adapter: body %q, ran %v", b, extra.ran.Load())
	}
	if code, _ := get(t, s.base+"/slack/commands"); code != http.StatusNotFound {
		t.Errorf("/slack/commands without a signing secret = %d, want 404", code)
	}
}

// routesAdapter gives its endpoints as patterns, as the Discord adapter does.
type routesAdapter struct{ mountedAdapter }

func (r *routesAdapter) Mount(*http.ServeMux) {}
func (r *routesAdapter) Routes() map[string]http.Handler {
	return map[string]http.Handler{"POST /discord/interactions": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("routed"))
	})}
}

func TestRouterAdapterAndConflicts(t *testing.T) {
	eng, _ := engine(t)
	s := start(t, Deps{Config: httpConfig(t), Logger: zerolog.Nop(), Adapters: []Adapter{&routesAdapter{}}}, eng)
	waitUp(t, s.base)
	resp, err := http.Post(s.base+"/discord/interactions", "application/json", bytes.NewReader(nil))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "routed" {
		t.Errorf("routed endpoint answered %q", b)
	}
	err = Run(context.Background(), withSlack(t, Deps{Config: httpConfig(t), Logger: zerolog.Nop(),
		Adapters: []Adapter{&routesAdapter{}, &mountedAdapter{}}}, eng))
	if err == nil || !strings.Contains(err.Error(), "conflict") {
		t.Errorf("two adapters on one route: Run = %v, want a conflict error", err)
	}
}

func TestListenFailureNamesTheKey(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	c := httpConfig(t)
	c.HTTP.Addr = busy.Addr().String()
	eng, _ := engine(t)
	err = Run(context.Background(), withSlack(t, Deps{Config: c, Logger: zerolog.Nop()}, eng))
	if err == nil || !strings.Contains(err.Error(), "BOT_HTTP_ADDR") {
		t.Errorf("Run on a busy port = %v, want an error naming BOT_HTTP_ADDR", err)
	}
}
