package delivery_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// resubscribe saves ch's subscription again with filter f (Seen 0).
func resubscribe(t testing.TB, h *harness, ch digest.ChannelRef, f digest.Filter) digest.Subscription {
	t.Helper()
	s, err := h.db.Subscriptions().SaveSubscription(context.Background(), digest.Subscription{
		Platform: ch.Platform, Workspace: ch.Workspace, Channel: ch.Channel, CreatedBy: "U1", Filter: f})
	if err != nil {
		t.Fatal(err)
	}
	return *s
}

// TestTriggersRacingQueueOnce fires the new-knowledge trigger and the
// weekly schedule ten times each, all at once: one digest per content,
// one delivery per channel.
func TestTriggersRacingQueueOnce(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, fanoutSpec{slack: 40, discord: 10, workspaces: 4, unit: time.Millisecond}, 3)
	weekly := digest.Filter{Schedule: digest.ScheduleWeekly, Format: digest.FormatFull, From: knowledge.MustVersion("1.40")}
	for _, ch := range h.channels[:10] {
		resubscribe(t, h, ch, weekly)
	}
	at := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	tr := trigger(h.db, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total delivery.Report
	for range 10 {
		for _, fire := range []func() (delivery.Report, error){
			func() (delivery.Report, error) { return tr.OnKnowledgeChanged(ctx) },
			func() (delivery.Report, error) { return tr.RunSchedule(ctx, digest.ScheduleWeekly, at) },
		} {
			wg.Go(func() {
				r, err := fire()
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total.Created += r.Created
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	all, err := h.db.Outbox().ListDeliveries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	perChannel := map[string]int{}
	digests := map[string]bool{}
	for _, d := range all {
		perChannel[d.Channel]++
		digests[d.DigestID] = true
	}
	if len(all) != 50 || total.Created != 50 || len(digests) != 2 {
		t.Errorf("%d deliveries (%d reported created) of %d digests; want 50 of 2 (release, weekly)", len(all), total.Created, len(digests))
	}
	for ch, n := range perChannel {
		if n != 1 {
			t.Errorf("channel %s has %d deliveries", ch, n)
		}
	}
	for id := range digests {
		if _, err := h.db.Outbox().FindDigest(ctx, id); err != nil {
			t.Errorf("digest %s: %v", id, err)
		}
	}
	// Nothing new: firing again queues nothing.
	if r, _ := tr.OnKnowledgeChanged(ctx); r.Created+r.Existing+r.Digests != 0 {
		t.Errorf("a trigger with nothing new queued %+v", r)
	}
}

func TestTriggerQueuesOnlyWhatIsNew(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, fanoutSpec{slack: 2, discord: 1, workspaces: 1, unit: time.Millisecond}, 3)
	node := resubscribe(t, h, h.channels[2], digest.Filter{SIG: "node", Schedule: digest.ScheduleRelease, Format: digest.FormatCompact})
	tr := trigger(h.db, nil)
	if r, err := tr.OnKnowledgeChanged(ctx); err != nil || r.Created != 2 {
		t.Fatalf("first trigger %+v, %v; want the two unfiltered channels", r, err)
	}
	extra := []knowledge.Notice{
		{Kind: knowledge.NoticeDeprecation, Release: knowledge.MustVersion("1.42"), Title: "The spindle flag", Text: "SIG Node retires it.", Source: "notes-1.42"},
		{Kind: knowledge.NoticeUpgrade, Release: knowledge.MustVersion("1.42"), Title: "Drain first", Source: "notes-1.42"},
	}
	if err := h.db.Knowledge().ReplaceKnowledge(ctx, fanoutKnowledge(extra...)); err != nil {
		t.Fatal(err)
	}
	notified := 0
	tr = trigger(h.db, func() { notified++ })
	r, err := tr.OnKnowledgeChanged(ctx)
	if err != nil || r.Created != 3 || r.Digests != 1 || notified != 1 {
		t.Fatalf("after new knowledge: %+v, %v, notified %d; want one digest for all three", r, err, notified)
	}
	sub, _ := h.db.Subscriptions().FindSubscriptionByChannel(ctx, node.Ref())
	d, err := h.db.Outbox().FindDigest(ctx, sub.LastDigestID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Count() != 1 || d.Groups[0].Items[0].Title != "The spindle flag" {
		t.Errorf("second digest %+v; want only the new deprecation", d)
	}
}

func TestOnSubscribedAndPreview(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, fanoutSpec{slack: 2, workspaces: 1, unit: time.Millisecond}, 3)
	tr := trigger(h.db, nil)
	fromSub := resubscribe(t, h, h.channels[0], digest.Filter{From: knowledge.MustVersion("1.41"), Schedule: digest.ScheduleRelease, Format: digest.FormatFull})
	weeklySub := resubscribe(t, h, h.channels[1], digest.Filter{Schedule: digest.ScheduleWeekly, Format: digest.FormatCompact})

	d, sub, ok, err := tr.Preview(ctx, fromSub.Ref())
	if err != nil || !ok || sub.ID != fromSub.ID || d.Count() != 2 {
		t.Fatalf("preview: %d notices, ok %v, %v; want the 1.42 pair", d.Count(), ok, err)
	}
	if all, _ := h.db.Outbox().ListDeliveries(ctx); len(all) != 0 {
		t.Fatalf("preview queued %d deliveries", len(all))
	}
	if _, _, _, err := tr.Preview(ctx, digest.ChannelRef{Platform: "slack", Workspace: "T00", Channel: "nope"}); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("preview of no subscription: %v", err)
	}

	if r, err := tr.OnSubscribed(ctx, weeklySub); err != nil || r.Created != 0 {
		t.Errorf("a weekly subscription waits for its day: %+v, %v", r, err)
	}
	r, err := tr.OnSubscribed(ctx, fromSub)
	if err != nil || r.Created != 1 {
		t.Fatalf("OnSubscribed: %+v, %v", r, err)
	}
	all, _ := h.db.Outbox().ListDeliveries(ctx)
	if len(all) != 1 || all[0].Channel != fromSub.Channel || all[0].Format != digest.FormatFull {
		t.Errorf("queued %+v", all)
	}
}
