package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/storetest"
)

// replayStores returns two stores on srv under one prefix of their own,
// each with its own client: two replicas sharing one etcd.
func replayStores(t *testing.T, srv *etcdtest.Server) (*etcdstore.Store, *etcdstore.Store) {
	t.Helper()
	prefix := fmt.Sprintf("/test-%d/", prefixes.Add(1))
	open := func() *etcdstore.Store {
		s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	return open(), open()
}

// testGranularity groups expiries by the second, so leases end soon.
const testGranularity = time.Second

// TestReplayGuardContract runs the replay guard contract (the one the
// Slack adapter's in-memory guard keeps) against a real etcd: two guards
// on two clients, as two replicas; expiry is etcd dropping the lease.
func TestReplayGuardContract(t *testing.T) {
	srv := etcdtest.New(t)
	var guards sync.Map // every guard New made, to wait on in Expire
	storetest.RunReplayGuard(t, storetest.ReplayHarness{
		New: func(t *testing.T) (storetest.ReplayGuard, storetest.ReplayGuard) {
			a, b := replayStores(t, srv)
			ga := a.ReplayGuard(etcdstore.ReplayConfig{Granularity: testGranularity})
			gb := b.ReplayGuard(etcdstore.ReplayConfig{Granularity: testGranularity})
			guards.Store(t.Name(), ga)
			return ga, gb
		},
		Now:   time.Now,
		Short: 500 * time.Millisecond,
		Expire: func(t *testing.T, signature string, until time.Time) {
			g, _ := guards.Load(t.Name())
			waitForgotten(t, g.(*etcdstore.ReplayGuard), signature, until)
		},
	})
}

// waitForgotten waits until etcd has dropped signature: no sooner than
// until, and no later than its lease (a bucket and a granularity past
// until) plus etcd's expiry sweep.
func waitForgotten(t *testing.T, g *etcdstore.ReplayGuard, signature string, until time.Time) {
	t.Helper()
	deadline := until.Add(2*testGranularity + 3*time.Second)
	for {
		kept, err := g.Recorded(context.Background(), signature)
		if err != nil {
			t.Fatal(err)
		}
		if !kept {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("signature still kept %s after its time", time.Since(until).Round(time.Millisecond))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if time.Now().Before(until) {
		t.Errorf("signature forgotten %s before its time", time.Until(until))
	}
}

// TestReplayGuardLeasesShared: a check is one transaction, and the lease
// is granted once for the requests whose windows end in one bucket.
func TestReplayGuardLeasesShared(t *testing.T) {
	a, _ := replayStores(t, etcdtest.New(t))
	g := a.ReplayGuard(etcdstore.ReplayConfig{Granularity: time.Hour})
	ctx := context.Background()
	until := time.Now().Add(5 * time.Minute)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if seen, err := g.Seen(ctx, fmt.Sprintf("v0=%064x", i+1), until.Add(time.Duration(i)*time.Millisecond)); err != nil || seen {
				t.Errorf("signature %d: seen %v, %v", i, seen, err)
			}
		})
	}
	wg.Wait()
	leases, err := a.Client().Leases(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(leases.Leases); n != 1 {
		t.Errorf("%d leases for 50 requests ending in one bucket, want 1", n)
	}
	resp, err := a.Client().Get(ctx, a.Prefix()+"replay/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil || resp.Count != 50 {
		t.Errorf("%d signatures kept, want 50 (%v)", resp.Count, err)
	}
	ttl, err := a.Client().TimeToLive(ctx, leases.Leases[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	// The bucket ends within the hour after until; the lease lasts an
	// hour past that, capped at an hour from now.
	if got := time.Duration(ttl.GrantedTTL) * time.Second; got != time.Hour {
		t.Errorf("lease granted for %s, want the cap, 1h", got)
	}
}

// TestReplayGuardUnavailable: with etcd gone, a check fails within the
// guard's timeout with ErrUnavailable, never reporting a request new or
// seen (the adapter then falls back to its own memory and refuses
// subscription changes), and a lease grant that failed is asked again.
func TestReplayGuardUnavailable(t *testing.T) {
	srv, err := etcdtest.Start(etcdtest.Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints, Prefix: "/replay-down/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := s.ReplayGuard(etcdstore.ReplayConfig{Timeout: 300 * time.Millisecond})
	until := time.Now().Add(5 * time.Minute)
	if seen, err := g.Seen(context.Background(), "v0="+fmt.Sprintf("%064x", 1), until); err != nil || seen {
		t.Fatalf("with etcd up: %v, %v", seen, err)
	}
	srv.Close()
	for i, sig := range []string{fmt.Sprintf("v0=%064x", 1), fmt.Sprintf("v0=%064x", 2)} {
		start := time.Now()
		seen, err := g.Seen(context.Background(), sig, until)
		if took := time.Since(start); took > time.Second {
			t.Errorf("check %d took %s with etcd down, want about the 300 ms timeout", i, took)
		}
		if seen || !errors.Is(err, etcdstore.ErrUnavailable) {
			t.Errorf("check %d with etcd down = %v, %v; want ErrUnavailable", i, seen, err)
		}
	}
	// A grant that failed is not kept: with a bucket nobody has a lease
	// for yet, the next check asks etcd again (and fails again here).
	if _, err := g.Seen(context.Background(), fmt.Sprintf("v0=%064x", 3), until.Add(time.Hour)); !errors.Is(err, etcdstore.ErrUnavailable) {
		t.Errorf("a new bucket with etcd down = %v, want ErrUnavailable", err)
	}
}

// TestReplayGuardDefaults: with the zero config, an empty signature is an
// error, not a pass, and one whose time is already past is still recorded
// (on a lease of the shortest length).
func TestReplayGuardDefaults(t *testing.T) {
	a, _ := replayStores(t, etcdtest.New(t))
	g := a.ReplayGuard(etcdstore.ReplayConfig{})
	if _, err := g.Seen(context.Background(), "", time.Now().Add(time.Minute)); err == nil {
		t.Error("an empty signature was recorded")
	}
	if seen, err := g.Seen(context.Background(), fmt.Sprintf("v0=%064x", 9), time.Now().Add(-time.Minute)); err != nil || seen {
		t.Errorf("a signature whose time is past: %v, %v; want recorded (for a second at least)", seen, err)
	}
}

// TestReplayGuardLeaseLost: a lease etcd no longer has (revoked by an
// operator, or gone sooner than reckoned) is replaced on the next check,
// which still records its signature.
func TestReplayGuardLeaseLost(t *testing.T) {
	a, b := replayStores(t, etcdtest.New(t))
	g := a.ReplayGuard(etcdstore.ReplayConfig{Granularity: time.Hour})
	ctx := context.Background()
	until := time.Now().Add(5 * time.Minute)
	if seen, err := g.Seen(ctx, fmt.Sprintf("v0=%064x", 1), until); err != nil || seen {
		t.Fatalf("first: %v, %v", seen, err)
	}
	leases, err := a.Client().Leases(ctx)
	if err != nil || len(leases.Leases) != 1 {
		t.Fatalf("leases: %+v, %v", leases, err)
	}
	if _, err := a.Client().Revoke(ctx, leases.Leases[0].ID); err != nil {
		t.Fatal(err)
	}
	if seen, err := g.Seen(ctx, fmt.Sprintf("v0=%064x", 2), until); err != nil || seen {
		t.Fatalf("after the lease was revoked: %v, %v; want recorded on a new lease", seen, err)
	}
	other := b.ReplayGuard(etcdstore.ReplayConfig{Granularity: time.Hour})
	if seen, err := other.Seen(ctx, fmt.Sprintf("v0=%064x", 2), until); err != nil || !seen {
		t.Errorf("the other replica: %v, %v; want seen", seen, err)
	}
}
