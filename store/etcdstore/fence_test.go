package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
)

var now = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// leaderKey puts a key on a lease, as an election does, and returns the
// fence naming it and the lease.
func leaderKey(t *testing.T, c *clientv3.Client, key string) (etcdstore.Fence, clientv3.LeaseID) {
	t.Helper()
	ctx := context.Background()
	l, err := c.Grant(ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Put(ctx, key, "r1", clientv3.WithLease(l.ID))
	if err != nil {
		t.Fatal(err)
	}
	return etcdstore.Fence{Key: key, Rev: resp.Header.Revision}, l.ID
}

// TestFencedWritesEndWithLeadership: the leader's writes go through while
// its election key holds and are refused with ErrNotLeader once its lease
// is gone; any replica's subscription writes still go through.
func TestFencedWritesEndWithLeadership(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, etcdtest.New(t))
	fence, lease := leaderKey(t, s.Client(), s.Prefix()+"election/r1")
	lead := s.Fenced(fence)
	ref := digest.ChannelRef{Platform: "slack", Workspace: "T1", Channel: "C1"}
	sub, err := s.SaveSubscription(ctx, digest.Subscription{Platform: "slack", Workspace: "T1", Channel: "C1",
		Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}})
	if err != nil {
		t.Fatal(err)
	}
	dv := digest.Delivery{Key: digest.DeliveryKey(ref, "d1"), DigestID: "d1", Subscription: sub.ID, Platform: "slack",
		Workspace: "T1", Channel: "C1", Format: "compact", BasedOn: sub.Rev, CreatedAt: now, NextAttempt: now}
	if _, err := s.EnqueueDigest(ctx, digest.Digest{ID: "d1"}, []digest.Delivery{dv}); err != nil {
		t.Fatal(err)
	}
	got, err := lead.ClaimDue(ctx, "slack", now, 1, digest.ClaimFilter{})
	if err != nil || len(got) != 1 {
		t.Fatalf("the leader's claim = %+v, %v", got, err)
	}
	if err := lead.SetLastRun(ctx, "weekly", now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Client().Revoke(ctx, lease); err != nil { // the lease runs out: another replica may lead now
		t.Fatal(err)
	}
	if _, err := lead.MarkPartSent(ctx, dv.Key, 0, 1, "m1", now, now); !errors.Is(err, etcdstore.ErrNotLeader) {
		t.Errorf("a deposed leader recording a post: %v, want ErrNotLeader", err)
	}
	if _, err := lead.Recover(ctx, now); !errors.Is(err, etcdstore.ErrNotLeader) {
		t.Errorf("a deposed leader recovering: %v, want ErrNotLeader", err)
	}
	if err := lead.SetLastRun(ctx, "daily", now); !errors.Is(err, etcdstore.ErrNotLeader) {
		t.Errorf("a deposed leader recording a schedule run: %v", err)
	}
	if _, err := lead.Publish(ctx, []byte("x"), nil); !errors.Is(err, etcdstore.ErrNotLeader) {
		t.Errorf("a deposed leader publishing: %v", err)
	}
	if d, _ := s.FindDelivery(ctx, dv.Key); d.State != digest.DeliverySending {
		t.Errorf("the delivery is %s; the refused write must change nothing", d.State)
	}
	if _, err := lead.SaveSubscription(ctx, digest.Subscription{Platform: "slack", Workspace: "T1", Channel: "C2",
		Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}}); err != nil {
		t.Errorf("a subscription through a deposed leader's store: %v; subscriptions are any replica's", err)
	}
	// The next leader finds the delivery in doubt.
	next, _ := leaderKey(t, s.Client(), s.Prefix()+"election/r2")
	back, err := s.Fenced(next).Recover(ctx, now)
	if err != nil || len(back.InDoubt) != 1 || back.InDoubt[0].InDoubt != 1 {
		t.Errorf("the next leader's Recover = %+v, %v", back, err)
	}
}

// TestUnreachableEtcd: with etcd gone, a write fails within the request
// timeout with ErrUnavailable, whose message is for the user.
func TestUnreachableEtcd(t *testing.T) {
	srv, err := etcdtest.Start(etcdtest.Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints, RequestTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv.Close()
	start := time.Now()
	_, err = s.SaveSubscription(context.Background(), digest.Subscription{Platform: "slack", Workspace: "T1", Channel: "C1",
		Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}})
	if !errors.Is(err, etcdstore.ErrUnavailable) {
		t.Fatalf("save with etcd gone: %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("it took %s to give up", took)
	}
	if msg := knowledge.ErrorMessage(err); !strings.Contains(msg, "try again in a minute") {
		t.Errorf("the user is told %q", msg)
	}
	if _, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints, DialTimeout: 200 * time.Millisecond}); err == nil ||
		!strings.Contains(err.Error(), srv.Endpoint()) {
		t.Errorf("Open with etcd gone: %v; want the endpoints named", err)
	}
}

// TestPublishInChunks: a corpus many chunks long is read back whole by
// another replica, the watch sees each generation, and chunks older than
// the previous generation are deleted.
func TestPublishInChunks(t *testing.T) {
	ctx := context.Background()
	srv := etcdtest.New(t)
	s := openStore(t, srv)
	small, err := etcdstore.Open(ctx, etcdstore.Config{Endpoints: srv.Endpoints, Prefix: s.Prefix(), ChunkBytes: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watch := s.WatchGeneration(wctx)
	var corpus knowledge.Corpus
	for i := range 300 {
		corpus.KEPs = append(corpus.KEPs, knowledge.KEP{Number: 10000 + i, Title: fmt.Sprintf("Gadget %d with a title of its own %x", i, i*7919)})
	}
	for want := uint64(1); want <= 3; want++ {
		corpus.KEPs[0].Title = fmt.Sprintf("generation %d", want)
		if err := small.ReplaceWithSources(ctx, &knowledge.Knowledge{Corpus: &corpus}, map[string]store.SourceState{}); err != nil {
			t.Fatal(err)
		}
		select {
		case g := <-watch:
			if g.Number != want || g.Chunks < 5 {
				t.Errorf("watched generation %+v, want %d in several chunks", g, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("generation %d not seen by the watch", want)
		}
		got, g, err := s.LoadCorpus(ctx)
		if err != nil || g.Number != want || len(got.KEPs) != 300 || got.KEPs[0].Title != corpus.KEPs[0].Title {
			t.Fatalf("generation %d read back as %d (%v)", want, g.Number, err)
		}
	}
	resp, err := s.Client().Get(ctx, s.Prefix()+"knowledge/corpus/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range resp.Kvs {
		if strings.Contains(string(kv.Key), fmt.Sprintf("/%020d/", 1)) {
			t.Errorf("generation 1's chunk %s is still there after generation 3", kv.Key)
		}
	}
	// Publish itself, which serve's leader calls, refuses a source URL
	// that could carry a secret.
	if _, err := s.Publish(ctx, []byte("{}"), map[string]store.SourceState{"x": {URL: "https://h.test/f?token=abc"}}); err == nil {
		t.Error("published source states with a token in a URL")
	}
	if g, err := s.Generation(ctx); err != nil || g != 3 {
		t.Errorf("generation %d after a refused publish (%v), want 3", g, err)
	}
}
