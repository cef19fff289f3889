package slack

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/logging"
	"github.com/kepbot/kepbot/internal/logtest"
	"github.com/kepbot/kepbot/knowledge"
)

// Secrets the tests use. They are shaped like real ones so the log scans
// would catch them.
const (
	testSecret     = "8f14e45fceea167a5a36dedd4bea2543"
	testOldSecret  = "c9f0f895fb98ab9159f51fd0297e236d"
	testBotToken   = "xoxb-1111-2222-testBotTokenValue"
	testAppToken   = "xapp-1-A111-3333-testAppTokenValue"
	testBotUser    = "UBOT"
	testHooksURL   = "https://hooks.slack.com/commands/T1/111/secretHookPath"
	testHooksToken = "secretHookPath"
)

// fakeAnswerer is a knowledge.Answerer that answers from a table by
// question kind and records what it was asked. Unknown KEPs are misses.
type fakeAnswerer struct {
	mu    sync.Mutex
	asked []knowledge.Question
	delay time.Duration
	err   error // when set, every answer fails with it
}

func (f *fakeAnswerer) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	f.mu.Lock()
	f.asked = append(f.asked, q)
	delay, err := f.delay, f.err
	f.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	if err != nil {
		return nil, err
	}
	switch q.Kind {
	case knowledge.AskKEP:
		if q.KEP != 4639 {
			return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I don't know KEP-%d.", q.KEP)
		}
		return kepAnswer(), nil
	case knowledge.AskReleaseStage:
		return listAnswer(q.Version.String(), 30), nil
	case knowledge.AskSearch: // echoes the words, as a search title does
		return &knowledge.Answer{Kind: knowledge.KindSearch, Title: "Search: " + q.Words, Text: "No KEP matches " + q.Words + "."}, nil
	}
	return &knowledge.Answer{Kind: knowledge.KindHelp, Title: "kepbot help", Text: "Ask me about KEPs.",
		Facts: []knowledge.Fact{{Name: "kep NUMBER", Value: "one KEP"}}}, nil
}

func (f *fakeAnswerer) questions() []knowledge.Question {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]knowledge.Question(nil), f.asked...)
}

func kepAnswer() *knowledge.Answer {
	return &knowledge.Answer{
		Kind: knowledge.KindKEP, Title: "KEP-4639: OCI VolumeSource", Text: "KEP-4639 (sig-node) is beta.",
		KEP: &knowledge.KEPFacts{Number: 4639, Title: "OCI VolumeSource", SIG: "sig-node", Stage: knowledge.StageBeta,
			Milestones: map[string]string{"alpha": "1.31", "beta": "1.33"}, Targets: map[string]string{"stable": "1.35"},
			FeatureGates: []string{"ImageVolume"}, Links: []knowledge.Link{{Title: "KEP-4639", URL: "https://kep.k8s.io/4639"}},
			Timeline: []knowledge.Step{{Stage: knowledge.StageAlpha, Release: knowledge.MustVersion("1.31"), Source: "notes-1.31"},
				{Stage: knowledge.StageBeta, Release: knowledge.MustVersion("1.33"), Source: "notes-1.33"}}},
		Sources: []knowledge.SourceRef{{Name: "kep.yaml of KEP-4639", AsOf: "2025-05-01"}},
		Query:   "kep 4639",
	}
}

func listAnswer(v string, n int) *knowledge.Answer {
	a := &knowledge.Answer{Kind: knowledge.KindList, Title: "Kubernetes " + v + ": GA", Text: strconv.Itoa(n) + " KEPs went GA.", Query: v + " ga"}
	for i := range n {
		a.Items = append(a.Items, knowledge.Item{KEP: 1000 + i, Title: "Feature " + strconv.Itoa(i), Stage: knowledge.StageStable,
			Release: knowledge.MustVersion(v), SIG: "sig-node"})
	}
	return a
}

type logBuffer = logtest.Buffer

// testLogger logs at debug level through the production redactor into buf.
func testLogger(buf *logBuffer, secrets ...string) zerolog.Logger {
	return logging.New(config.Log{Level: "debug", Format: "json"}, buf, secrets...)
}

// newHTTPAdapter returns an adapter with only the HTTP endpoints.
func newHTTPAdapter(t testing.TB, ans knowledge.Answerer, opts ...Option) (*Adapter, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	cfg := Config{SigningSecrets: []config.Secret{config.NewSecret(testSecret), config.NewSecret(testOldSecret)}}
	a, err := NewAdapter(cfg, ans, testLogger(logs, testSecret, testOldSecret), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.bg.Wait)
	return a, logs
}

// sign returns Slack's v0 signature of body at ts under secret.
func sign(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("v0:" + ts + ":"))
	m.Write(body)
	return "v0=" + hex.EncodeToString(m.Sum(nil))
}

// signedRequest builds a request to path signed with secret at time at.
func signedRequest(path, contentType, secret string, at time.Time, body []byte) *http.Request {
	r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	ts := strconv.FormatInt(at.Unix(), 10)
	r.Header.Set("Content-Type", contentType)
	r.Header.Set(headerTimestamp, ts)
	r.Header.Set(headerSignature, sign(secret, ts, body))
	return r
}

// slashBody is a slash-command form as Slack sends it.
func slashBody(text, responseURL string) []byte {
	return slashBodyTrigger(text, responseURL, "1.2.3")
}

// triggers numbers the trigger_ids of freshSlashBody.
var triggers atomic.Int64

// freshSlashBody is slashBody with a trigger_id of its own, as each
// invocation Slack sends has one: two of them never sign the same, so the
// replay guard takes them for two commands however fast they come.
func freshSlashBody(text, responseURL string) []byte {
	return slashBodyTrigger(text, responseURL, "1.2."+strconv.FormatInt(triggers.Add(1), 10))
}

func slashBodyTrigger(text, responseURL, trigger string) []byte {
	v := url.Values{
		"token": {"x"}, "team_id": {"T1"}, "team_domain": {"d"}, "channel_id": {"C1"}, "channel_name": {"general"},
		"user_id": {"U1"}, "user_name": {"u"}, "command": {"/k8s"}, "text": {text}, "response_url": {responseURL},
		"trigger_id": {trigger}, "api_app_id": {"A1"},
	}
	return []byte(v.Encode())
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// assertNoSecrets fails when out holds any test secret.
func assertNoSecrets(t *testing.T, what, out string) {
	t.Helper()
	for _, s := range []string{testSecret, testOldSecret, testBotToken, testAppToken, testHooksToken, "hooks.slack.com/commands"} {
		if strings.Contains(out, s) {
			t.Errorf("%s contains the secret %q", what, s)
		}
	}
}
