package slack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store/storetest"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// testSig is the n-th of many distinct signatures shaped as Slack's.
func testSig(n int) string { return fmt.Sprintf("v0=%064x", n) }

// TestMemoryReplayContract runs the replay guard contract (the one
// etcdstore's guard keeps) on the in-memory guard, on a fake clock.
func TestMemoryReplayContract(t *testing.T) {
	clock := newFakeClock()
	storetest.RunReplayGuard(t, storetest.ReplayHarness{
		New: func(t *testing.T) (storetest.ReplayGuard, storetest.ReplayGuard) {
			g := newMemoryReplay(DefaultReplayMemory, clock.Now)
			return g, g
		},
		Now:    clock.Now,
		Short:  time.Second,
		Expire: func(_ *testing.T, _ string, until time.Time) { clock.advance(until.Sub(clock.Now()) + time.Nanosecond) },
	})
}

// TestMemoryReplayBounded: under many more distinct signatures than it
// keeps, in one window, the in-memory guard keeps at most its bound, the
// newest are still refused, and it says that it forgot some early.
func TestMemoryReplayBounded(t *testing.T) {
	clock := newFakeClock()
	const bound = 1000
	g := newMemoryReplay(bound, clock.Now)
	var early int
	g.early = func(left time.Duration) {
		if left <= 0 || left > signatureWindow {
			t.Errorf("forgotten with %s left", left)
		}
		early++
	}
	until := clock.Now().Add(signatureWindow)
	for i := range 20 * bound {
		if ok, _ := g.Seen(context.Background(), testSig(i), until); ok {
			t.Fatalf("new signature %d reported seen", i)
		}
		if g.len() > bound || g.n > bound || len(g.queue) > bound {
			t.Fatalf("after %d signatures: %d kept, %d queued in %d, bound %d", i+1, g.len(), g.n, len(g.queue), bound)
		}
	}
	for i := 19 * bound; i < 20*bound; i++ {
		if ok, _ := g.Seen(context.Background(), testSig(i), until); !ok {
			t.Fatalf("recent signature %d accepted again", i)
		}
	}
	if early != 19*bound {
		t.Errorf("told of %d signatures forgotten early, want %d", early, 19*bound)
	}
}

// TestMemoryReplayExpiresWithWindow: signatures go once their window has
// passed, so a steady load keeps only a window's worth, and nothing is
// forgotten early.
func TestMemoryReplayExpiresWithWindow(t *testing.T) {
	clock := newFakeClock()
	g := newMemoryReplay(DefaultReplayMemory, clock.Now)
	g.early = func(time.Duration) { t.Error("a signature was forgotten before its time") }
	// 10 requests a second for 20 minutes, each signed when sent.
	for i := range 20 * 60 * 10 {
		if ok, _ := g.Seen(context.Background(), testSig(i), clock.Now().Add(signatureWindow)); ok {
			t.Fatalf("new signature %d reported seen", i)
		}
		clock.advance(100 * time.Millisecond)
	}
	if n := g.len(); n > 3001 || n < 2999 {
		t.Errorf("%d signatures kept at 10 a second, want a window's worth: 3,000", n)
	}
	// One signed 5 minutes ahead is kept 10 minutes; one that came before
	// it but expires sooner goes when its own time is up too.
	g = newMemoryReplay(DefaultReplayMemory, clock.Now)
	ahead := clock.Now().Add(2 * signatureWindow)
	_, _ = g.Seen(context.Background(), testSig(1), ahead)
	_, _ = g.Seen(context.Background(), testSig(2), clock.Now().Add(signatureWindow))
	clock.advance(signatureWindow + time.Second)
	if ok, _ := g.Seen(context.Background(), testSig(2), clock.Now().Add(signatureWindow)); ok {
		t.Error("a signature past its window is still refused")
	}
	if ok, _ := g.Seen(context.Background(), testSig(1), ahead); !ok {
		t.Error("a signature inside its window was forgotten")
	}
}

// TestMemoryReplayMemory measures what a full in-memory guard holds: the
// bound DefaultReplayMemory documents (about 5 MiB; at most 6 here).
func TestMemoryReplayMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the guard")
	}
	clock := newFakeClock()
	sigs := make([]string, DefaultReplayMemory+1)
	for i := range sigs {
		sigs[i] = testSig(i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g := newMemoryReplay(DefaultReplayMemory, clock.Now)
	until := clock.Now().Add(signatureWindow)
	for _, s := range sigs {
		_, _ = g.Seen(context.Background(), s, until)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d signatures kept in %.1f MiB (%d bytes each)", g.len(), float64(held)/(1<<20), held/int64(g.len()))
	if held > 6<<20 {
		t.Errorf("a full guard holds %d bytes, want at most 6 MiB", held)
	}
	runtime.KeepAlive(g)
	runtime.KeepAlive(sigs)
}

// TestMemoryReplayAllocatesNothing guards the slash path: a check of a
// new signature allocates nothing once the queue has grown.
func TestMemoryReplayAllocatesNothing(t *testing.T) {
	clock := newFakeClock()
	g := newMemoryReplay(1024, clock.Now)
	sigs := make([]string, 4096)
	for i := range sigs {
		sigs[i] = testSig(i)
	}
	i := 0
	seenNext := func() {
		_, _ = g.Seen(context.Background(), sigs[i%len(sigs)], clock.Now().Add(signatureWindow))
		i++
	}
	for range 2 * len(sigs) {
		seenNext()
	}
	if n := testing.AllocsPerRun(1000, seenNext); n > 0 {
		t.Errorf("Seen allocates %.1f times per call, want 0", n)
	}
}

// TestSignatureKeyIgnoresHexCase: the verifier takes a signature in upper
// case too, so a replay with its hex upper-cased is the same request.
func TestSignatureKeyIgnoresHexCase(t *testing.T) {
	clock := newFakeClock()
	a, _ := newHTTPAdapter(t, &fakeAnswerer{}, WithClock(clock.Now))
	body := freshSlashBody("kep 4639", testHooksURL)
	r := signedRequest(PathCommands, formType, testSecret, clock.Now(), body)
	upper := r.Clone(context.Background())
	upper.Header.Set(headerSignature, "v0="+strings.ToUpper(r.Header.Get(headerSignature)[3:]))
	upper.Body = httpBody(body)
	if w := serve(a, upper); w.Code != 200 {
		t.Fatalf("upper-case signature: %d", w.Code)
	}
	r.Body = httpBody(body)
	if w := serve(a, r); w.Code != 401 {
		t.Errorf("the same request in lower case after upper: %d, want 401", w.Code)
	}
}

// replaySubscription is a subscribe command from an admin in channel, as
// Slack sends it once: its body and the request, signed at at.
func replaySubscription(channel string, at time.Time) ([]byte, *http.Request) {
	body := []byte(url.Values{"team_id": {"T1"}, "channel_id": {channel}, "user_id": {"UADMIN"}, "user_name": {"u"},
		"command": {"/k8s"}, "text": {"subscribe deprecations from:1.34"}, "response_url": {testHooksURL},
		"trigger_id": {"7.7.7"}}.Encode())
	return body, signedRequest(PathCommands, formType, testSecret, at, body)
}

// again is a copy of r, headers and body byte for byte: what a replayer
// sends.
func again(r *http.Request, body []byte) *http.Request {
	c := r.Clone(context.Background())
	c.Body = httpBody(body)
	return c
}

// TestReplayedSubscribeRefused sends a signed `subscribe` over HTTP to the
// real engine over bbolt, then the same bytes again: the replay gets 401
// with the reason, nothing is asked (no users.info either) and the
// subscription is exactly as the first command left it; the same command
// signed anew (a new invocation) is answered.
func TestReplayedSubscribeRefused(t *testing.T) {
	freshRejectSampler(t)
	f := permissionFake(t, nil)
	eng, db := subscriptionEngine(t)
	rec := &countingRecorder{}
	logs := &logBuffer{}
	cfg := Config{BotToken: config.NewSecret(testBotToken), SigningSecrets: []config.Secret{config.NewSecret(testSecret)}, APIURL: f.apiURL()}
	a, err := NewAdapter(cfg, eng, testLogger(logs, testBotToken, testSecret), WithRecorder(rec))
	if err != nil {
		t.Fatal(err)
	}
	runAdapter(t, a)
	waitFor(t, "auth.test", func() bool { return a.botUserID() == testBotUser })

	body, first := replaySubscription("C7", time.Now())
	w := serve(a, first)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "Subscribed") {
		t.Fatalf("subscribe = %d %s", w.Code, w.Body.String())
	}
	ref := digest.ChannelRef{Platform: Platform, Workspace: "T1", Channel: "C7"}
	before, err := db.Subscriptions().FindSubscriptionByChannel(context.Background(), ref)
	if err != nil || before == nil || !before.Active() {
		t.Fatalf("after subscribe: %+v, %v", before, err)
	}
	answered, lookups := rec.count(string(knowledge.KindSubscription)), f.usersInfoCalls("UADMIN")

	for range 3 {
		w := serve(a, again(first, body))
		if w.Code != 401 || w.Body.String() != "request not verified: replayed request\n" {
			t.Fatalf("replay = %d %q, want 401 replayed request", w.Code, w.Body.String())
		}
	}
	after, err := db.Subscriptions().FindSubscriptionByChannel(context.Background(), ref)
	if err != nil || after.Rev != before.Rev || !after.CreatedAt.Equal(before.CreatedAt) {
		t.Errorf("the replays changed the subscription: rev %d to %d, %v", before.Rev, after.Rev, err)
	}
	if n := rec.count(string(knowledge.KindSubscription)); n != answered {
		t.Errorf("%d subscription answers after the replays, want %d", n, answered)
	}
	if n := f.usersInfoCalls("UADMIN"); n != lookups {
		t.Errorf("users.info asked %d times after the replays, want %d", n, lookups)
	}
	if n := len(f.responsePosts()) + len(f.postedMessages()); n != 0 {
		t.Errorf("%d posts to Slack, want none", n)
	}
	if !strings.Contains(logs.String(), `"reason":"replayed request"`) {
		t.Error("the replay's reason is not logged")
	}

	// Sent again by Slack, the command is signed anew: it is answered.
	_, resent := replaySubscription("C7", time.Now().Add(-time.Second))
	if w := serve(a, resent); w.Code != 200 || w.Body.Len() == 0 {
		t.Errorf("the command signed anew = %d %q, want an answer", w.Code, w.Body.String())
	}
}

// TestReplayedSlashNotFromReplyCache: with the reply cache warm, the
// replay of a question gets 401, not the kept reply.
func TestReplayedSlashNotFromReplyCache(t *testing.T) {
	ans := &generationAnswerer{}
	rec := &countingRecorder{}
	a, _ := newHTTPAdapter(t, ans, WithRecorder(rec))
	body := freshSlashBody("kep 4639", testHooksURL)
	first := signedRequest(PathCommands, formType, testSecret, time.Now(), body)
	if w := serve(a, again(first, body)); w.Code != 200 {
		t.Fatalf("first = %d", w.Code)
	}
	if w := serve(a, slashRequest("kep 4639")); w.Code != 200 || len(ans.questions()) != 1 {
		t.Fatalf("a second invocation = %d, asked %d times: not from the kept reply", w.Code, len(ans.questions()))
	}
	w := serve(a, again(first, body))
	if w.Code != 401 || strings.Contains(w.Body.String(), "4639") {
		t.Errorf("replay with the reply kept = %d %q, want 401 without the reply", w.Code, w.Body.String())
	}
	if n := rec.count(string(knowledge.KindKEP)); n != 2 {
		t.Errorf("%d answers recorded, want 2", n)
	}
}

// TestReplayedInteractionRefused: a page button's request sent again is
// refused, and the page is posted once.
func TestReplayedInteractionRefused(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{}
	a, _ := newEventsAdapter(t, f, ans)
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "response_url": f.responseURL("page"),
		"team": map[string]string{"id": "T1"}, "user": map[string]string{"id": "U1", "username": "u"},
		"channel": map[string]string{"id": "C1"},
		"actions": []map[string]string{{"action_id": actionNext, "block_id": pageBlockID, "value": pageValue("1.40 ga", 1, true)}},
	})
	body := []byte(url.Values{"payload": {string(payload)}}.Encode())
	first := signedRequest(PathInteractions, formType, testSecret, time.Now(), body)
	if w := serve(a, again(first, body)); w.Code != 200 {
		t.Fatalf("interaction = %d", w.Code)
	}
	waitFor(t, "the page", func() bool { return len(f.responsePosts()) == 1 })
	if w := serve(a, again(first, body)); w.Code != 401 {
		t.Errorf("replayed interaction = %d, want 401", w.Code)
	}
	time.Sleep(100 * time.Millisecond)
	if n, q := len(f.responsePosts()), len(ans.questions()); n != 1 || q != 1 {
		t.Errorf("%d pages posted and %d questions asked, want 1 and 1", n, q)
	}
}

// TestEventRetriesPassReplaysRefused: Slack's retries of an event, each
// signed when sent, all get 200 (a 401 to a retry counts against the
// app's delivery rate, and Slack disables apps failing 5% of deliveries)
// and the event is answered once; the same bytes as one of them, Retry-Num
// header and all, get 401. A replayed url_verification gets no challenge.
func TestEventRetriesPassReplaysRefused(t *testing.T) {
	f := newFakeSlack(t, nil)
	ans := &fakeAnswerer{}
	a, _ := newEventsAdapter(t, f, ans)
	payload := mentionPayload("EvR1", "1700000000.000099", "<@"+testBotUser+"> kep 4639")
	var reqs []*http.Request
	for retry := range 4 {
		r := eventRequest(payload, retry)
		reqs = append(reqs, r.Clone(context.Background()))
		if w := serve(a, r); w.Code != 200 {
			t.Errorf("retry %d: %d %q, want 200", retry, w.Code, w.Body.String())
		}
	}
	waitFor(t, "the answer", func() bool { return len(f.postedMessages()) == 1 })
	replay := reqs[2]
	replay.Body = httpBody([]byte(payload))
	if w := serve(a, replay); w.Code != 401 {
		t.Errorf("a replayed retry = %d, want 401", w.Code)
	}
	time.Sleep(100 * time.Millisecond)
	if n, q := len(f.postedMessages()), len(ans.questions()); n != 1 || q != 1 {
		t.Errorf("%d answers posted, %d questions asked, want 1 and 1", n, q)
	}

	challenge := []byte(`{"token":"x","challenge":"c9f0f895fb98ab9159f5","type":"url_verification"}`)
	v := signedRequest(PathEvents, jsonType, testSecret, time.Now(), challenge)
	if w := serve(a, again(v, challenge)); w.Code != 200 || w.Body.String() != "c9f0f895fb98ab9159f5" {
		t.Fatalf("url_verification = %d %q", w.Code, w.Body.String())
	}
	if w := serve(a, again(v, challenge)); w.Code != 401 || strings.Contains(w.Body.String(), "c9f0f895") {
		t.Errorf("replayed url_verification = %d %q, want 401 without the challenge", w.Code, w.Body.String())
	}
}

// TestRefusedRequestsAreNotRemembered: a request that fails verification
// is not recorded (nobody without the secret can fill the guard), so the
// genuine one after it is answered.
func TestRefusedRequestsAreNotRemembered(t *testing.T) {
	clock := newFakeClock()
	a, _ := newHTTPAdapter(t, &fakeAnswerer{}, WithClock(clock.Now))
	body := freshSlashBody("kep 4639", testHooksURL)
	good := signedRequest(PathCommands, formType, testSecret, clock.Now(), body)
	tampered := again(good, []byte(strings.Replace(string(body), "4639", "4638", 1)))
	stale := signedRequest(PathCommands, formType, testSecret, clock.Now().Add(-6*time.Minute), body)
	for _, r := range []*http.Request{tampered, stale} {
		if w := serve(a, r); w.Code != 401 {
			t.Fatalf("bad request = %d", w.Code)
		}
	}
	if n := a.replay.len(); n != 0 {
		t.Errorf("%d refused requests remembered", n)
	}
	if w := serve(a, again(good, body)); w.Code != 200 {
		t.Errorf("the genuine request = %d, want 200", w.Code)
	}
	// Past its window the replay is stale, refused by the timestamp.
	clock.advance(signatureWindow + time.Second)
	if w := serve(a, again(good, body)); w.Code != 401 || !strings.Contains(w.Body.String(), errStale.Error()) {
		t.Errorf("a replay after the window = %d %q, want 401 stale", w.Code, w.Body.String())
	}
}

// freshRejectSampler gives t samplers of refusals and of the shared
// guard's warning of its own: the package's are shared, and other tests
// may have spent this minute's lines.
func freshRejectSampler(t *testing.T) {
	saved, savedShared := rejectSampler, sharedSampler
	rejectSampler = &zerolog.BurstSampler{Burst: 5, Period: time.Minute}
	sharedSampler = &zerolog.BurstSampler{Burst: 1, Period: time.Minute}
	t.Cleanup(func() { rejectSampler, sharedSampler = saved, savedShared })
}

// TestReplayRefusalsLogSampled: a flood of replays logs a few lines a
// minute, like every other 401 reason, and each is counted.
func TestReplayRefusalsLogSampled(t *testing.T) {
	freshRejectSampler(t)
	a, logs := newHTTPAdapter(t, &fakeAnswerer{})
	body := freshSlashBody("kep 4639", testHooksURL)
	r := signedRequest(PathCommands, formType, testSecret, time.Now(), body)
	serve(a, again(r, body))
	for range 50 {
		if w := serve(a, again(r, body)); w.Code != 401 {
			t.Fatalf("replay = %d", w.Code)
		}
	}
	if n := strings.Count(logs.String(), `"reason":"replayed request"`); n != 5 {
		t.Errorf("%d replay refusals logged, want 5 (the sampler's burst)", n)
	}
	assertNoSecrets(t, "the log", logs.String())
	if strings.Contains(logs.String(), r.Header.Get(headerSignature)[3:20]) {
		t.Error("the log holds the replayed signature")
	}
}

// failingGuard is a shared replay guard whose etcd is unreachable.
type failingGuard struct{ calls atomic.Int64 }

func (g *failingGuard) Seen(context.Context, string, time.Time) (bool, error) {
	g.calls.Add(1)
	return false, errors.New("check a Slack request's signature: the shared store is unreachable")
}

// TestSharedGuardUnavailable: when the shared guard cannot be asked (etcd
// unreachable), questions are still answered (serve keeps answering from
// each replica's knowledge while etcd is away) and this replica's memory
// still refuses their replays; a subscription change is refused with the
// shared store's "try again" and never reaches the answerer; the guard is
// left alone for a while after a failure, and the warning is sampled.
func TestSharedGuardUnavailable(t *testing.T) {
	freshRejectSampler(t)
	clock := newFakeClock()
	g := &failingGuard{}
	ans := &fakeAnswerer{}
	a, logs := newHTTPAdapter(t, ans, WithReplayGuard(g), WithClock(clock.Now))
	a.setClock(clock.Now)

	body := freshSlashBody("kep 4639", testHooksURL)
	r := signedRequest(PathCommands, formType, testSecret, clock.Now(), body)
	if w := serve(a, again(r, body)); w.Code != 200 || !strings.Contains(w.Body.String(), "KEP-4639") {
		t.Errorf("a question with the shared guard down = %d %.200s, want its answer", w.Code, w.Body.String())
	}
	if w := serve(a, again(r, body)); w.Code != 401 {
		t.Errorf("its replay to the same replica = %d, want 401", w.Code)
	}
	sub := signedRequest(PathCommands, formType, testSecret, clock.Now(), freshSlashBody("subscribe deprecations", testHooksURL))
	w := serve(a, sub)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "unreachable right now, so nothing was changed") {
		t.Errorf("a subscribe with the shared guard down = %d %.300s, want the store's try again", w.Code, w.Body.String())
	}
	if n := len(ans.questions()); n != 1 {
		t.Errorf("the answerer was asked %d times, want 1: not for the subscribe", n)
	}
	if n := g.calls.Load(); n != 1 {
		t.Errorf("the shared guard was asked %d times within %s of its failure, want 1", n, sharedRetry)
	}

	// A subscribing mention and a page button too: the mark goes with the
	// answer into the background.
	f := newFakeSlack(t, nil)
	ev, _ := newEventsAdapter(t, f, ans, WithReplayGuard(g))
	mention := mentionPayload("EvSub", "4.1", "<@"+testBotUser+"> subscribe deprecations")
	if w := serve(ev, eventRequest(mention, 0)); w.Code != 200 {
		t.Fatalf("mention = %d", w.Code)
	}
	waitFor(t, "the mention's answer", func() bool { return len(f.postedMessages()) == 1 })
	if text := f.postedMessages()[0].Get("text"); !strings.Contains(text, "unreachable right now") {
		t.Errorf("the subscribing mention was answered %q, want the store's try again", text)
	}
	if n := len(ans.questions()); n != 1 {
		t.Errorf("the answerer was asked %d times, want still 1", n)
	}

	clock.advance(sharedRetry + time.Second)
	if w := serve(a, slashRequestAt("kep 4639", clock.Now())); w.Code != 200 || g.calls.Load() != 3 {
		t.Errorf("after %s: %d, shared guard asked %d times in all, want 200 and 3", sharedRetry, w.Code, g.calls.Load())
	}
	if n := strings.Count(logs.String(), "replay check shared by the replicas is unavailable"); n != 1 {
		t.Errorf("%d warnings logged, want 1 a minute", n)
	}
	// A forged request never reaches either guard.
	before := g.calls.Load()
	clock.advance(sharedRetry + time.Second)
	if w := serve(a, signedRequest(PathCommands, formType, "not-the-secret", clock.Now(), slashBody("kep 1", testHooksURL))); w.Code != 401 || g.calls.Load() != before {
		t.Errorf("forged = %d after %d guard calls, want 401 without asking the guard", w.Code, g.calls.Load()-before)
	}
}

// slashRequestAt is a new invocation of /k8s text signed at at.
func slashRequestAt(text string, at time.Time) *http.Request {
	return signedRequest(PathCommands, formType, testSecret, at, freshSlashBody(text, testHooksURL))
}

// TestDecodeHexIsEncodingHex: the table-driven hex decoding of signatures
// agrees with encoding/hex on every pair of bytes, either case.
func TestDecodeHexIsEncodingHex(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			s := string([]byte{byte(a), byte(b)})
			var got [1]byte
			ok := decodeHex(got[:], s)
			want, err := hex.DecodeString(s)
			if ok != (err == nil) || ok && got[0] != want[0] {
				t.Fatalf("decodeHex(%q) = %x %v, encoding/hex %x %v", s, got, ok, want, err)
			}
		}
	}
}

// BenchmarkMemoryReplaySeen is the in-memory guard's share of the slash
// path: one new signature recorded (and, at a steady load, one expired
// let go), as the adapter asks, with the bytes the verifier decoded.
func BenchmarkMemoryReplaySeen(b *testing.B) {
	clock := newFakeClock()
	g := newMemoryReplay(DefaultReplayMemory, clock.Now)
	keys := make([][sha256.Size]byte, benchRing)
	for i := range keys {
		_ = decodeHex(keys[i][:], testSig(i)[3:])
		keys[i][0] ^= byte(i) // spread them as HMACs are
		keys[i][31] ^= byte(i >> 8)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == len(keys) {
			clock.advance(11 * time.Minute) // the last round has expired
			i = 0
		}
		if g.seen(fold(&keys[i]), clock.Now().Add(signatureWindow)) {
			b.Fatal("a new signature reported seen")
		}
		i++
	}
}

// TestAllowReplaysAnswersThemAgain: with AllowReplays (load tests only),
// a request sent again is answered again; the default refuses it.
func TestAllowReplaysAnswersThemAgain(t *testing.T) {
	ans := &generationAnswerer{}
	logs := &logBuffer{}
	cfg := Config{SigningSecrets: []config.Secret{config.NewSecret(testSecret)}, AllowReplays: true}
	a, err := NewAdapter(cfg, ans, testLogger(logs, testSecret))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.bg.Wait)
	body := freshSlashBody("kep 4639", testHooksURL)
	first := signedRequest(PathCommands, formType, testSecret, time.Now(), body)
	for i := range 3 {
		if w := serve(a, again(first, body)); w.Code != 200 {
			t.Fatalf("send %d = %d; want 200 with AllowReplays", i+1, w.Code)
		}
	}
}
