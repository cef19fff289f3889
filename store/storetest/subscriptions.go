package storetest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// testSubscriptions: save, find, list, replace (history kept, Rev moves),
// pause, resume by saving again, delete.
func testSubscriptions(t *testing.T, s store.Shared) {
	ctx := context.Background()
	a, b := channel("slack", "T1", "CA"), channel("discord", "G1", "42")
	subs := subscribe(t, s, b, a)
	if subs[0].ID != b.ID() || subs[0].Rev != 1 || subs[0].State != digest.SubscriptionActive {
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
	if got.State != digest.SubscriptionPaused || got.PausedReason != "channel_not_found" || !got.PausedAt.Equal(now) || got.Rev != 2 {
		t.Errorf("paused: %+v", got)
	}
	// Saving again resumes it, with a new filter; Rev keeps counting.
	again := newSub(a)
	again.Filter.SIG = "network"
	saved, err := s.SaveSubscription(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if saved.State != digest.SubscriptionActive || saved.PausedReason != "" || saved.Rev != 3 || saved.Filter.SIG != "network" {
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
	bad := []digest.Subscription{
		newSub(channel("slack", "T1", "")),
		newSub(channel("slack", "T/1", "C1")),
		func() digest.Subscription {
			x := newSub(channel("slack", "T1", "C1"))
			x.Filter.Schedule = "hourly"
			return x
		}(),
		func() digest.Subscription {
			x := newSub(channel("slack", "T1", "C1"))
			x.Filter.Format = "tiny"
			return x
		}(),
		func() digest.Subscription {
			x := newSub(channel("slack", "T1", "C1"))
			x.State = digest.SubscriptionPaused
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

func ids(aliases ...[]string) []digest.NoticeIdentity {
	out := make([]digest.NoticeIdentity, len(aliases))
	for i, a := range aliases {
		out[i] = digest.NoticeIdentity{Aliases: a}
	}
	return out
}

func seqs(pairs ...uint64) []digest.NoticeSeq {
	var out []digest.NoticeSeq
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, digest.NoticeSeq{First: pairs[i], Last: pairs[i+1]})
	}
	return out
}

// testLedger: items are numbered by alias in the order given, once; an
// item sharing an alias with a numbered one takes its number and records
// its other aliases; an item joining two takes the smaller and reports the
// larger as Last; a long alias is kept; many items at once are numbered
// like few.
func testLedger(t *testing.T, s store.Shared) {
	ctx := context.Background()
	observe := func(in []digest.NoticeIdentity) []digest.NoticeSeq {
		t.Helper()
		got, err := s.ObserveNotices(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	long := strings.Repeat("x", 5000)
	if diff := cmp.Diff(seqs(1, 1, 2, 2), observe(ids([]string{"b"}, []string{"a", long}))); diff != "" {
		t.Errorf("first (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(seqs(1, 1, 2, 2, 3, 3), observe(ids([]string{"b", "c"}, []string{"a", long}, []string{"d"}))); diff != "" {
		t.Errorf("second (-want +got):\n%s", diff)
	}
	if got := observe(ids([]string{"c"})); got[0].First != 1 {
		t.Errorf("c alone: %+v; want the sequence it was recorded with, 1", got)
	}
	if got := observe(ids([]string{"a", "d"})); got[0] != (digest.NoticeSeq{First: 2, Last: 3}) {
		t.Errorf("a and d: %+v; want First 2, Last 3", got)
	}
	var many [][]string
	for _, k := range keys(300, "n") {
		many = append(many, []string{k, k + "/other-name"})
	}
	got := observe(ids(many...))
	for i := range many {
		if got[i].First != uint64(4+i) {
			t.Fatalf("item %d of 300 got %d, want %d", i, got[i].First, 4+i)
		}
	}
	if again := observe(ids(many...)); !cmp.Equal(got, again) {
		t.Errorf("observing again changed the numbers")
	}
	if got := observe(nil); len(got) != 0 {
		t.Errorf("no identities gave %v", got)
	}
}

// testLedgerConcurrent: observers racing (replicas, triggers) never give
// two items one number, nor one item two.
func testLedgerConcurrent(t *testing.T, s store.Shared) {
	ctx := context.Background()
	all := keys(120, "k")
	var wg sync.WaitGroup
	results := make([]map[string]uint64, 6)
	errs := make([]error, 6)
	for i := range results {
		wg.Go(func() {
			// Each observer sees the items in a different rotation.
			ks := append(append([]string{}, all[i*20:]...), all[:i*20]...)
			var in [][]string
			for _, k := range ks {
				in = append(in, []string{k})
			}
			got, err := s.ObserveNotices(ctx, ids(in...))
			results[i], errs[i] = map[string]uint64{}, err
			for j, k := range ks {
				if err == nil {
					results[i][k] = got[j].First
				}
			}
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
				t.Fatalf("item %s: observer 0 got %d, observer %d got %d", k, n, i, results[i][k])
			}
		}
		if other, dup := seen[n]; dup || n == 0 || n > uint64(len(all)) {
			t.Fatalf("item %s got %d (also %q)", k, n, other)
		}
		seen[n] = k
	}
}
