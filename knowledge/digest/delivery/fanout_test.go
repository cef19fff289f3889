package delivery_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// fanOut queues one digest for every channel of h and runs a worker until
// each delivery is sent or dead. It returns the time that took.
func fanOut(t testing.TB, h *harness, cfg delivery.Config, counts *delivery.Counts) time.Duration {
	t.Helper()
	w, err := delivery.New(h.db.Outbox(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := trigger(h.db, w.Notify).OnKnowledgeChanged(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Digests != 1 || rep.Created != len(h.channels) {
		t.Fatalf("trigger queued %+v; want 1 digest for %d channels", rep, len(h.channels))
	}
	total := len(h.channels)
	return runUntil(t, w, 2*time.Minute, func() bool {
		s := counts.Snapshot()
		n := 0
		for k, v := range s {
			if strings.HasPrefix(k, "delivered/") || strings.HasPrefix(k, "dead/") {
				n += v
			}
		}
		return n >= total
	})
}

// checkFanOut asserts the promises of a fan-out without crashes: every live
// channel saw its digest exactly once, every gone channel was refused once
// and paused with its reason, and the fakes saw no post inside a
// Retry-After window, within a channel's gap or over a rate limit.
func checkFanOut(t *testing.T, h *harness) {
	t.Helper()
	ctx := context.Background()
	shown := h.fake.shown()
	var missing, doubled int
	for _, ch := range h.channels {
		got := shown[ch.Channel]
		if code, gone := h.gone[ch.Channel]; gone {
			if len(got) != 0 {
				t.Errorf("gone channel %s shows %v", ch.Channel, got)
			}
			if n := h.fake.goneCalls[ch.Channel]; n != 1 {
				t.Errorf("gone channel %s was called %d times, want 1", ch.Channel, n)
			}
			sub, err := h.db.Subscriptions().FindSubscriptionByChannel(ctx, ch)
			if err != nil || sub.State != digest.SubscriptionPaused || sub.PausedReason != code {
				t.Errorf("gone channel %s: subscription %+v, %v; want paused for %s", ch.Channel, sub, err, code)
			}
			continue
		}
		if len(got) == 0 {
			missing++
			continue
		}
		for _, n := range got {
			if n != 1 {
				doubled++
			}
		}
		if len(got) != 1 {
			t.Errorf("channel %s got %d different messages, want 1", ch.Channel, len(got))
		}
	}
	if missing+doubled > 0 {
		t.Errorf("%d live channels got no digest, %d got one twice", missing, doubled)
	}
	for i, v := range append(h.fake.violations, h.fake.overruns...) {
		if i == 10 {
			t.Errorf("... %d violations in all", len(h.fake.violations)+len(h.fake.overruns))
			break
		}
		t.Error(v)
	}
	all, err := h.db.Outbox().ListDeliveries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range all {
		_, gone := h.gone[d.Channel]
		if want := map[bool]digest.DeliveryState{false: digest.DeliverySent, true: digest.DeliveryDead}[gone]; d.State != want {
			t.Errorf("%s: %s, want %s", d.Key, d.State, want)
		}
	}
}

// TestFanOutToFiveThousandChannels: 4,000 Slack channels in 20 workspaces
// and 1,000 Discord channels; the fakes answer 429 on 20% of posts, 5xx on
// 2% and refuse 1% of the channels as gone. Times are scaled: one unit of
// 10ms stands for a second.
func TestFanOutToFiveThousandChannels(t *testing.T) {
	if testing.Short() {
		t.Skip("a 5,000-channel fan-out; run without -short")
	}
	unit := 10 * time.Millisecond
	h := newHarness(t, fanoutSpec{slack: 4000, discord: 1000, workspaces: 20, goneEvery: 100, unit: unit}, 1)
	h.fake.rateLimited, h.fake.serverError = 0.20, 0.02
	// Slack: 10 posts a second per workspace; Discord: 50 a second. Scaled.
	h.fake.wsRate, h.fake.wsBurst = 10/unit.Seconds(), 10
	h.fake.global = newBucket(50/unit.Seconds(), 50)
	counts := &delivery.Counts{}
	cfg := workerConfig(h.srv.URL, unit, counts)
	// The bot keeps 10% below, as DefaultLimits keeps below Discord's 50.
	cfg.Limits["slack"] = delivery.Limits{ChannelGap: unit, Workspace: rateOf(9, unit), WorkspaceBurst: 10}
	cfg.Limits["discord"] = delivery.Limits{ChannelGap: unit, Platform: rateOf(45, unit), PlatformBurst: 45}

	took := fanOut(t, h, cfg, counts)
	checkFanOut(t, h)
	s := counts.Snapshot()
	if s["delivered/slack"] != 3960 || s["delivered/discord"] != 990 {
		t.Errorf("delivered %v", s)
	}
	if s["retried/slack/rate_limited"] == 0 || s["retried/discord/error"] == 0 {
		t.Errorf("the fakes' 429s and 5xx were not met: %v", s)
	}
	t.Logf("5,000 channels in %s; attempts %v; counts %v", took.Round(time.Millisecond), h.fake.attempts, s)
	h.db.Close()
	checkFile(t, h.path)
}

// rateOf is n a second in a world where unit stands for a second.
func rateOf(n float64, unit time.Duration) rate.Limit { return rate.Limit(n / unit.Seconds()) }
