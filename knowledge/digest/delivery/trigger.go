package delivery

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// TriggerConfig is what a Trigger reads and writes.
type TriggerConfig struct {
	Knowledge     digest.NoticeSource
	Subscriptions digest.SubscriptionStore
	Ledger        digest.NoticeLedger
	Outbox        digest.Outbox
	// Notify is called after deliveries were queued: Worker.Notify.
	Notify func()
	Now    func() time.Time // default time.Now
}

// Trigger queues digests: for new knowledge, for a schedule, for a new
// subscription. Every call is idempotent: what it queued before, it does
// not queue again, however often and however concurrently it is called.
type Trigger struct{ cfg TriggerConfig }

// NewTrigger returns a Trigger over cfg.
func NewTrigger(cfg TriggerConfig) *Trigger {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Notify == nil {
		cfg.Notify = func() {}
	}
	return &Trigger{cfg: cfg}
}

// Report says what one trigger queued.
type Report struct {
	Subscriptions int // subscriptions it looked at
	Digests       int // distinct digests built
	Created       int // deliveries queued now
	Existing      int // deliveries queued before
	Stale         int // deliveries left out: the subscription changed meanwhile
}

// Window names for digests a schedule builds.
const windowRelease = "release"

// ScheduleWindow names the window of the run of schedule for the time at:
// "weekly:2026-11-23T09:00Z".
func ScheduleWindow(schedule string, at time.Time) string {
	return schedule + ":" + at.UTC().Format("2006-01-02T15:04Z")
}

// OnKnowledgeChanged queues, for every active schedule:release
// subscription, a digest of what is new to it in the knowledge now. Call it
// after every ingest or sync that replaced the knowledge, and once at start
// (an ingest may have run while kepbot was down). The ledger knows what
// every subscription was told, so it needs neither the old knowledge nor
// the new: calling it when nothing changed queues nothing.
func (t *Trigger) OnKnowledgeChanged(ctx context.Context) (Report, error) {
	return t.fire(ctx, func(s *digest.Subscription) bool { return s.Filter.Schedule == digest.ScheduleRelease }, windowRelease)
}

// RunSchedule queues, for every active subscription on schedule (weekly
// or daily), a digest of what is new to it, for the run at at.
func (t *Trigger) RunSchedule(ctx context.Context, schedule string, at time.Time) (Report, error) {
	return t.fire(ctx, func(s *digest.Subscription) bool { return s.Filter.Schedule == schedule }, ScheduleWindow(schedule, at))
}

// OnSubscribed queues the first digest of a new schedule:release
// subscription that has news waiting (it asked from: a release), rather
// than keep it until the next release. Serve calls it from
// digest.SubscriptionConfig.Subscribed and logs an error it returns.
func (t *Trigger) OnSubscribed(ctx context.Context, s digest.Subscription) (Report, error) {
	if s.Filter.Schedule != digest.ScheduleRelease {
		return Report{}, nil
	}
	return t.fire(ctx, func(x *digest.Subscription) bool { return x.ID == s.ID }, windowRelease)
}

// Preview returns the digest the channel would get if its schedule ran
// now, without queueing it; ok is false when nothing is new to it. It fails
// with ENOTFOUND when the channel has no subscription.
func (t *Trigger) Preview(ctx context.Context, ch digest.ChannelRef) (d digest.Digest, sub *digest.Subscription, ok bool, err error) {
	sub, err = t.cfg.Subscriptions.FindSubscriptionByChannel(ctx, ch)
	if err != nil {
		return d, nil, false, err
	}
	set, err := digest.LoadNoticeSet(ctx, t.cfg.Knowledge, t.cfg.Ledger)
	if err != nil {
		return d, sub, false, err
	}
	window := windowRelease
	if sub.Filter.Schedule != digest.ScheduleRelease {
		window = ScheduleWindow(sub.Filter.Schedule, t.cfg.Now())
	}
	d, _, ok = digest.BuildDigest(set, sub.Filter, sub.Seen, window)
	return d, sub, ok, nil
}

// fire builds the digest of every active subscription match accepts and
// queues each distinct digest with its deliveries in one transaction.
func (t *Trigger) fire(ctx context.Context, match func(*digest.Subscription) bool, window string) (Report, error) {
	var rep Report
	set, err := digest.LoadNoticeSet(ctx, t.cfg.Knowledge, t.cfg.Ledger)
	if err != nil {
		return rep, fmt.Errorf("digest trigger: %w", err)
	}
	subs, err := t.cfg.Subscriptions.ListSubscriptions(ctx)
	if err != nil {
		return rep, fmt.Errorf("digest trigger: %w", err)
	}
	now := t.cfg.Now().UTC()
	type batch struct {
		digest digest.Digest
		ds     []digest.Delivery
	}
	batches := map[string]*batch{}
	for i := range subs {
		s := &subs[i]
		if !s.Active() || !match(s) {
			continue
		}
		rep.Subscriptions++
		d, seen, ok := digest.BuildDigest(set, s.Filter, s.Seen, window)
		if !ok {
			continue
		}
		b := batches[d.ID]
		if b == nil {
			b = &batch{digest: d}
			batches[d.ID] = b
		}
		ref := s.Ref()
		b.ds = append(b.ds, digest.Delivery{
			Key: digest.DeliveryKey(ref, d.ID), DigestID: d.ID, Subscription: s.ID,
			Platform: ref.Platform, Workspace: ref.Workspace, Channel: ref.Channel, Format: s.Filter.Format,
			Seen: seen, BasedOn: s.Rev, CreatedAt: now, NextAttempt: now,
		})
	}
	ids := make([]string, 0, len(batches))
	for id := range batches {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	rep.Digests = len(ids)
	for _, id := range ids {
		res, err := t.cfg.Outbox.EnqueueDigest(ctx, batches[id].digest, batches[id].ds)
		if err != nil {
			return rep, fmt.Errorf("digest trigger: %w", err)
		}
		rep.Created += res.Created
		rep.Existing += res.Existing
		rep.Stale += res.Stale
	}
	if rep.Created > 0 {
		t.cfg.Notify()
	}
	return rep, nil
}
