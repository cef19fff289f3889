package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// testDeadAndPaused: a delivery to a channel that is gone dies with its
// subscription paused and the channel's other pending deliveries; one
// whose subscription was removed dies when claimed; unsubscribing gives
// up what was not posted.
func testDeadAndPaused(t *testing.T, s store.Shared) {
	ctx := context.Background()
	a, b, c := channel("slack", "T1", "A"), channel("slack", "T1", "B"), channel("slack", "T1", "C")
	subs := subscribe(t, s, a, b, c)
	if _, err := s.EnqueueDigest(ctx, testDigest("d1"), []digest.Delivery{deliveryFor(subs[0], "d1", now, 1)}); err != nil {
		t.Fatal(err)
	}
	sa := find(t, s, a)
	if _, err := s.EnqueueDigest(ctx, testDigest("d2"), []digest.Delivery{deliveryFor(sa, "d2", now.Add(time.Hour), 2),
		deliveryFor(subs[1], "d2", now, 2), deliveryFor(subs[2], "d2", now, 2)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ClaimDue(ctx, "slack", now, 1, digest.ClaimFilter{Ready: func(ch digest.ChannelRef) bool { return ch.Channel == "A" }})
	if err != nil || len(got) != 1 {
		t.Fatalf("claim = %+v, %v", got, err)
	}
	dv, err := s.MarkDead(ctx, got[0].Key, "channel_not_found", true, now)
	if err != nil || dv.State != digest.DeliveryDead || dv.Reason != "channel_not_found" {
		t.Fatalf("MarkDead = %+v, %v", dv, err)
	}
	if sub := find(t, s, a); sub.State != digest.SubscriptionPaused || sub.PausedReason != "channel_not_found" {
		t.Errorf("subscription after a terminal failure: %+v", sub)
	}
	if d := delivery(t, s, digest.DeliveryKey(a, "d2")); d.State != digest.DeliveryDead {
		t.Errorf("the channel's other delivery is %s, want dead", d.State)
	}
	_, err = s.MarkDead(ctx, got[0].Key, "again", false, now)
	wantCode(t, "killing a dead delivery", err, knowledge.EBADINPUT)

	// B unsubscribes: its pending delivery dies at once.
	if err := s.DeleteSubscription(ctx, b); err != nil {
		t.Fatal(err)
	}
	if d := delivery(t, s, digest.DeliveryKey(b, "d2")); d.State != digest.DeliveryDead || d.Reason != "unsubscribed" {
		t.Errorf("unsubscribed channel's delivery: %s %q", d.State, d.Reason)
	}
	// C paused by an adapter (channel archived): its delivery dies on claim at the latest.
	if err := s.PauseSubscription(ctx, c, "is_archived", now); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ClaimDue(ctx, "slack", now.Add(2*time.Hour), 10, digest.ClaimFilter{}); err != nil || len(got) != 0 {
		t.Errorf("claimed %+v, %v; every channel is gone", got, err)
	}
	if d := delivery(t, s, digest.DeliveryKey(c, "d2")); d.State != digest.DeliveryDead {
		t.Errorf("paused channel's delivery is %s", d.State)
	}
}

// testRecover: what a crash (or a lost leader) left sending comes back
// pending, due now; one claimed in turn behind another still sending had
// not begun and is not counted in doubt; nothing else moves.
func testRecover(t *testing.T, s store.Shared) {
	ctx := context.Background()
	subs := subscribe(t, s, channel("slack", "T1", "A"), channel("discord", "G", "7"), channel("slack", "T1", "B"), channel("slack", "T1", "C"))
	var ds []digest.Delivery
	for i, sub := range subs {
		ds = append(ds, deliveryFor(sub, "d1", now.Add(time.Duration(i)*time.Millisecond), 1))
	}
	if _, err := s.EnqueueDigest(ctx, testDigest("d1"), ds); err != nil {
		t.Fatal(err)
	}
	sl, _ := s.ClaimDue(ctx, "slack", now.Add(time.Second), 2, digest.ClaimFilter{InTurn: true})
	dc, _ := s.ClaimDue(ctx, "discord", now.Add(time.Second), 1, digest.ClaimFilter{})
	if len(sl) != 2 || len(dc) != 1 || sl[1].ClaimedAfter != sl[0].Key || sl[0].ClaimedAfter != "" {
		t.Fatalf("claims: slack %+v, discord %d", sl, len(dc))
	}
	later := now.Add(time.Minute)
	back, err := s.Recover(ctx, later)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, d := range back.InDoubt {
		keys = append(keys, d.Key)
		if d.State != digest.DeliveryPending || d.InDoubt != 1 || !d.NextAttempt.Equal(later) || d.ClaimedAfter != "" {
			t.Errorf("recovered in doubt %+v", d)
		}
	}
	if diff := cmp.Diff([]string{dc[0].Key, sl[0].Key}, keys, cmpSorted); diff != "" {
		t.Errorf("recovered in doubt (-want +got):\n%s", diff)
	}
	if len(back.NotBegun) != 1 || back.NotBegun[0].Key != sl[1].Key || back.NotBegun[0].InDoubt != 0 || back.NotBegun[0].State != digest.DeliveryPending {
		t.Errorf("not begun: %+v; want %s, not counted in doubt", back.NotBegun, sl[1].Key)
	}
	if again, err := s.Recover(ctx, later); err != nil || len(again.InDoubt)+len(again.NotBegun) != 0 {
		t.Errorf("second Recover = %+v, %v", again, err)
	}
	got, err := s.ClaimDue(ctx, "slack", later, 10, digest.ClaimFilter{})
	if err != nil || len(got) != 3 {
		t.Errorf("claim after recover = %d, %v", len(got), err)
	}
	for _, d := range got {
		if d.ClaimedAfter != "" {
			t.Errorf("%s claimed not in turn records %q", d.Key, d.ClaimedAfter)
		}
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

// testRunState: a schedule never run reads zero; a run is kept.
func testRunState(t *testing.T, s store.Shared) {
	ctx := context.Background()
	if at, err := s.LastRun(ctx, "weekly"); err != nil || !at.IsZero() {
		t.Fatalf("LastRun before any = %v, %v", at, err)
	}
	if err := s.SetLastRun(ctx, "weekly", now.In(time.FixedZone("X", 3600))); err != nil {
		t.Fatal(err)
	}
	if at, err := s.LastRun(ctx, "weekly"); err != nil || !at.Equal(now) {
		t.Errorf("LastRun = %v, %v; want %v", at, err, now)
	}
	if at, _ := s.LastRun(ctx, "daily"); !at.IsZero() {
		t.Errorf("daily ran at %v", at)
	}
}

// testSourcesAndGeneration: states are kept whole, a URL that could carry
// a secret is refused, and a knowledge replace bumps the generation by one
// with its states.
func testSourcesAndGeneration(t *testing.T, s store.Shared) {
	ctx := context.Background()
	if st, err := s.SourceStates(ctx); err != nil || len(st) != 0 {
		t.Fatalf("states before any = %v, %v", st, err)
	}
	if g, err := s.Generation(ctx); err != nil || g != 0 {
		t.Fatalf("generation before any = %d, %v", g, err)
	}
	states := map[string]store.SourceState{
		"lifecycle": {URL: "https://example.test/k8s.md", ETag: `"abc"`, Checked: now, Succeeded: now, Result: "not modified"},
		"kep.yaml":  {URL: "https://example.test/tarball", Failures: 2, FailingSince: now, RetryAt: now.Add(time.Hour), Result: "failed", Error: "HTTP 503"},
	}
	if err := s.SaveSourceStates(ctx, states); err != nil {
		t.Fatal(err)
	}
	got, err := s.SourceStates(ctx)
	if err != nil || !cmp.Equal(states, got) {
		t.Errorf("states (-want +got):\n%s %v", cmp.Diff(states, got), err)
	}
	if err := s.SaveSourceStates(ctx, map[string]store.SourceState{"x": {URL: "https://h.test/f?token=abc"}}); err == nil {
		t.Error("a URL with a query was stored")
	}
	if got, _ := s.SourceStates(ctx); !cmp.Equal(states, got) {
		t.Error("a refused save changed the states")
	}
	k := &knowledge.Knowledge{
		Releases: []knowledge.ReleaseRecord{{Release: knowledge.Release{Version: knowledge.MustVersion("1.40")}}},
		KEPs:     []knowledge.KEP{{Number: 9001, Title: "Sprockets", SIG: "sig-network"}},
		Corpus:   &knowledge.Corpus{},
	}
	next := map[string]store.SourceState{"lifecycle": {URL: "https://example.test/k8s.md", Changed: now, Result: "updated"}}
	for want := uint64(1); want <= 2; want++ {
		if err := s.ReplaceWithSources(ctx, k, next); err != nil {
			t.Fatal(err)
		}
		if g, err := s.Generation(ctx); err != nil || g != want {
			t.Errorf("generation after replace %d = %d, %v", want, g, err)
		}
	}
	if got, _ := s.SourceStates(ctx); !cmp.Equal(next, got) {
		t.Errorf("states after replace (-want +got):\n%s", cmp.Diff(next, got))
	}
	if err := s.ReplaceWithSources(ctx, k, map[string]store.SourceState{"x": {URL: "https://h.test/f?token=abc"}}); err == nil {
		t.Error("replaced the knowledge with a token in a source URL")
	}
	if g, err := s.Generation(ctx); err != nil || g != 2 {
		t.Errorf("generation %d after a refused replace (%v), want 2", g, err)
	}
}
