package cluster_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/etcdstore/cluster"
)

// localDB is a replica's own bbolt database, with the built-in snapshot
// when seeded.
func localDB(t *testing.T, seeded bool) *store.KnowledgeStore {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if seeded {
		k, err := snapshot.Load()
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Knowledge().ReplaceKnowledge(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
	return db.Knowledge()
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not after 30s: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReplicaSeedsSyncsAndPublishes: the first leader of a new cluster
// shares its own knowledge as generation 1, another replica loads it; a
// refresh during the term publishes generation 2 through the term's
// store, which the leader applies and the other replica loads; the term's
// hooks (leading, swaps, generations, sources) are told.
func TestReplicaSeedsSyncsAndPublishes(t *testing.T) {
	srv := etcdtest.New(t)
	shared, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints, Prefix: "/replica/"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shared.Close() })
	var leading atomic.Bool
	var swaps, noted atomic.Int32
	var gen atomic.Uint64
	published := make(chan error, 1)
	leaderKB := localDB(t, true)
	leader := cluster.NewReplica(cluster.ReplicaConfig{
		ID: "a", Shared: shared, TTL: 2 * time.Second, Local: leaderKB, Log: zerolog.Nop(),
		Swap:       func(_ context.Context, write func() error) error { swaps.Add(1); return write() },
		Sources:    func(map[string]store.SourceState) { noted.Add(1) },
		Generation: func(g uint64) { gen.Store(g) },
		Leading:    func(on bool) { leading.Store(on) },
		Refresh: func(ctx context.Context, st *cluster.TermStore) {
			if g, err := st.Generation(ctx); err != nil || g != 1 {
				published <- err
				return
			}
			k, err := snapshot.Load()
			if err != nil {
				published <- err
				return
			}
			states, err := st.SourceStates(ctx)
			if err != nil {
				published <- err
				return
			}
			published <- st.ReplaceWithSources(ctx, k, states)
			<-ctx.Done()
		},
	})
	follower := cluster.NewReplica(cluster.ReplicaConfig{
		ID: "b", Shared: shared, Local: localDB(t, false), Log: zerolog.Nop(),
		Swap: func(_ context.Context, write func() error) error { return write() },
	})
	if names := leader.Loops(); len(names) != 2 || names[0].Name() != "knowledge_sync" || names[1].Name() != "leader_election" {
		t.Fatalf("loops: %v", names)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { leader.Elect(ctx); done <- struct{}{} }()
	go func() { follower.Sync(ctx); done <- struct{}{} }()
	if err := <-published; err != nil {
		t.Fatalf("publish through the term's store: %v", err)
	}
	eventually(t, "the leader at generation 2", func() bool { return leader.Applied() == 2 && gen.Load() == 2 })
	eventually(t, "the follower at generation 2", func() bool { return follower.Applied() == 2 })
	if !leading.Load() || swaps.Load() != 1 || noted.Load() != 1 {
		t.Errorf("leading %v, swaps %d, sources noted %d; want true, 1, 1", leading.Load(), swaps.Load(), noted.Load())
	}
	cancel()
	<-done
	<-done
	if leading.Load() {
		t.Error("still leading after the term")
	}
}
