package delivery_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// scriptPoster answers posts as respond says, in process, and records them.
type scriptPoster struct {
	mu       sync.Mutex
	calls    []call
	perChan  map[string]int
	inflight int
	most     int // the most posts under way at once
	respond  func(n int, channel string) (string, error)
	hold     time.Duration
	maxChars int
}

type call struct {
	at      time.Time
	channel string
	nonce   string
	title   string
}

func (p *scriptPoster) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	p.mu.Lock()
	if p.perChan == nil {
		p.perChan = map[string]int{}
	}
	n := p.perChan[channel]
	p.perChan[channel]++
	p.calls = append(p.calls, call{at: time.Now(), channel: channel, nonce: nonce, title: a.Title})
	p.inflight++
	p.most = max(p.most, p.inflight)
	p.mu.Unlock()
	defer func() { p.mu.Lock(); p.inflight--; p.mu.Unlock() }()
	if p.hold > 0 {
		select {
		case <-time.After(p.hold):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if p.respond == nil {
		return "m-" + nonce, nil
	}
	return p.respond(n, channel)
}

func (p *scriptPoster) Fits(a *knowledge.Answer) bool {
	return p.maxChars == 0 || len(text(a)) <= p.maxChars
}

func (p *scriptPoster) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.calls)
}

func (p *scriptPoster) callsTo(channel string) []call {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []call
	for _, c := range p.calls {
		if c.channel == channel {
			out = append(out, c)
		}
	}
	return out
}

// idemPoster is a scriptPoster whose platform drops repeated nonces.
type idemPoster struct{ *scriptPoster }

func (idemPoster) Idempotent() bool { return true }

// small is a harness of a few channels with scripted posters.
func small(t *testing.T, slack, discord int) (*harness, *scriptPoster, *scriptPoster, *delivery.Counts, delivery.Config) {
	t.Helper()
	unit := 20 * time.Millisecond
	h := newHarness(t, fanoutSpec{slack: slack, discord: discord, workspaces: 2, unit: unit}, 7)
	sp, dp := &scriptPoster{}, &scriptPoster{}
	counts := &delivery.Counts{}
	cfg := workerConfig(h.srv.URL, unit, counts)
	cfg.Posters = map[string]delivery.Poster{"slack": sp, "discord": idemPoster{dp}}
	cfg.Rand = func() float64 { return 0 }
	return h, sp, dp, counts, cfg
}

func waitCounts(t *testing.T, h *harness, cfg delivery.Config, counts *delivery.Counts, want map[string]int) {
	t.Helper()
	w, err := delivery.New(h.db.Outbox(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trigger(h.db, w.Notify).OnKnowledgeChanged(context.Background()); err != nil {
		t.Fatal(err)
	}
	runUntil(t, w, 20*time.Second, func() bool {
		s := counts.Snapshot()
		for k, v := range want {
			if s[k] < v {
				return false
			}
		}
		return true
	})
}

func TestSplitDigestPostsEachPartOnceAGapApart(t *testing.T) {
	h, sp, _, counts, cfg := small(t, 1, 0)
	sp.maxChars = 200 // the digest of six notices takes several messages
	waitCounts(t, h, cfg, counts, map[string]int{"delivered/slack": 1})
	calls := sp.callsTo(h.channels[0].Channel)
	if len(calls) < 3 {
		t.Fatalf("%d posts; want the digest in at least 3 parts", len(calls))
	}
	seen := map[string]bool{}
	for i, c := range calls {
		if seen[c.nonce] {
			t.Errorf("part %d repeats nonce %s", i, c.nonce)
		}
		seen[c.nonce] = true
		if !strings.HasSuffix(c.title, ")") || !strings.Contains(c.title, "/") {
			t.Errorf("part %d title %q lacks its number", i, c.title)
		}
		if i > 0 && c.at.Sub(calls[i-1].at) < cfg.Limits["slack"].ChannelGap {
			t.Errorf("parts %d and %d %s apart; the gap is %s", i-1, i, c.at.Sub(calls[i-1].at), cfg.Limits["slack"].ChannelGap)
		}
	}
	dv, err := h.db.Outbox().ListDeliveries(context.Background())
	if err != nil || len(dv) != 1 || dv[0].State != digest.DeliverySent || len(dv[0].MessageIDs) != len(calls) {
		t.Errorf("delivery %+v, %v", dv, err)
	}
}

// retryAfterErr is a 429 for the tests' scripted posters.
type retryAfterErr struct {
	d     time.Duration
	scope delivery.Scope
}

func (e retryAfterErr) Error() string              { return "429" }
func (e retryAfterErr) RetryAfter() time.Duration  { return e.d }
func (e retryAfterErr) RetryScope() delivery.Scope { return e.scope }
func (e retryAfterErr) Terminal() (string, bool)   { return "", false }

func TestRetryAfterHoldsBackItsScope(t *testing.T) {
	h, sp, _, counts, cfg := small(t, 6, 0) // 3 channels in each of 2 workspaces
	first := h.channels[0]
	window := 300 * time.Millisecond
	var once sync.Once
	var until time.Time
	sp.respond = func(n int, ch string) (string, error) {
		if ch == first.Channel && n == 0 {
			once.Do(func() { until = time.Now().Add(window) })
			return "", retryAfterErr{d: window, scope: delivery.ScopeWorkspace}
		}
		return "m", nil
	}
	waitCounts(t, h, cfg, counts, map[string]int{"delivered/slack": 6})
	for _, ch := range h.channels {
		for _, c := range sp.callsTo(ch.Channel) {
			if ch.Workspace == first.Workspace && c.at.After(until.Add(-window)) && c.at.Before(until) {
				t.Errorf("post to %s %s before the workspace's Retry-After ended", ch.Channel, until.Sub(c.at))
			}
		}
	}
	if got := counts.Get("retried/slack/rate_limited"); got != 1 {
		t.Errorf("rate limited retries %d, want 1", got)
	}
}

func TestFailuresBackOffThenGiveUpWithoutPausing(t *testing.T) {
	h, sp, _, counts, cfg := small(t, 1, 0)
	cfg.MaxFailures, cfg.BackoffBase, cfg.BackoffMax = 4, 20*time.Millisecond, time.Second
	sp.respond = func(int, string) (string, error) { return "", errors.New("HTTP 502") }
	waitCounts(t, h, cfg, counts, map[string]int{"dead/slack/gave_up": 1})
	calls := sp.callsTo(h.channels[0].Channel)
	if len(calls) != 4 {
		t.Fatalf("%d posts, want 4", len(calls))
	}
	for i := 1; i < len(calls); i++ { // jitter 0: half of 20ms doubled per failure
		want := 10 * time.Millisecond << (i - 1)
		if got := calls[i].at.Sub(calls[i-1].at); got < want {
			t.Errorf("attempt %d came %s after the last, want at least %s", i+1, got, want)
		}
	}
	sub, _ := h.db.Subscriptions().FindSubscriptionByChannel(context.Background(), h.channels[0])
	if !sub.Active() {
		t.Errorf("giving up paused the subscription: %+v", sub)
	}
	if got := counts.Get("duplicate_possible/slack/error"); got != 3 {
		t.Errorf("duplicate_possible %d, want 3 (every failed Slack post may have gone out)", got)
	}
}

// TestAFailureThatPostedNothingIsNoPossibleDuplicate: a Slack post the
// platform refused and said so (Unposted) is retried, and not counted as
// a possible duplicate; one that failed without saying is.
func TestAFailureThatPostedNothingIsNoPossibleDuplicate(t *testing.T) {
	h, sp, _, counts, cfg := small(t, 2, 0)
	cfg.BackoffBase, cfg.BackoffMax = time.Millisecond, 10*time.Millisecond
	sp.respond = func(n int, channel string) (string, error) {
		switch {
		case n > 0:
			return "m-" + channel, nil
		case channel == h.channels[0].Channel:
			return "", delivery.NotPosted(errors.New("msg_too_long"))
		}
		return "", errors.New("HTTP 502")
	}
	waitCounts(t, h, cfg, counts, map[string]int{"delivered/slack": 2})
	want := map[string]int{"delivered/slack": 2, "retried/slack/error": 2, "duplicate_possible/slack/error": 1}
	if diff := cmp.Diff(want, counts.Snapshot()); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

func TestOnlyOneUnsafePostAtOnce(t *testing.T) {
	h, sp, dp, counts, cfg := small(t, 6, 6)
	sp.hold, dp.hold = 20*time.Millisecond, 20*time.Millisecond
	waitCounts(t, h, cfg, counts, map[string]int{"delivered/slack": 6, "delivered/discord": 6})
	if sp.most != 1 {
		t.Errorf("%d Slack posts were under way at once, want 1", sp.most)
	}
	if dp.most < 2 {
		t.Errorf("Discord posts never overlapped (most %d): the idempotent lane should use its workers", dp.most)
	}
}

// stopMidPost queues the harness's digests, runs a worker of cfg and stops
// it once a Slack and a Discord post are under way, and waits for Run.
func stopMidPost(t *testing.T, h *harness, sp, dp *scriptPoster, cfg delivery.Config) {
	t.Helper()
	w, err := delivery.New(h.db.Outbox(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trigger(h.db, w.Notify).OnKnowledgeChanged(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.Run(ctx) }()
	for sp.count() == 0 || dp.count() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestStopInTheMiddleLeavesOneInDoubt: a stop cuts short the Slack post
// of the first of four deliveries the lane claimed in turn, and a Discord
// post. The next Run posts them all: the two cut short are in doubt, the
// Slack one counted as a possible duplicate and posted again with the same
// nonce; the three Slack deliveries behind it had not begun, and are
// neither counted nor doubled.
func TestStopInTheMiddleLeavesOneInDoubt(t *testing.T) {
	h, sp, dp, counts, cfg := small(t, 4, 1)
	sp.hold, dp.hold = time.Hour, time.Hour
	cfg.StopGrace = 50 * time.Millisecond // then the posts are cut short
	stopMidPost(t, h, sp, dp, cfg)
	all, _ := h.db.Outbox().ListDeliveries(context.Background())
	if len(all) != 5 {
		t.Fatalf("%d deliveries, want 5", len(all))
	}
	for _, d := range all {
		if d.State != digest.DeliverySending {
			t.Errorf("%s is %s after a stop mid-post, want sending (claimed)", d.Key, d.State)
		}
	}
	if n := sp.count(); n != 1 {
		t.Fatalf("%d Slack posts began before the stop, want 1", n)
	}
	first := sp.calls[0]
	sp.hold, dp.hold = 0, 0
	w2, _ := delivery.New(h.db.Outbox(), cfg)
	runUntil(t, w2, 10*time.Second, func() bool { return counts.Get("delivered/slack")+counts.Get("delivered/discord") == 5 })
	want := map[string]int{"in_doubt/slack": 1, "in_doubt/discord": 1, "duplicate_possible/slack/restart": 1, "delivered/slack": 4, "delivered/discord": 1}
	if diff := cmp.Diff(want, counts.Snapshot()); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if calls := sp.callsTo(first.channel); len(calls) != 2 || calls[1].nonce != first.nonce {
		t.Errorf("the Slack post cut short: %+v; want it again with the same nonce", calls)
	}
	if n := sp.count(); n != 5 {
		t.Errorf("%d Slack posts in all, want 5: the three not begun once each", n)
	}
	if calls := dp.callsTo(h.channels[4].Channel); len(calls) != 2 || calls[0].nonce != calls[1].nonce {
		t.Errorf("the Discord post cut short: %+v; want it again with the same nonce", calls)
	}
}

// TestStopLetsAPostUnderWayFinish: a stop that comes while a Slack post
// and a Discord post are under way lets them finish within StopGrace and
// records them as delivered, so none is in doubt; the next Run posts the
// deliveries behind them once each, and no channel sees a digest twice.
func TestStopLetsAPostUnderWayFinish(t *testing.T) {
	h, sp, dp, counts, cfg := small(t, 3, 1)
	sp.hold, dp.hold = 300*time.Millisecond, 300*time.Millisecond
	cfg.StopGrace = 10 * time.Second
	stopMidPost(t, h, sp, dp, cfg)
	if got := counts.Get("delivered/slack") + counts.Get("delivered/discord"); got != 2 {
		t.Fatalf("%d posts recorded as delivered after the stop, want the 2 under way (counts %v)", got, counts.Snapshot())
	}
	sp.hold, dp.hold = 0, 0
	w2, _ := delivery.New(h.db.Outbox(), cfg)
	runUntil(t, w2, 10*time.Second, func() bool { return counts.Get("delivered/slack")+counts.Get("delivered/discord") == 4 })
	want := map[string]int{"delivered/slack": 3, "delivered/discord": 1}
	if diff := cmp.Diff(want, counts.Snapshot()); diff != "" {
		t.Errorf("counts (-want +got), nothing in doubt:\n%s", diff)
	}
	for _, c := range h.channels {
		if n := len(sp.callsTo(c.Channel)) + len(dp.callsTo(c.Channel)); n != 1 {
			t.Errorf("%s was posted to %d times, want once", c.Channel, n)
		}
	}
}

func TestNewNeedsAPoster(t *testing.T) {
	if _, err := delivery.New(nil, delivery.Config{Log: zerolog.Nop()}); err == nil {
		t.Error("New without posters did not fail")
	}
}

// flakyOutbox is the real outbox on a disk that refuses the first fail
// writes of a post's outcome, and logs the outcomes it takes.
type flakyOutbox struct {
	digest.Outbox
	log       *eventLog
	mu        sync.Mutex
	fail      int // MarkPartSent calls to refuse
	failReads int // FindDigest calls to refuse
}

func (f *flakyOutbox) MarkPartSent(ctx context.Context, key string, part, parts int, id string, now, next time.Time) (*digest.Delivery, error) {
	f.mu.Lock()
	refuse := f.fail > 0
	f.fail--
	f.mu.Unlock()
	if refuse {
		return nil, errors.New("write kepbot.db: no space left on device")
	}
	d, err := f.Outbox.MarkPartSent(ctx, key, part, parts, id, now, next)
	if err == nil {
		f.log.add("recorded " + d.Channel)
	}
	return d, err
}

func (f *flakyOutbox) FindDigest(ctx context.Context, id string) (*digest.Digest, error) {
	f.mu.Lock()
	refuse := f.failReads > 0
	f.failReads--
	f.mu.Unlock()
	if refuse {
		return nil, errors.New("read kepbot.db: input/output error")
	}
	return f.Outbox.FindDigest(ctx, id)
}

type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(e string) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

// TestNoPostBeginsBeforeTheLastIsRecorded: when the outbox fails to
// record a Slack post, the lane tries again until it can, and begins no
// other post meanwhile, so a crash can never find two Slack posts in doubt.
func TestNoPostBeginsBeforeTheLastIsRecorded(t *testing.T) {
	h, sp, _, counts, cfg := small(t, 3, 0)
	log := &eventLog{}
	sp.respond = func(_ int, channel string) (string, error) {
		log.add("post " + channel)
		return "m-" + channel, nil
	}
	w, err := delivery.New(&flakyOutbox{Outbox: h.db.Outbox(), log: log, fail: 3}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trigger(h.db, w.Notify).OnKnowledgeChanged(context.Background()); err != nil {
		t.Fatal(err)
	}
	runUntil(t, w, 20*time.Second, func() bool { return counts.Get("delivered/slack") == 3 })
	var want []string
	for _, e := range log.events {
		if ch, ok := strings.CutPrefix(e, "post "); ok {
			want = append(want, e, "recorded "+ch)
		}
	}
	if diff := cmp.Diff(want, log.events); diff != "" {
		t.Errorf("a post began before the one before it was recorded (-want +got):\n%s", diff)
	}
	if len(log.events) != 6 {
		t.Errorf("events %q; want three posts, each recorded", log.events)
	}
}

// TestADigestThatCannotBeReadIsPutBack: a delivery whose digest cannot be
// read is put back and tried again, rather than left sending (in doubt)
// until the next start; one that never can be is given up.
func TestADigestThatCannotBeReadIsPutBack(t *testing.T) {
	h, sp, _, counts, cfg := small(t, 1, 0)
	cfg.BackoffBase, cfg.BackoffMax = time.Millisecond, 10*time.Millisecond
	w, err := delivery.New(&flakyOutbox{Outbox: h.db.Outbox(), log: &eventLog{}, failReads: 2}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trigger(h.db, w.Notify).OnKnowledgeChanged(context.Background()); err != nil {
		t.Fatal(err)
	}
	runUntil(t, w, 20*time.Second, func() bool { return counts.Get("delivered/slack") == 1 })
	if n := sp.count(); n != 1 {
		t.Errorf("%d posts, want 1", n)
	}

	h2, sp2, _, counts2, cfg2 := small(t, 1, 0)
	cfg2.BackoffBase, cfg2.BackoffMax, cfg2.MaxFailures = time.Millisecond, 10*time.Millisecond, 3
	w2, err := delivery.New(&flakyOutbox{Outbox: h2.db.Outbox(), log: &eventLog{}, failReads: 1 << 30}, cfg2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trigger(h2.db, w2.Notify).OnKnowledgeChanged(context.Background()); err != nil {
		t.Fatal(err)
	}
	runUntil(t, w2, 20*time.Second, func() bool { return counts2.Get("dead/slack/gave_up") == 1 })
	if n := sp2.count(); n != 0 {
		t.Errorf("%d posts of a digest that cannot be read", n)
	}
}
