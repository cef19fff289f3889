package storetest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/store"
)

// testSubscriptions: save, find, list, replace (history kept, Rev moves),
// pause, resume by saving again, delete.
func testSubscriptions(t *testing.T, s store.Shared) {
	ctx := context.Background()
	a, b := channel("slack", "T1", "CA"), channel("discord", "G1", "42")
	subs := subscribe(t, s, b, a)
	if subs[0].ID != b.ID() || subs[0].Rev != 1 || subs[0].State != knowledge.SubscriptionActive {
		t.Fatalf("saved %+v", subs[0])
	}
	all, err := s.ListSubscriptions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range all {
		ids = append(ids, x.ID)
	}
	if diff := cmp.Diff([]string{b.ID(), a.ID()}, ids); diff != "" {
		t.Errorf("ListSubscriptions by ID (-want +got):\n%s", diff)
	}
	if err := s.PauseSubscription(ctx, a, "channel_not_found", now); err != nil {
		t.Fatal(err)
	}
	got := find(t, s, a)
	if got.State != knowledge.SubscriptionPaused || got.PausedReason != "channel_not_found" || !got.PausedAt.Equal(now) || got.Rev != 2 {
		t.Errorf("paused: %+v", got)
	}
	// Saving again resumes it, with a new filter; Rev keeps counting.
	again := newSub(a)
	again.Filter.SIG = "network"
	saved, err := s.SaveSubscription(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if saved.State != knowledge.SubscriptionActive || saved.PausedReason != "" || saved.Rev != 3 || saved.Filter.SIG != "network" {
		t.Errorf("saved again: %+v", saved)
	}
	if got := find(t, s, a); !cmp.Equal(got, saved) {
		t.Errorf("find after save (-stored +returned):\n%s", cmp.Diff(got, saved))
	}
	if err := s.DeleteSubscription(ctx, a); err != nil {
		t.Fatal(err)
	}
	_, err = s.FindSubscriptionByChannel(ctx, a)
	wantCode(t, "find after delete", err, knowledge.ENOTFOUND)
	wantCode(t, "delete twice", s.DeleteSubscription(ctx, a), knowledge.ENOTFOUND)
	wantCode(t, "pause without subscription", s.PauseSubscription(ctx, a, "x", now), knowledge.ENOTFOUND)
}

// testSubscriptionRefusals: what cannot be stored is refused with
// EBADINPUT and stores nothing.
func testSubscriptionRefusals(t *testing.T, s store.Shared) {
	ctx := context.Background()
	bad := []knowledge.Subscription{
		newSub(channel("slack", "T1", "")),
		newSub(channel("slack", "T/1", "C1")),
		func() knowledge.Subscription {
			x := newSub(channel("slack", "T1", "C1"))
			x.Filter.Schedule = "hourly"
			return x
		}(),
		func() knowledge.Subscription {
			x := newSub(channel("slack", "T1", "C1"))
			x.Filter.Format = "tiny"
			return x
		}(),
		func() knowledge.Subscription {
			x := newSub(channel("slack", "T1", "C1"))
			x.State = knowledge.SubscriptionPaused
			return x
		}(),
	}
	for i, sub := range bad {
		_, err := s.SaveSubscription(ctx, sub)
		wantCode(t, "save bad subscription "+string(rune('0'+i)), err, knowledge.EBADINPUT)
	}
	if all, err := s.ListSubscriptions(ctx); err != nil || len(all) != 0 {
		t.Errorf("after refusals: %d subscriptions, %v", len(all), err)
	}
}

// testLedger: keys are numbered in the order given, once; a long key is
// kept; many keys at once are numbered like few.
func testLedger(t *testing.T, s store.Shared) {
	ctx := context.Background()
	got, err := s.ObserveNotices(ctx, []string{"b", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]uint64{"b": 1, "a": 2}, got); diff != "" {
		t.Errorf("first observe (-want +got):\n%s", diff)
	}
	long := strings.Repeat("x", 2000)
	got, err = s.ObserveNotices(ctx, []string{"a", "c", long, "b"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]uint64{"a": 2, "c": 3, long: 4, "b": 1}, got); diff != "" {
		t.Errorf("second observe (-want +got):\n%s", diff)
	}
	many := keys(300, "n")
	got, err = s.ObserveNotices(ctx, many)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range many {
		if got[k] != uint64(5+i) {
			t.Fatalf("key %d of 300 got %d, want %d", i, got[k], 5+i)
		}
	}
	again, err := s.ObserveNotices(ctx, many)
	if err != nil || !cmp.Equal(got, again) {
		t.Errorf("observing again changed the numbers: %v", err)
	}
}

// testLedgerConcurrent: observers racing (replicas, triggers) never give
// two keys one number, nor one key two.
func testLedgerConcurrent(t *testing.T, s store.Shared) {
	ctx := context.Background()
	all := keys(120, "k")
	var wg sync.WaitGroup
	results := make([]map[string]uint64, 6)
	errs := make([]error, 6)
	for i := range results {
		wg.Go(func() {
			// Each observer sees the keys in a different rotation.
			ks := append(append([]string{}, all[i*20:]...), all[:i*20]...)
			results[i], errs[i] = s.ObserveNotices(ctx, ks)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("observer %d: %v", i, err)
		}
	}
	seen := map[uint64]string{}
	for _, k := range all {
		n := results[0][k]
		for i := range results {
			if results[i][k] != n {
				t.Fatalf("key %s: observer 0 got %d, observer %d got %d", k, n, i, results[i][k])
			}
		}
		if other, dup := seen[n]; dup || n == 0 || n > uint64(len(all)) {
			t.Fatalf("key %s got %d (also %q)", k, n, other)
		}
		seen[n] = k
	}
}
