package cluster

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

func client(t testing.TB, srv *etcdtest.Server) *clientv3.Client {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: srv.Endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// replicaRun is one replica in an election test.
type replicaRun struct {
	id     string
	cli    *clientv3.Client
	cancel context.CancelFunc
	done   chan struct{}
}

// TestOneLeaderAtATime: three replicas campaign; exactly one leads at any
// moment; when the leader's process dies (its client closes without
// resigning) another leads within the lease TTL and a little; when a leader
// stops cleanly, another leads at once.
func TestOneLeaderAtATime(t *testing.T) {
	srv := etcdtest.New(t)
	var leading, most atomic.Int32
	var mu sync.Mutex
	var current string
	elected := make(chan string, 16)
	lead := func(id string) func(ctx context.Context, term Term) {
		return func(ctx context.Context, term Term) {
			n := leading.Add(1)
			if n > most.Load() {
				most.Store(n)
			}
			mu.Lock()
			current = id
			mu.Unlock()
			elected <- id
			<-ctx.Done()
			leading.Add(-1)
		}
	}
	runs := map[string]*replicaRun{}
	for _, id := range []string{"r1", "r2", "r3"} {
		ctx, cancel := context.WithCancel(context.Background())
		r := &replicaRun{id: id, cli: client(t, srv), cancel: cancel, done: make(chan struct{})}
		runs[id] = r
		go func() {
			defer close(r.done)
			_ = Run(ctx, Config{Client: r.cli, Prefix: "/t/election/", ID: id, TTL: time.Second, Log: zerolog.Nop()}, lead(id))
		}()
	}
	defer func() {
		for _, r := range runs {
			r.cancel()
			<-r.done
		}
	}()
	first := <-elected
	// The leader's process dies: no resign, no revoke, no renewal.
	start := time.Now()
	runs[first].cli.Close()
	var second string
	select {
	case second = <-elected:
	case <-time.After(5 * time.Second):
		t.Fatal("no new leader within 5 s of the leader's death")
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the new leader took %s after a 1 s lease", took)
	}
	if second == first {
		t.Fatalf("%s led again with its client closed", first)
	}
	runs[first].cancel()
	<-runs[first].done
	delete(runs, first)
	// A clean stop hands over at once: by the time Run returns, the
	// election key is gone (resigned, its lease revoked), so nobody waits
	// for a lease to run out.
	runs[second].cancel()
	<-runs[second].done
	delete(runs, second)
	var anyRun *replicaRun
	for _, r := range runs {
		anyRun = r
	}
	resp, err := anyRun.cli.Get(context.Background(), "/t/election/", clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range resp.Kvs {
		if string(kv.Value) == second {
			t.Errorf("%s stopped cleanly and its election key %s is still there", second, kv.Key)
		}
	}
	select {
	case third := <-elected:
		if third == second {
			t.Errorf("%s led again after it stopped", third)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no leader after a clean stop")
	}
	if most.Load() != 1 {
		t.Errorf("%d replicas led at once", most.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	if current == "" {
		t.Error("nobody led")
	}
}

// TestStepsDownWhenTheLeaseCannotBeRenewed: a leader that loses etcd ends
// its term by the time its lease may run out (the last renewal's send time
// plus the TTL, less the margin), without waiting for etcd.
func TestStepsDownWhenTheLeaseCannotBeRenewed(t *testing.T) {
	srv, err := etcdtest.Start(etcdtest.Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli := client(t, srv)
	type end struct{ at, validUntil time.Time }
	ended := make(chan end, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Run(ctx, Config{Client: cli, Prefix: "/t/election/", ID: "r1", TTL: time.Second, Log: zerolog.Nop()}, func(ctx context.Context, term Term) {
		go srv.Close() // etcd is gone while this replica leads (Close waits for open streams)
		<-ctx.Done()
		ended <- end{time.Now(), term.ValidUntil()}
	})
	select {
	case e := <-ended:
		if late := e.at.Sub(e.validUntil); late > 250*time.Millisecond {
			t.Errorf("the term ended %s after its lease was last known to hold", late)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the leader did not step down within 5 s of losing etcd")
	}
}

type recordingPoster struct {
	deadline time.Time
	posts    int
}

func (p *recordingPoster) Post(ctx context.Context, _ string, _ *knowledge.Answer, _ string) (string, error) {
	p.deadline, _ = ctx.Deadline()
	p.posts++
	return "m1", nil
}

func (p *recordingPoster) Idempotent() bool { return true }

// TestGuardPoster: a post starts only with a quarter of the lease left,
// ends by the time the lease may run out, and keeps the poster's kind.
func TestGuardPoster(t *testing.T) {
	clock := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	lc := &leaseClock{ttl: 4 * time.Second, until: clock.Add(3 * time.Second)}
	rec := &recordingPoster{}
	p := GuardPoster(rec, Term{lease: lc}, now)
	if _, ok := p.(delivery.Idempotent); !ok {
		t.Error("the guarded Discord poster is no longer idempotent")
	}
	if _, ok := p.(delivery.Fitter); ok {
		t.Error("the guarded poster claims a Fits it does not have")
	}
	if _, err := p.Post(context.Background(), "C1", &knowledge.Answer{}, "n"); err != nil || rec.posts != 1 {
		t.Fatalf("post with 3 s of a 4 s lease left: %v", err)
	}
	if left := time.Until(rec.deadline); left > 3*time.Second {
		t.Errorf("the post may run %s, past the lease", left)
	}
	clock = clock.Add(2500 * time.Millisecond) // 500 ms left, under a quarter of 4 s
	_, err := p.Post(context.Background(), "C1", &knowledge.Answer{}, "n")
	var rl delivery.RateLimited
	if !errors.Is(err, ErrLeaseLow) || !errors.As(err, &rl) || rec.posts != 1 {
		t.Errorf("post with 500 ms left: %v (posts %d); want ErrLeaseLow as a rate limit, nothing posted", err, rec.posts)
	}
}

// TestRunEndsWhileWaitingWithEtcdGone: a replica that waits behind
// another's leadership stops soon after its context ends, even with etcd
// gone. (etcd's Campaign, cancelled while it waits, resigns with the
// client's own context, which waits for etcd to come back; serve's
// shutdown waited on it past its timeout.)
func TestRunEndsWhileWaitingWithEtcdGone(t *testing.T) {
	srv, err := etcdtest.Start(etcdtest.Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	leaderCtx, stopLeader := context.WithCancel(context.Background())
	defer stopLeader()
	leading := make(chan struct{})
	go Run(leaderCtx, Config{Client: client(t, srv), Prefix: "/t/election/", ID: "r1", TTL: 5 * time.Second, Log: zerolog.Nop()},
		func(ctx context.Context, _ Term) { close(leading); <-ctx.Done() })
	<-leading
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Client: client(t, srv), Prefix: "/t/election/", ID: "r2", TTL: 5 * time.Second, Log: zerolog.Nop()},
			func(context.Context, Term) { t.Error("r2 led while r1 held the lease") })
	}()
	time.Sleep(500 * time.Millisecond) // r2 waits behind r1
	srv.Close()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run still waiting 5 s after its context ended, with etcd gone")
	}
}
