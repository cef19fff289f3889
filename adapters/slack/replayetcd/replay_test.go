package replayetcd_test

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
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/internal/logtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/storetest"
)

const secret = "8f14e45fceea167a5a36dedd4bea2543"

// counting is an answerer that counts the questions it is asked.
type counting struct {
	knowledge.Answerer
	n atomic.Int64
}

func (c *counting) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	c.n.Add(1)
	return c.Answerer.Answer(ctx, q)
}

type logBuffer = logtest.Buffer

// knowledgeEngine is the built-in snapshot in a bbolt file of the test's,
// answering subscriptions from shared: one replica's engine. Anyone may
// manage subscriptions here; who may is the adapter's test, not this one.
func knowledgeEngine(tb testing.TB, shared store.Shared) knowledge.Answerer {
	tb.Helper()
	db := storetest.SnapshotDB(tb)
	var opts []engine.Option
	if shared != nil {
		opts = append(opts, engine.WithSubscriptions(digest.NewSubscriptions(digest.SubscriptionConfig{
			Store: shared, Ledger: shared, Knowledge: db.Knowledge(),
			CanManage: func(context.Context, knowledge.Origin) (bool, error) { return true, nil },
		})))
	}
	return engine.New(db.Knowledge(), opts...)
}

// openShared is one replica's client to the shared state under prefix.
func openShared(tb testing.TB, srv *etcdtest.Server, prefix string) *etcdstore.Store {
	tb.Helper()
	s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints, Prefix: prefix})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// replica is one kepbot replica's Slack adapter over HTTP, as bot serve
// wires it on etcd: subscriptions and the replay guard shared.
type replica struct {
	a      *slack.Adapter
	h      http.Handler
	shared *etcdstore.Store
	asked  *counting
	logs   *logBuffer
}

func newReplica(tb testing.TB, srv *etcdtest.Server, prefix string, ans knowledge.Answerer) *replica {
	tb.Helper()
	shared := openShared(tb, srv, prefix)
	if ans == nil {
		ans = knowledgeEngine(tb, shared)
	}
	r := &replica{shared: shared, asked: &counting{Answerer: ans}, logs: &logBuffer{}}
	a, err := slack.NewAdapter(slack.Config{SigningSecrets: []config.Secret{config.NewSecret(secret)}}, r.asked,
		zerolog.New(r.logs), slack.WithReplayGuard(shared.ReplayGuard(etcdstore.ReplayConfig{})))
	if err != nil {
		tb.Fatal(err)
	}
	r.a, r.h = a, a.Handler()
	return r
}

// command is a signed /k8s invocation: its body and headers.
type command struct {
	body   []byte
	header http.Header
}

var triggers atomic.Int64

// invocation is a new /k8s text from an admin in channel, signed at at.
func invocation(channel, text string, at time.Time) command {
	body := []byte(url.Values{"team_id": {"T1"}, "channel_id": {channel}, "user_id": {"UADMIN"}, "user_name": {"u"},
		"command": {"/k8s"}, "text": {text}, "response_url": {"https://hooks.slack.com/commands/T1/1/x"},
		"trigger_id": {"5.5." + strconv.FormatInt(triggers.Add(1), 10)}}.Encode())
	ts := strconv.FormatInt(at.Unix(), 10)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("v0:" + ts + ":"))
	m.Write(body)
	h := http.Header{}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("X-Slack-Request-Timestamp", ts)
	h.Set("X-Slack-Signature", "v0="+hex.EncodeToString(m.Sum(nil)))
	return command{body: body, header: h}
}

// send sends c, byte for byte, to r.
func (r *replica) send(c command) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, slack.PathCommands, bytes.NewReader(c.body))
	req.Header = c.header.Clone()
	w := httptest.NewRecorder()
	r.h.ServeHTTP(w, req)
	return w
}

// TestReplayToAnotherReplicaRefused: two replicas share subscriptions and
// the replay guard in etcd. A `subscribe` served by one and replayed to
// the other (and to the first) is refused with 401 there, unasked, and
// the subscription in etcd stays as the first left it; a new invocation
// is answered by either. With etcd gone, a replica still answers, within
// the guard's timeout, refuses the replays it saw itself, and changes no
// subscription.
func TestReplayToAnotherReplicaRefused(t *testing.T) {
	srv, err := etcdtest.Start(etcdtest.Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	a := newReplica(t, srv, "/replicas/", nil)
	b := newReplica(t, srv, "/replicas/", nil)
	ctx := context.Background()
	ref := digest.ChannelRef{Platform: slack.Platform, Workspace: "T1", Channel: "C9"}

	sub := invocation("C9", "subscribe deprecations from:1.34", time.Now())
	if w := a.send(sub); w.Code != 200 || !strings.Contains(w.Body.String(), "Subscribed") {
		t.Fatalf("subscribe on A = %d %s", w.Code, w.Body.String())
	}
	before, err := b.shared.FindSubscriptionByChannel(ctx, ref)
	if err != nil || !before.Active() {
		t.Fatalf("the subscription B sees: %+v, %v", before, err)
	}
	for _, r := range []*replica{b, a, b} {
		if w := r.send(sub); w.Code != 401 || w.Body.String() != "request not verified: replayed request\n" {
			t.Errorf("replay = %d %q, want 401 replayed request", w.Code, w.Body.String())
		}
	}
	if na, nb := a.asked.n.Load(), b.asked.n.Load(); na != 1 || nb != 0 {
		t.Errorf("A asked %d times and B %d, want 1 and 0", na, nb)
	}
	after, err := a.shared.FindSubscriptionByChannel(ctx, ref)
	if err != nil || after.Rev != before.Rev {
		t.Errorf("the replays changed the subscription: rev %d to %d (%v)", before.Rev, after.Rev, err)
	}
	if w := b.send(invocation("C9", "subscriptions", time.Now())); w.Code != 200 || b.asked.n.Load() != 1 {
		t.Errorf("a new invocation on B = %d, asked %d times", w.Code, b.asked.n.Load())
	}

	// etcd gone: B answers from its own knowledge after one guard timeout,
	// refuses the replays it saw itself, and changes no subscription.
	srv.Close()
	start := time.Now()
	q := invocation("C9", "kep 4639", time.Now())
	if w := b.send(q); w.Code != 200 || !strings.Contains(w.Body.String(), "KEP-4639") || b.asked.n.Load() != 2 {
		t.Errorf("a question with etcd down = %d %.200s, asked %d times; want its answer", w.Code, w.Body.String(), b.asked.n.Load())
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the answer took %s, want the guard's 500 ms timeout and the answer", took)
	}
	if w := b.send(q); w.Code != 401 {
		t.Errorf("its replay to B with etcd down = %d, want 401", w.Code)
	}
	w := b.send(invocation("C9", "unsubscribe", time.Now()))
	if w.Code != 200 || !strings.Contains(w.Body.String(), "unreachable right now, so nothing was changed") || b.asked.n.Load() != 2 {
		t.Errorf("an unsubscribe with etcd down = %d %.300s, asked %d times; want the store's try again, unasked", w.Code, w.Body.String(), b.asked.n.Load())
	}
}

// BenchmarkSlashCommandHTTPReplayGuard is BenchmarkSlashCommandHTTPCached
// (the engine behind a engine.CachedAnswerer, so after the first
// request the kept reply is sent) with the replay guard in memory, bot
// serve's single-process default, and shared in etcd (embedded, on
// loopback: one transaction a request, committed through etcd's log), as
// replicas on etcd run. Every request is a new invocation signed in the
// loop, the same work in both; the difference is what the shared guard
// adds to the slash path.
func BenchmarkSlashCommandHTTPReplayGuard(b *testing.B) {
	srv, err := etcdtest.Start(etcdtest.Options{Fast: true})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ans := engine.NewCachedAnswerer(knowledgeEngine(b, nil), 4096)
	for _, bc := range []struct {
		name string
		opts []slack.Option
	}{
		{"memory", nil},
		{"etcd", []slack.Option{slack.WithReplayGuard(openShared(b, srv, "/bench/").ReplayGuard(etcdstore.ReplayConfig{}))}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			a, err := slack.NewAdapter(slack.Config{SigningSecrets: []config.Secret{config.NewSecret(secret)}}, ans,
				zerolog.Nop(), bc.opts...)
			if err != nil {
				b.Fatal(err)
			}
			h := a.Handler()
			b.ReportAllocs()
			for b.Loop() {
				c := invocation("C1", "kep 4639", time.Now())
				req := httptest.NewRequest(http.MethodPost, slack.PathCommands, bytes.NewReader(c.body))
				req.Header = c.header
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body.String())
				}
			}
		})
	}
}
