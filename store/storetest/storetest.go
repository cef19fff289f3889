package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// Open returns a new, empty Shared for one test; the implementation
// cleans it up when t ends.
type Open func(t *testing.T) store.Shared

// Run runs the whole contract against the stores open makes.
func Run(t *testing.T, open Open) {
	t.Run("Subscriptions", func(t *testing.T) { testSubscriptions(t, open(t)) })
	t.Run("SubscriptionRefusals", func(t *testing.T) { testSubscriptionRefusals(t, open(t)) })
	t.Run("Ledger", func(t *testing.T) { testLedger(t, open(t)) })
	t.Run("LedgerConcurrent", func(t *testing.T) { testLedgerConcurrent(t, open(t)) })
	t.Run("OutboxStateMachine", func(t *testing.T) { testOutboxStateMachine(t, open(t)) })
	t.Run("EnqueueIdempotent", func(t *testing.T) { testEnqueueIdempotent(t, open(t)) })
	t.Run("EnqueueFanOut", func(t *testing.T) { testEnqueueFanOut(t, open(t)) })
	t.Run("DeadAndPaused", func(t *testing.T) { testDeadAndPaused(t, open(t)) })
	t.Run("Recover", func(t *testing.T) { testRecover(t, open(t)) })
	t.Run("RunState", func(t *testing.T) { testRunState(t, open(t)) })
	t.Run("SourcesAndGeneration", func(t *testing.T) { testSourcesAndGeneration(t, open(t)) })
}

// now is the suite's fixed clock: tests never read the real one.
var now = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func channel(platform, ws, ch string) digest.ChannelRef {
	return digest.ChannelRef{Platform: platform, Workspace: ws, Channel: ch}
}

func newSub(ref digest.ChannelRef) digest.Subscription {
	return digest.Subscription{Platform: ref.Platform, Workspace: ref.Workspace, Channel: ref.Channel,
		Filter:    digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact},
		CreatedBy: "U1", CreatedAt: now, State: digest.SubscriptionActive}
}

func subscribe(t *testing.T, s store.Shared, refs ...digest.ChannelRef) []*digest.Subscription {
	t.Helper()
	var out []*digest.Subscription
	for _, r := range refs {
		sub, err := s.SaveSubscription(context.Background(), newSub(r))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sub)
	}
	return out
}

func testDigest(id string) digest.Digest {
	v := knowledge.MustVersion("1.40")
	return digest.Digest{ID: id, Window: "release", Title: "Deprecation digest: Kubernetes 1.40",
		Groups: []digest.DigestGroup{{Release: v, Items: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget v1beta1"}}}}}
}

// deliveryFor is the delivery of digest id to sub, built from sub's Rev.
func deliveryFor(sub *digest.Subscription, id string, at time.Time, seen uint64) digest.Delivery {
	ref := sub.Ref()
	return digest.Delivery{Key: digest.DeliveryKey(ref, id), DigestID: id, Subscription: sub.ID,
		Platform: ref.Platform, Workspace: ref.Workspace, Channel: ref.Channel, Format: sub.Filter.Format,
		Seen: digest.Seen{Through: seen}, BasedOn: sub.Rev, CreatedAt: at, NextAttempt: at}
}

func find(t *testing.T, s store.Shared, ref digest.ChannelRef) *digest.Subscription {
	t.Helper()
	sub, err := s.FindSubscriptionByChannel(context.Background(), ref)
	if err != nil {
		t.Fatalf("find %s: %v", ref.ID(), err)
	}
	return sub
}

func delivery(t *testing.T, s store.Shared, key string) *digest.Delivery {
	t.Helper()
	d, err := s.FindDelivery(context.Background(), key)
	if err != nil {
		t.Fatalf("find delivery %s: %v", key, err)
	}
	return d
}

// wantCode fails t unless err carries code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := knowledge.ErrorCode(err); got != code {
		t.Errorf("%s: error %v (code %q), want code %q", what, err, got, code)
	}
}

func keys(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%03d", prefix, i)
	}
	return out
}
