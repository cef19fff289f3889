package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/etcdstore/cluster"
)

// replica is what `bot serve` runs with store.backend etcd, beside the
// adapters: every replica loads each knowledge generation the leader
// publishes into its own database (the sync adapter), and takes part in
// the election (the leader adapter); the leader refreshes the sources,
// sends digests and holds the gateways that must be held once.
type replica struct {
	cfg    *config.Config
	id     string
	shared *etcdstore.Store
	kb     *store.KnowledgeStore
	eng    *engine.Engine
	cache  *engine.CachedAnswerer
	stale  *refresh.StaleNotes
	dg     *delivery.Service // nil without subscriptions
	log    zerolog.Logger
	// warm runs after each swap of the knowledge: the question reader's
	// names of features.
	warm func(context.Context) error
	// gateways run while this replica leads: Discord's, when configured.
	gateways []func(ctx context.Context) error
	metrics  refresh.Metrics
	cluster  *metrics.Cluster // nil records nothing

	mu      sync.Mutex // one knowledge apply at a time
	applied atomic.Uint64
	leading atomic.Bool
}

// openShared connects to etcd for `bot serve`; its error names the
// endpoints and says what to check, never the password.
func openShared(ctx context.Context, cfg *config.Config) (*etcdstore.Store, error) {
	e := cfg.Store.Etcd
	tlsCfg, err := e.TLS()
	if err != nil {
		return nil, err
	}
	return etcdstore.Open(ctx, etcdstore.Config{Endpoints: e.Endpoints, TLS: tlsCfg, Username: e.Username,
		Password: e.Password.Value(), Prefix: e.Prefix, DialTimeout: e.DialTimeout})
}

// replicaID names this replica in the election: $BOT_REPLICA_ID (the
// pod's name in the chart), else the host name and process ID.
func replicaID(getenv func(string) string) string {
	if id := strings.TrimSpace(getenv("BOT_REPLICA_ID")); id != "" {
		return id
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}

// syncAdapter is the serve.Adapter that keeps the local knowledge at the
// shared generation.
type syncAdapter struct{ r *replica }

func (a syncAdapter) Name() string { return "knowledge_sync" }

// Run loads every generation published, the current one first, until ctx
// ends. A generation that cannot be loaded is logged; answers go on from
// the knowledge held, and the next generation is tried when it comes.
func (a syncAdapter) Run(ctx context.Context) error {
	for g := range a.r.shared.WatchGeneration(ctx) {
		if err := a.r.load(ctx, g.Number); err != nil && ctx.Err() == nil {
			a.r.log.Error().Err(err).Uint64("generation", g.Number).Msg("load the shared knowledge")
		}
	}
	return nil
}

// load brings the local knowledge to generation gen, unless it is there.
func (r *replica) load(ctx context.Context, gen uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.applied.Load() >= gen {
		return nil
	}
	start := time.Now()
	c, g, err := r.shared.LoadCorpus(ctx)
	if err != nil {
		return err
	}
	k := knowledge.Compile(c)
	k.Corpus = c
	if err := r.apply(ctx, g.Number, k); err != nil {
		return err
	}
	r.log.Info().Uint64("generation", g.Number).Dur("took", time.Since(start)).Msg("loaded the shared knowledge")
	return nil
}

// apply replaces the local knowledge with k, generation gen, moves the
// answers to it, and (on the leader) queues the digests it owes. r.mu is
// held.
func (r *replica) apply(ctx context.Context, gen uint64, k *knowledge.Knowledge) error {
	if err := r.eng.Swap(ctx, func() error { return r.kb.ReplaceKnowledge(ctx, k) }); err != nil {
		return fmt.Errorf("replace the local knowledge: %w", err)
	}
	r.cache.Invalidate()
	if r.warm != nil {
		if err := r.warm(ctx); err != nil {
			r.log.Error().Err(err).Msg("load the names of features")
		}
	}
	r.applied.Store(gen)
	if r.metrics != nil {
		r.metrics.Generation(gen)
	}
	if states, err := r.shared.SourceStates(ctx); err == nil {
		r.stale.Update(states, time.Now(), r.cfg.Sources.StaleAfter)
	}
	if r.leading.Load() && r.dg.Trigger() != nil {
		rep, err := r.dg.Trigger().OnKnowledgeChanged(ctx)
		if err != nil {
			r.log.Error().Err(err).Msg("queue the digests of the news")
		} else if rep.Created > 0 {
			r.log.Info().Int("deliveries", rep.Created).Int("digests", rep.Digests).Msg("queued digests of the news")
		}
	}
	return nil
}

// leaderAdapter is the serve.Adapter that takes part in the election.
type leaderAdapter struct{ r *replica }

func (a leaderAdapter) Name() string { return "leader_election" }

func (a leaderAdapter) Run(ctx context.Context) error {
	r := a.r
	cluster.Run(ctx, cluster.Config{Client: r.shared.Client(), Prefix: r.shared.Prefix() + "election/", ID: r.id,
		TTL: r.cfg.Store.Etcd.LeaseTTL, Log: r.log, Elected: r.cluster.Elected}, r.lead)
	return nil
}

// lead is one term: catch the shared knowledge up (or seed it), then
// refresh, send digests and hold the gateways until the term ends, and
// stop them all before the lease is given up.
func (r *replica) lead(ctx context.Context, t cluster.Term) {
	fenced := r.shared.Fenced(t.Fence)
	r.leading.Store(true)
	r.cluster.Leading(true)
	defer func() {
		r.leading.Store(false)
		r.cluster.Leading(false)
	}()
	if err := r.seed(ctx, fenced); err != nil {
		if ctx.Err() == nil {
			r.log.Error().Err(err).Msg("the leader could not bring the shared knowledge up to date; stepping down")
		}
		return
	}
	var wg sync.WaitGroup
	if r.cfg.Sources.Refresh {
		wg.Go(func() { r.refreshLoop(ctx, fenced) })
	}
	if r.dg.Trigger() != nil {
		wg.Go(func() { r.sendDigests(ctx, t, fenced) })
	}
	for _, run := range r.gateways {
		wg.Go(func() {
			if err := run(ctx); err != nil && ctx.Err() == nil {
				r.log.Error().Err(err).Msg("gateway stopped")
			}
		})
	}
	wg.Wait()
}

// sendDigests runs the digest worker and schedule for the term over the
// fenced store. It first takes back what the previous leader left in the
// middle of a post: on Discord the repost's nonce makes it safe; on Slack
// the first repost of each looks for the part in the channel (when the
// app may read its history) and records it instead of posting it twice.
// Every post is guarded by the term's lease.
func (r *replica) sendDigests(ctx context.Context, t cluster.Term, fenced *etcdstore.Store) {
	back, err := fenced.Recover(ctx, time.Now())
	if err != nil {
		if ctx.Err() == nil {
			r.log.Error().Err(err).Msg("recover the deliveries in doubt; the worker tries again")
		}
		back = digest.Recovered{}
	}
	// A previous leader may have taken deliveries back in doubt and died
	// before posting them again: they are pending now, and still in doubt.
	all, err := fenced.ListDeliveries(ctx)
	if err != nil && ctx.Err() == nil {
		r.log.Error().Err(err).Msg("list the deliveries still in doubt")
	}
	wc := r.dg.WorkerConfig()
	doubt := cluster.ResolveInDoubt(back, all, wc.Posters, wc.Metrics, wc.Log)
	wrap := func(platform string, p delivery.Poster) delivery.Poster {
		return cluster.GuardPoster(doubt.Wrap(platform, p), t, nil)
	}
	if err := r.dg.Run(ctx, fenced, wrap); err != nil && ctx.Err() == nil {
		r.log.Error().Err(err).Msg("digests stopped")
	}
}

// seed makes sure the shared knowledge exists and the local copy is at
// it. A new cluster (generation 0) starts from the first leader's own
// knowledge: the built-in snapshot, or what `bot ingest` put in its db.
func (r *replica) seed(ctx context.Context, fenced *etcdstore.Store) error {
	gen, err := fenced.Generation(ctx)
	if err != nil {
		return err
	}
	if gen > 0 {
		return r.load(ctx, gen)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.kb.LoadCorpus(ctx)
	if err != nil {
		return fmt.Errorf("the first leader shares its own knowledge, and its database keeps no corpus: %w", err)
	}
	raw, err := store.EncodeCorpus(c)
	if err != nil {
		return err
	}
	states, err := r.kb.SourceStates(ctx)
	if err != nil {
		return err
	}
	g, err := fenced.Publish(ctx, raw, states)
	if err != nil {
		return err
	}
	r.applied.Store(g.Number)
	if r.metrics != nil {
		r.metrics.Generation(g.Number)
	}
	r.log.Info().Uint64("generation", g.Number).Int("bytes", g.Bytes).Msg("shared this replica's knowledge: the first generation")
	return nil
}

// refreshLoop refreshes the sources every interval while the term lasts,
// publishing each new generation through fenced.
func (r *replica) refreshLoop(ctx context.Context, fenced *etcdstore.Store) {
	src := r.cfg.Sources
	rc := refresh.Config{
		Store: refreshStore{kb: r.kb, shared: fenced, publish: func(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error {
			return r.publish(ctx, fenced, k, states)
		}},
		URLs:       refresh.URLs{Sync: src.SyncURL, Relnotes: src.RelnotesURL, Lifecycle: src.LifecycleURL, Patches: src.PatchesURL, APILifecycle: src.APILifecycleURL},
		AllowHosts: src.AllowHosts,
		Interval:   src.RefreshInterval,
		Metrics:    r.metrics,
	}
	rc.Fetch.Timeout = src.Timeout
	ref, err := refresh.New(rc)
	if err != nil {
		r.log.Error().Err(err).Msg("refresh the knowledge")
		return
	}
	defer ref.Close()
	ref.Loop(ctx, src.RefreshInterval, func(rep *refresh.Report, err error) {
		if err != nil {
			r.log.Error().Err(err).Msg("refresh the knowledge")
			return
		}
		r.log.Info().Bool("applied", rep.Applied).Uint64("generation", rep.Generation).Msg("refreshed the knowledge")
		if states, err := fenced.SourceStates(ctx); err == nil {
			r.stale.Update(states, time.Now(), src.StaleAfter)
		}
	})
}

// publish is the leader's replacing of the knowledge: published through
// fenced, then applied locally.
func (r *replica) publish(ctx context.Context, fenced *etcdstore.Store, k *knowledge.Knowledge, states map[string]store.SourceState) error {
	raw, err := store.EncodeCorpus(k.Corpus)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	g, err := fenced.Publish(ctx, raw, states)
	if err != nil {
		return err
	}
	return r.apply(ctx, g.Number, k)
}
