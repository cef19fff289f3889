package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// testOutboxStateMachine: enqueue, claim in due order and per platform,
// a refused candidate stays, parts, retries, sent.
func testOutboxStateMachine(t *testing.T, s store.Shared) {
	ctx := context.Background()
	subs := subscribe(t, s, channel("slack", "T1", "A"), channel("slack", "T1", "B"), channel("discord", "G", "C"))
	var ds []digest.Delivery
	for i, sub := range subs {
		ds = append(ds, deliveryFor(sub, "d1", now.Add(time.Duration(i)*time.Millisecond), 7))
	}
	res, err := s.EnqueueDigest(ctx, testDigest("d1"), ds)
	if err != nil || res != (digest.Enqueued{DigestNew: true, Created: 3}) {
		t.Fatalf("enqueue = %+v, %v", res, err)
	}
	if sub := find(t, s, subs[0].Ref()); sub.Seen.Through != 7 || sub.LastDigestID != "d1" || sub.Rev != subs[0].Rev+1 {
		t.Errorf("subscription after enqueue: %+v", sub)
	}
	if d, err := s.FindDigest(ctx, "d1"); err != nil || !cmp.Equal(*d, testDigest("d1")) {
		t.Errorf("FindDigest = %+v, %v", d, err)
	}
	_, err = s.FindDigest(ctx, "nope")
	wantCode(t, "FindDigest of an unknown digest", err, knowledge.ENOTFOUND)

	if got, err := s.ClaimDue(ctx, "slack", now.Add(-time.Second), 10, digest.ClaimFilter{}); err != nil || len(got) != 0 {
		t.Fatalf("claimed %d before they were due (%v)", len(got), err)
	}
	a, err := s.ClaimDue(ctx, "slack", now.Add(time.Second), 1, digest.ClaimFilter{})
	if err != nil || len(a) != 1 || a[0].Channel != "A" || a[0].State != digest.DeliverySending || a[0].Attempts != 1 {
		t.Fatalf("claim = %+v, %v", a, err)
	}
	refuseB := digest.ClaimFilter{Accept: func(d *digest.Delivery) bool { return d.Channel != "B" }}
	notReady := digest.ClaimFilter{Ready: func(ch digest.ChannelRef) bool { return ch.Channel != "B" }}
	for _, f := range []digest.ClaimFilter{refuseB, notReady} {
		if got, _ := s.ClaimDue(ctx, "slack", now.Add(time.Second), 10, f); len(got) != 0 {
			t.Fatalf("claimed %+v that the filter refused", got)
		}
	}
	if d := delivery(t, s, ds[1].Key); d.State != digest.DeliveryPending {
		t.Errorf("refused delivery is %s", d.State)
	}

	// A: two parts, the first posted, then a rate-limited retry, then the second.
	next := now.Add(time.Minute)
	if _, err := s.MarkPartSent(ctx, a[0].Key, 0, 2, "m1", now, next); err != nil {
		t.Fatal(err)
	}
	_, err = s.MarkPartSent(ctx, a[0].Key, 0, 2, "m1", now, next)
	wantCode(t, "marking a pending delivery sent", err, knowledge.EBADINPUT)
	_, err = s.MarkRetry(ctx, "slack/T1/nope/d1", next, "x", false, now)
	wantCode(t, "retrying an unknown delivery", err, knowledge.ENOTFOUND)
	if got, _ := s.ClaimDue(ctx, "slack", now.Add(time.Second), 10, refuseB); len(got) != 0 {
		t.Fatalf("claimed part 2 before its time: %+v", got)
	}
	a, _ = s.ClaimDue(ctx, "slack", next, 10, refuseB)
	if len(a) != 1 || a[0].PartsSent != 1 || a[0].Attempts != 2 {
		t.Fatalf("second claim = %+v", a)
	}
	dv, err := s.MarkRetry(ctx, a[0].Key, next.Add(time.Second), "rate limited", true, next)
	if err != nil || dv.Failures != 0 || dv.State != digest.DeliveryPending || dv.Reason != "rate limited" {
		t.Fatalf("retry = %+v, %v", dv, err)
	}
	a, _ = s.ClaimDue(ctx, "slack", next.Add(time.Second), 10, refuseB)
	if len(a) != 1 {
		t.Fatalf("third claim = %+v", a)
	}
	dv, err = s.MarkRetry(ctx, a[0].Key, next.Add(2*time.Second), "failed: error", false, next)
	if err != nil || dv.Failures != 1 {
		t.Fatalf("failed retry = %+v, %v", dv, err)
	}
	a, _ = s.ClaimDue(ctx, "slack", next.Add(2*time.Second), 10, refuseB)
	sentAt := next.Add(3 * time.Second)
	dv, err = s.MarkPartSent(ctx, a[0].Key, 1, 2, "m2", sentAt, time.Time{})
	if err != nil || dv.State != digest.DeliverySent || !dv.SentAt.Equal(sentAt) || dv.Attempts != 4 || dv.Failures != 0 {
		t.Fatalf("sent = %+v, %v", dv, err)
	}
	if diff := cmp.Diff([]string{"m1", "m2"}, dv.MessageIDs); diff != "" {
		t.Errorf("message IDs (-want +got):\n%s", diff)
	}
	if sub := find(t, s, subs[0].Ref()); !sub.LastDeliveredAt.Equal(sentAt) || sub.Rev != subs[0].Rev+1 {
		t.Errorf("subscription after delivery: %+v", sub)
	}
	if got, _ := s.ClaimDue(ctx, "slack", sentAt.Add(time.Hour), 10, digest.ClaimFilter{}); len(got) != 1 || got[0].Channel != "B" {
		t.Errorf("slack claim at the end = %+v, want B only", got)
	}
	if got, _ := s.ClaimDue(ctx, "discord", sentAt, 10, digest.ClaimFilter{}); len(got) != 1 || got[0].Channel != "C" {
		t.Errorf("discord claim = %+v", got)
	}
	all, err := s.ListDeliveries(ctx)
	if err != nil || len(all) != 3 || all[0].Key > all[1].Key || all[1].Key > all[2].Key {
		t.Errorf("ListDeliveries = %d, %v (want 3, by key)", len(all), err)
	}
}

// testEnqueueIdempotent: ten triggers racing, or one repeated, leave one
// delivery per channel; a subscription that moved on is left out.
func testEnqueueIdempotent(t *testing.T, s store.Shared) {
	ctx := context.Background()
	subs := subscribe(t, s, channel("slack", "T1", "A"), channel("slack", "T1", "B"))
	ds := []digest.Delivery{deliveryFor(subs[0], "d1", now, 3), deliveryFor(subs[1], "d1", now, 3)}
	var wg sync.WaitGroup
	results := make([]digest.Enqueued, 10)
	for i := range results {
		wg.Go(func() {
			var err error
			if results[i], err = s.EnqueueDigest(ctx, testDigest("d1"), ds); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	created, fresh := 0, 0
	for _, r := range results {
		created += r.Created
		if r.DigestNew {
			fresh++
		}
		if r.Created+r.Existing+r.Stale != 2 {
			t.Errorf("result %+v does not account for both deliveries", r)
		}
	}
	if created != 2 || fresh != 1 {
		t.Errorf("10 racing enqueues created %d deliveries and %d digests; want 2 and 1", created, fresh)
	}
	// Built from an older Rev: stale, nothing stored.
	old := deliveryFor(subs[0], "d2", now, 9)
	res, err := s.EnqueueDigest(ctx, testDigest("d2"), []digest.Delivery{old})
	if err != nil || res != (digest.Enqueued{Stale: 1}) {
		t.Errorf("stale enqueue = %+v, %v", res, err)
	}
	_, err = s.FindDigest(ctx, "d2")
	wantCode(t, "digest of a stale enqueue", err, knowledge.ENOTFOUND)
	// Re-subscribed with the same news waiting: the repeat records it as told.
	again, err := s.SaveSubscription(ctx, newSub(subs[1].Ref()))
	if err != nil {
		t.Fatal(err)
	}
	rep := deliveryFor(again, "d1", now, 5)
	if res, err := s.EnqueueDigest(ctx, testDigest("d1"), []digest.Delivery{rep}); err != nil || res != (digest.Enqueued{Existing: 1}) {
		t.Errorf("repeat after re-subscribe = %+v, %v", res, err)
	}
	if sub := find(t, s, subs[1].Ref()); sub.Seen.Through != 5 || sub.Rev != again.Rev+1 {
		t.Errorf("re-subscribed channel after the repeat: %+v", sub)
	}
	// A digest of vulnerability records moves the count of that topic,
	// when queued and when repeated after a re-subscribe alike.
	cves := deliveryFor(find(t, s, subs[0].Ref()), "d4", now, 3)
	cves.Seen.CVEs = 11
	if res, err := s.EnqueueDigest(ctx, testDigest("d4"), []digest.Delivery{cves}); err != nil || res.Created != 1 {
		t.Errorf("enqueue of a CVE digest = %+v, %v", res, err)
	}
	if sub := find(t, s, subs[0].Ref()); sub.Seen.CVEs != 11 || sub.Seen.Through != 3 {
		t.Errorf("after a CVE digest: Seen %+v", sub.Seen)
	}
	again, err = s.SaveSubscription(ctx, newSub(subs[0].Ref()))
	if err != nil {
		t.Fatal(err)
	}
	rep = deliveryFor(again, "d4", now, 0)
	rep.Seen.CVEs = 11
	if res, err := s.EnqueueDigest(ctx, testDigest("d4"), []digest.Delivery{rep}); err != nil || res != (digest.Enqueued{Existing: 1}) {
		t.Errorf("repeat of the CVE digest after re-subscribe = %+v, %v", res, err)
	}
	if sub := find(t, s, subs[0].Ref()); sub.Seen.CVEs != 11 {
		t.Errorf("re-subscribed channel after the CVE repeat: Seen %+v", sub.Seen)
	}
	// Refused input.
	bad := deliveryFor(subs[0], "other", now, 1)
	_, err = s.EnqueueDigest(ctx, testDigest("d3"), []digest.Delivery{bad})
	wantCode(t, "a delivery of another digest", err, knowledge.EBADINPUT)
	_, err = s.EnqueueDigest(ctx, digest.Digest{}, nil)
	wantCode(t, "a digest without ID", err, knowledge.EBADINPUT)
}

// testEnqueueFanOut: one digest for many channels (more than one etcd
// transaction holds) is queued whole, and claimed in due order.
func testEnqueueFanOut(t *testing.T, s store.Shared) {
	ctx := context.Background()
	var refs []digest.ChannelRef
	for i := range 150 {
		refs = append(refs, channel("discord", "G", fmt.Sprintf("%d", 1000+i)))
	}
	subs := subscribe(t, s, refs...)
	var ds []digest.Delivery
	for i, sub := range subs {
		ds = append(ds, deliveryFor(sub, "fan", now.Add(time.Duration(150-i)*time.Second), 2))
	}
	res, err := s.EnqueueDigest(ctx, testDigest("fan"), ds)
	if err != nil || res.Created != 150 || !res.DigestNew {
		t.Fatalf("fan-out enqueue = %+v, %v", res, err)
	}
	got, err := s.ClaimDue(ctx, "discord", now.Add(time.Hour), 3, digest.ClaimFilter{})
	if err != nil || len(got) != 3 {
		t.Fatalf("claim = %d, %v", len(got), err)
	}
	for i, want := range []string{"1149", "1148", "1147"} {
		if got[i].Channel != want {
			t.Errorf("claim %d is %s, want %s (soonest due first)", i, got[i].Channel, want)
		}
	}
	for _, sub := range subs {
		if s := find(t, s, sub.Ref()); s.Seen.Through != 2 {
			t.Fatalf("%s: Seen %d after the fan-out", sub.ID, s.Seen.Through)
		}
	}
}
