package storetest

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
	"testing"
	"time"
)

// ReplayGuard is what the Slack adapter asks of the set of request
// signatures it has served (slack.ReplayGuard): the in-memory one of a
// single process and etcdstore's, shared by replicas, keep this contract.
type ReplayGuard interface {
	Seen(ctx context.Context, signature string, until time.Time) (bool, error)
}

// ReplayHarness runs the contract on one implementation.
type ReplayHarness struct {
	// New returns two guards over one set of signatures, as two replicas
	// on one etcd have; an implementation kept in one process returns the
	// same guard twice.
	New func(t *testing.T) (ReplayGuard, ReplayGuard)
	// Now is the guards' clock.
	Now func() time.Time
	// Expire lets time pass until signature, recorded until until, has
	// been forgotten: it moves a fake clock past until, or waits for etcd
	// to drop the lease.
	Expire func(t *testing.T, signature string, until time.Time)
	// Short is how far ahead of Now the expiry test records a signature:
	// as short as the implementation keeps one exactly.
	Short time.Duration
}

// RunReplayGuard runs the replay guard contract against h.
func RunReplayGuard(t *testing.T, h ReplayHarness) {
	t.Run("Repeat", func(t *testing.T) { testReplayRepeat(t, h) })
	t.Run("Shared", func(t *testing.T) { testReplayShared(t, h) })
	t.Run("Concurrent", func(t *testing.T) { testReplayConcurrent(t, h) })
	t.Run("Expires", func(t *testing.T) { testReplayExpires(t, h) })
}

// sig is a signature shaped as Slack's: "v0=" and 64 hex digits, each
// test's own.
func sig(t *testing.T, n int) string {
	h := fnv.New64a()
	h.Write([]byte(t.Name()))
	return fmt.Sprintf("v0=%016x%048x", h.Sum64(), n)
}

func seen(t *testing.T, g ReplayGuard, signature string, until time.Time) bool {
	t.Helper()
	ok, err := g.Seen(context.Background(), signature, until)
	if err != nil {
		t.Fatalf("Seen(%s): %v", signature[:10], err)
	}
	return ok
}

// testReplayRepeat: a signature is new once, then seen every time after;
// another signature is another request.
func testReplayRepeat(t *testing.T, h ReplayHarness) {
	g, _ := h.New(t)
	until := h.Now().Add(5 * time.Minute)
	if seen(t, g, sig(t, 1), until) {
		t.Fatal("a new signature is reported seen")
	}
	for i := range 3 {
		if !seen(t, g, sig(t, 1), until) {
			t.Fatalf("repeat %d of a signature is reported new", i+1)
		}
	}
	if seen(t, g, sig(t, 2), until) {
		t.Error("a second signature is reported seen after the first")
	}
}

// testReplayShared: what one guard recorded the other refuses, both ways.
func testReplayShared(t *testing.T, h ReplayHarness) {
	a, b := h.New(t)
	until := h.Now().Add(5 * time.Minute)
	if seen(t, a, sig(t, 1), until) || !seen(t, b, sig(t, 1), until) {
		t.Error("a signature recorded by one guard is new to the other")
	}
	if seen(t, b, sig(t, 2), until) || !seen(t, a, sig(t, 2), until) {
		t.Error("a signature recorded by the other guard is new to the first")
	}
}

// testReplayConcurrent: of many calls with one signature at once, on
// both guards, exactly one reports it new.
func testReplayConcurrent(t *testing.T, h ReplayHarness) {
	a, b := h.New(t)
	until := h.Now().Add(5 * time.Minute)
	for round := range 3 {
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			fresh int
		)
		for i := range 16 {
			g := a
			if i%2 == 1 {
				g = b
			}
			wg.Go(func() {
				ok, err := g.Seen(context.Background(), sig(t, round), until)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					mu.Lock()
					fresh++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if fresh != 1 {
			t.Errorf("round %d: %d of 16 concurrent calls found the signature new, want 1", round, fresh)
		}
	}
}

// testReplayExpires: a signature is forgotten once its time is up (the
// request is stale by then, refused anyway), and one that lasts longer is
// still kept.
func testReplayExpires(t *testing.T, h ReplayHarness) {
	g, other := h.New(t)
	now := h.Now()
	short, long := now.Add(h.Short), now.Add(time.Hour)
	if seen(t, g, sig(t, 1), short) || seen(t, g, sig(t, 2), long) {
		t.Fatal("new signatures reported seen")
	}
	h.Expire(t, sig(t, 1), short)
	if seen(t, other, sig(t, 1), h.Now().Add(5*time.Minute)) {
		t.Error("a signature is still kept after its time")
	}
	if !seen(t, other, sig(t, 2), long) {
		t.Error("a signature with time left was forgotten with another")
	}
}
