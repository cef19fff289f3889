package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

func testDigest(id string) digest.Digest {
	return digest.Digest{ID: id, Window: "release", Title: "Deprecation digest: Kubernetes 1.40",
		Groups: []digest.DigestGroup{{Release: knowledge.MustVersion("1.40"),
			Items: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.40"), Title: "Gadget v1beta1"}}}}}
}

// deliveryFor is the delivery of digest id to sub, built from sub's Rev.
func deliveryFor(sub *digest.Subscription, id string, at time.Time) digest.Delivery {
	ref := sub.Ref()
	return digest.Delivery{Key: digest.DeliveryKey(ref, id), DigestID: id, Subscription: sub.ID,
		Platform: ref.Platform, Workspace: ref.Workspace, Channel: ref.Channel, Format: sub.Filter.Format,
		Seen: digest.Seen{Through: 7}, BasedOn: sub.Rev, CreatedAt: at, NextAttempt: at}
}

// subscribeAll saves a subscription for each channel and returns them.
func subscribeAll(t testing.TB, db *DB, refs ...digest.ChannelRef) []*digest.Subscription {
	t.Helper()
	var out []*digest.Subscription
	for _, r := range refs {
		s, err := db.Subscriptions().SaveSubscription(context.Background(), newSub(r, digest.Filter{}))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func states(t *testing.T, o *Outbox) map[string]digest.DeliveryState {
	t.Helper()
	all, err := o.ListDeliveries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]digest.DeliveryState{}
	for _, d := range all {
		out[d.Channel] = d.State
	}
	return out
}

func TestOutboxStateMachine(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	o := db.Outbox()
	subs := subscribeAll(t, db, channel("slack", "T1", "A"), channel("slack", "T1", "B"), channel("discord", "G", "C"))
	var ds []digest.Delivery
	for _, s := range subs {
		ds = append(ds, deliveryFor(s, "d1", subsNow))
	}
	res, err := o.EnqueueDigest(ctx, testDigest("d1"), ds)
	if err != nil || res != (digest.Enqueued{DigestNew: true, Created: 3}) {
		t.Fatalf("enqueue = %+v, %v", res, err)
	}
	sub, _ := db.Subscriptions().FindSubscriptionByChannel(ctx, subs[0].Ref())
	if sub.Seen.Through != 7 || sub.LastDigestID != "d1" || sub.Rev != subs[0].Rev+1 {
		t.Errorf("subscription after enqueue: %+v", sub)
	}

	// Not due yet; then due, one at a time, only the platform asked for.
	if got, _ := o.ClaimDue(ctx, "slack", subsNow.Add(-time.Second), 10, digest.ClaimFilter{}); len(got) != 0 {
		t.Fatalf("claimed %d before they were due", len(got))
	}
	a, err := o.ClaimDue(ctx, "slack", subsNow, 1, digest.ClaimFilter{})
	if err != nil || len(a) != 1 || a[0].Channel != "A" || a[0].State != digest.DeliverySending || a[0].Attempts != 1 {
		t.Fatalf("claim = %+v, %v", a, err)
	}
	refuseB := digest.ClaimFilter{Accept: func(d *digest.Delivery) bool { return d.Channel != "B" }}
	if got, _ := o.ClaimDue(ctx, "slack", subsNow, 10, refuseB); len(got) != 0 {
		t.Fatalf("claimed %+v that accept refused", got)
	}

	// A: two parts, the first posted, then a retry, then the second.
	next := subsNow.Add(time.Second)
	if _, err := o.MarkPartSent(ctx, a[0].Key, 0, 2, "m1", subsNow, next); err != nil {
		t.Fatal(err)
	}
	if _, err := o.MarkPartSent(ctx, a[0].Key, 0, 2, "m1", subsNow, next); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
		t.Errorf("marking a pending delivery sent: %v, want EBADINPUT", err)
	}
	if got, _ := o.ClaimDue(ctx, "slack", subsNow, 10, refuseB); len(got) != 0 {
		t.Fatalf("claimed part 2 before its time: %+v", got)
	}
	a, _ = o.ClaimDue(ctx, "slack", next, 10, refuseB)
	if len(a) != 1 || a[0].PartsSent != 1 {
		t.Fatalf("second claim = %+v", a)
	}
	dv, err := o.MarkRetry(ctx, a[0].Key, next.Add(time.Second), "rate limited", true, next)
	if err != nil || dv.Failures != 0 || dv.State != digest.DeliveryPending {
		t.Fatalf("retry = %+v, %v", dv, err)
	}
	a, _ = o.ClaimDue(ctx, "slack", next.Add(time.Second), 10, refuseB)
	if len(a) != 1 || a[0].Attempts != 3 {
		t.Fatalf("third claim = %+v", a)
	}
	sentAt := next.Add(2 * time.Second)
	dv, err = o.MarkPartSent(ctx, a[0].Key, 1, 2, "m2", sentAt, time.Time{})
	if err != nil || dv.State != digest.DeliverySent || !dv.SentAt.Equal(sentAt) {
		t.Fatalf("sent = %+v, %v", dv, err)
	}
	if diff := cmp.Diff([]string{"m1", "m2"}, dv.MessageIDs); diff != "" {
		t.Errorf("message IDs (-want +got):\n%s", diff)
	}
	if sub, _ := db.Subscriptions().FindSubscriptionByChannel(ctx, subs[0].Ref()); !sub.LastDeliveredAt.Equal(sentAt) {
		t.Errorf("last delivered %v, want %v", sub.LastDeliveredAt, sentAt)
	}
	if _, err := o.MarkDead(ctx, a[0].Key, "x", false, sentAt); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
		t.Errorf("killing a sent delivery: %v, want EBADINPUT", err)
	}

	// B: a terminal error pauses its subscription in the same transaction.
	b, _ := o.ClaimDue(ctx, "slack", sentAt, 10, digest.ClaimFilter{})
	if len(b) != 1 || b[0].Channel != "B" {
		t.Fatalf("claim B = %+v", b)
	}
	if _, err := o.MarkDead(ctx, b[0].Key, "channel_not_found", true, sentAt); err != nil {
		t.Fatal(err)
	}
	sub, _ = db.Subscriptions().FindSubscriptionByChannel(ctx, subs[1].Ref())
	if sub.State != digest.SubscriptionPaused || sub.PausedReason != "channel_not_found" {
		t.Errorf("B's subscription: %+v", sub)
	}
	if _, err := o.MarkRetry(ctx, "slack/T1/none/d1", sentAt, "", false, sentAt); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("retry of no delivery: %v, want ENOTFOUND", err)
	}

	want := map[string]digest.DeliveryState{"A": "sent", "B": "dead", "C": "pending"}
	if diff := cmp.Diff(want, states(t, o)); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if d, err := o.FindDigest(ctx, "d1"); err != nil || d.Title != testDigest("d1").Title {
		t.Errorf("digest = %+v, %v", d, err)
	}
}

func TestPausingKillsTheChannelsPendingDeliveries(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	o := db.Outbox()
	ref := channel("discord", "G", "C")
	sub := subscribeAll(t, db, ref)[0]
	for i, id := range []string{"d1", "d2"} {
		if _, err := o.EnqueueDigest(ctx, testDigest(id), []digest.Delivery{deliveryFor(sub, id, subsNow.Add(time.Duration(i)*time.Hour))}); err != nil {
			t.Fatal(err)
		}
		sub, _ = db.Subscriptions().FindSubscriptionByChannel(ctx, ref)
	}
	got, _ := o.ClaimDue(ctx, "discord", subsNow, 10, digest.ClaimFilter{})
	if len(got) != 1 {
		t.Fatalf("claimed %d", len(got))
	}
	if _, err := o.MarkDead(ctx, got[0].Key, "10003", true, subsNow); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"d1", "d2"} {
		dv, _ := o.FindDelivery(ctx, digest.DeliveryKey(ref, id))
		if dv.State != digest.DeliveryDead {
			t.Errorf("%s: %s", id, dv.State)
		}
	}
	if dv, _ := o.FindDelivery(ctx, digest.DeliveryKey(ref, "d1")); dv.Reason != "10003" {
		t.Errorf("d1 reason %q", dv.Reason)
	}
	if dv, _ := o.FindDelivery(ctx, digest.DeliveryKey(ref, "d2")); dv.Reason != "subscription paused: 10003" {
		t.Errorf("d2 reason %q", dv.Reason)
	}
	if got, _ := o.ClaimDue(ctx, "discord", subsNow.Add(2*time.Hour), 10, digest.ClaimFilter{}); len(got) != 0 {
		t.Errorf("claimed %+v after the pause", got)
	}
}

func TestUnsubscribeDropsWhatIsNotPosted(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	o := db.Outbox()
	subs := subscribeAll(t, db, channel("slack", "T1", "A"), channel("slack", "T1", "B"))
	ds := []digest.Delivery{deliveryFor(subs[0], "d1", subsNow), deliveryFor(subs[1], "d1", subsNow)}
	if _, err := o.EnqueueDigest(ctx, testDigest("d1"), ds); err != nil {
		t.Fatal(err)
	}
	if err := db.Subscriptions().DeleteSubscription(ctx, subs[0].Ref()); err != nil {
		t.Fatal(err)
	}
	// B's subscription is removed behind the outbox's back: the claim finds it gone.
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketSubscriptions).Delete([]byte(subs[1].ID)) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.ClaimDue(ctx, "slack", subsNow, 10, digest.ClaimFilter{}); len(got) != 0 {
		t.Fatalf("claimed %+v for unsubscribed channels", got)
	}
	all, _ := o.ListDeliveries(ctx)
	for _, d := range all {
		if d.State != digest.DeliveryDead || d.Reason != "unsubscribed" {
			t.Errorf("%s: %s %q", d.Channel, d.State, d.Reason)
		}
	}
}

func TestEnqueueIsIdempotentUnderConcurrentTriggers(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	o := db.Outbox()
	var refs []digest.ChannelRef
	for i := range 50 {
		refs = append(refs, channel("slack", "T1", fmt.Sprintf("C%03d", i)))
	}
	subs := subscribeAll(t, db, refs...)
	var wg sync.WaitGroup
	results := make([]digest.Enqueued, 10)
	for i := range results {
		wg.Go(func() {
			var ds []digest.Delivery
			for _, s := range subs { // every trigger read the subscriptions before any wrote
				ds = append(ds, deliveryFor(s, "d1", subsNow))
			}
			var err error
			if results[i], err = o.EnqueueDigest(ctx, testDigest("d1"), ds); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var created, existing, digests int
	for _, r := range results {
		created += r.Created
		existing += r.Existing
		if r.DigestNew {
			digests++
		}
	}
	if created != 50 || existing != 450 || digests != 1 {
		t.Errorf("created %d existing %d digests %d; want 50, 450, 1", created, existing, digests)
	}
	all, _ := o.ListDeliveries(ctx)
	if len(all) != 50 {
		t.Errorf("%d deliveries, want 50", len(all))
	}
	for _, s := range subs {
		got, _ := db.Subscriptions().FindSubscriptionByChannel(ctx, s.Ref())
		if got.Rev != s.Rev+1 {
			t.Errorf("%s: Rev %d, want %d (Seen recorded once)", s.ID, got.Rev, s.Rev+1)
		}
	}
	// A digest built from the old Rev after that is stale, not a second delivery.
	res, err := o.EnqueueDigest(ctx, testDigest("d2"), []digest.Delivery{deliveryFor(subs[0], "d2", subsNow)})
	if err != nil || res != (digest.Enqueued{Stale: 1}) {
		t.Errorf("stale enqueue = %+v, %v", res, err)
	}
	if _, err := o.FindDigest(ctx, "d2"); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("a digest nobody gets was stored: %v", err)
	}
}

func TestEnqueueRefusesForeignDeliveries(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	sub := subscribeAll(t, db, channel("slack", "T1", "A"))[0]
	bad := deliveryFor(sub, "other", subsNow)
	if _, err := db.Outbox().EnqueueDigest(ctx, testDigest("d1"), []digest.Delivery{bad}); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
		t.Errorf("foreign delivery: %v, want EBADINPUT", err)
	}
	if _, err := db.Outbox().EnqueueDigest(ctx, digest.Digest{}, nil); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
		t.Errorf("digest without ID: %v, want EBADINPUT", err)
	}
}

func TestRecoverPutsInDoubtDeliveriesBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kepbot.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	subs := subscribeAll(t, db, channel("slack", "T1", "A"), channel("discord", "G", "B"))
	ds := []digest.Delivery{deliveryFor(subs[0], "d1", subsNow), deliveryFor(subs[1], "d1", subsNow)}
	if _, err := db.Outbox().EnqueueDigest(ctx, testDigest("d1"), ds); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"slack", "discord"} {
		if got, _ := db.Outbox().ClaimDue(ctx, p, subsNow, 10, digest.ClaimFilter{}); len(got) != 1 {
			t.Fatalf("%s: claimed %d", p, len(got))
		}
	}
	db.Close() // as if the process died with both posts under way
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	later := subsNow.Add(time.Hour)
	back, err := db.Outbox().Recover(ctx, later)
	if err != nil || len(back.InDoubt) != 2 || len(back.NotBegun) != 0 {
		t.Fatalf("recover = %+v, %v; want both in doubt: each was claimed on its own", back, err)
	}
	for _, d := range back.InDoubt {
		if d.State != digest.DeliveryPending || d.InDoubt != 1 || !d.NextAttempt.Equal(later) {
			t.Errorf("recovered %+v", d)
		}
	}
	if again, _ := db.Outbox().Recover(ctx, later); len(again.InDoubt)+len(again.NotBegun) != 0 {
		t.Errorf("second recover found %+v", again)
	}
	if got, _ := db.Outbox().ClaimDue(ctx, "discord", later, 10, digest.ClaimFilter{}); len(got) != 1 || got[0].Attempts != 2 {
		t.Errorf("claim after recover = %+v", got)
	}
	checkPages(t, db)
}

// TestRecoverTellsTheBegunFromTheNotBegun: of deliveries claimed in turn
// (posted one after another, each recorded before the next begins), a
// crash can catch only the first still sending in the middle of its post;
// those behind it had not begun. Deliveries claimed at once are each in
// doubt.
func TestRecoverTellsTheBegunFromTheNotBegun(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kepbot.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	subs := subscribeAll(t, db, channel("slack", "T1", "A"), channel("slack", "T1", "B"), channel("slack", "T1", "C"), channel("slack", "T1", "D"),
		channel("discord", "G", "E"), channel("discord", "G", "F"))
	var ds []digest.Delivery
	for _, s := range subs {
		ds = append(ds, deliveryFor(s, "d1", subsNow))
	}
	o := db.Outbox()
	if _, err := o.EnqueueDigest(ctx, testDigest("d1"), ds); err != nil {
		t.Fatal(err)
	}
	batch, err := o.ClaimDue(ctx, "slack", subsNow, 10, digest.ClaimFilter{InTurn: true})
	if err != nil || len(batch) != 4 {
		t.Fatalf("claim in turn = %+v, %v", batch, err)
	}
	for i, d := range batch {
		want := ""
		if i > 0 {
			want = batch[i-1].Key
		}
		if d.ClaimedAfter != want {
			t.Errorf("claimed %d after %q, want %q", i, d.ClaimedAfter, want)
		}
	}
	if got, _ := o.ClaimDue(ctx, "discord", subsNow, 10, digest.ClaimFilter{}); len(got) != 2 || got[1].ClaimedAfter != "" {
		t.Fatalf("claim at once = %+v", got)
	}
	// The first was posted and recorded; the second was being posted.
	if _, err := o.MarkPartSent(ctx, batch[0].Key, 0, 1, "m1", subsNow, subsNow); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if db, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	back, err := db.Outbox().Recover(ctx, subsNow)
	if err != nil {
		t.Fatal(err)
	}
	keys := func(ds []digest.Delivery) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Channel)
		}
		sort.Strings(out)
		return out
	}
	if diff := cmp.Diff([]string{"B", "E", "F"}, keys(back.InDoubt)); diff != "" {
		t.Errorf("in doubt (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"C", "D"}, keys(back.NotBegun)); diff != "" {
		t.Errorf("not begun (-want +got):\n%s", diff)
	}
	for _, d := range back.NotBegun {
		if d.InDoubt != 0 || d.State != digest.DeliveryPending || d.ClaimedAfter != "" {
			t.Errorf("not begun %s: %+v", d.Channel, d)
		}
	}
	for _, d := range back.InDoubt {
		if d.InDoubt != 1 || d.State != digest.DeliveryPending || d.ClaimedAfter != "" {
			t.Errorf("in doubt %s: %+v", d.Channel, d)
		}
	}
	checkPages(t, db)
}

func TestLastRun(t *testing.T) {
	ctx := context.Background()
	o := openUserState(t).Outbox()
	if got, err := o.LastRun(ctx, "weekly"); err != nil || !got.IsZero() {
		t.Fatalf("before any run: %v, %v", got, err)
	}
	if err := o.SetLastRun(ctx, "weekly", subsNow); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.LastRun(ctx, "weekly"); !got.Equal(subsNow) {
		t.Errorf("last run %v, want %v", got, subsNow)
	}
}

// TestEnqueueAgainAfterResubscribing: a channel that subscribes again with
// the same news waiting has had that digest; it is not queued twice, and
// the subscription records it as told so the trigger stops rebuilding it.
func TestEnqueueAgainAfterResubscribing(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	o := db.Outbox()
	ref := channel("slack", "T1", "A")
	sub := subscribeAll(t, db, ref)[0]
	if _, err := o.EnqueueDigest(ctx, testDigest("d1"), []digest.Delivery{deliveryFor(sub, "d1", subsNow)}); err != nil {
		t.Fatal(err)
	}
	again := subscribeAll(t, db, ref)[0] // Seen back to 0
	res, err := o.EnqueueDigest(ctx, testDigest("d1"), []digest.Delivery{deliveryFor(again, "d1", subsNow)})
	if err != nil || res != (digest.Enqueued{Existing: 1}) {
		t.Fatalf("enqueue again = %+v, %v", res, err)
	}
	got, _ := db.Subscriptions().FindSubscriptionByChannel(ctx, ref)
	if got.Seen.Through != 7 || got.Rev != again.Rev+1 {
		t.Errorf("after the repeat: %+v; want Seen 7 recorded", got)
	}
	if all, _ := o.ListDeliveries(ctx); len(all) != 1 {
		t.Errorf("%d deliveries, want 1", len(all))
	}
}

func TestClaimDueAsksReadyBeforeReading(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	o := db.Outbox()
	subs := subscribeAll(t, db, channel("slack", "T1", "A"), channel("slack", "T2", "B"))
	if _, err := o.EnqueueDigest(ctx, testDigest("d1"), []digest.Delivery{deliveryFor(subs[0], "d1", subsNow), deliveryFor(subs[1], "d1", subsNow)}); err != nil {
		t.Fatal(err)
	}
	var ready, accepted []string
	got, err := o.ClaimDue(ctx, "slack", subsNow, 10, digest.ClaimFilter{
		Ready:  func(ch digest.ChannelRef) bool { ready = append(ready, ch.ID()); return ch.Workspace != "T1" },
		Accept: func(d *digest.Delivery) bool { accepted = append(accepted, d.Channel); return true },
	})
	if err != nil || len(got) != 1 || got[0].Channel != "B" {
		t.Fatalf("claim = %+v, %v", got, err)
	}
	if diff := cmp.Diff([]string{"slack/T1/A", "slack/T2/B"}, ready); diff != "" {
		t.Errorf("Ready saw (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"B"}, accepted); diff != "" {
		t.Errorf("Accept saw (-want +got):\n%s", diff)
	}
	if dv, _ := o.FindDelivery(ctx, digest.DeliveryKey(subs[0].Ref(), "d1")); dv.State != digest.DeliveryPending {
		t.Errorf("the refused delivery is %s", dv.State)
	}
}
