package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// Local is a replica's own database: the knowledge its answers come from.
type Local interface {
	store.SourcesReader
	ReplaceKnowledge(ctx context.Context, k *knowledge.Knowledge) error
}

// ReplicaConfig is what a Replica runs with.
type ReplicaConfig struct {
	ID     string           // this replica in the election
	Shared *etcdstore.Store // the state replicas share
	TTL    time.Duration    // the election lease's (Config.TTL)
	Local  Local
	// Swap runs write, which replaces the local knowledge, and moves the
	// answers to it (the engine's swap, the answer cache, the names of
	// features).
	Swap func(ctx context.Context, write func() error) error
	// Sources is told the shared sources' states after each change (the
	// staleness note); nil ignores them.
	Sources func(states map[string]store.SourceState)
	// Digests sends the digests while this replica leads; nil without
	// subscriptions.
	Digests *delivery.Service
	// Refresh, when set, refreshes the sources while this replica leads,
	// over st, which publishes each new generation.
	Refresh func(ctx context.Context, st *TermStore)
	// Gateways run while this replica leads: Discord's, when configured.
	Gateways []func(ctx context.Context) error
	// Generation, Leading and Elected record metrics; nil records nothing.
	Generation func(uint64)
	Leading    func(bool)
	Elected    func(took time.Duration)
	Log        zerolog.Logger
}

// Replica is what `bot serve` runs with store.backend etcd, beside the
// adapters: every replica loads each knowledge generation the leader
// publishes into its own database (Sync), and takes part in the election
// (Lead); the leader refreshes the sources, sends digests and holds the
// gateways that must be held once.
type Replica struct {
	cfg     ReplicaConfig
	mu      sync.Mutex // one knowledge apply at a time
	applied atomic.Uint64
	leading atomic.Bool
}

// NewReplica returns a Replica over cfg.
func NewReplica(cfg ReplicaConfig) *Replica { return &Replica{cfg: cfg} }

// Loop is one of the replica's loops as serve runs it (an app.Adapter, cmd/bot/internal/app).
type Loop struct {
	name string
	run  func(ctx context.Context) error
}

func (l Loop) Name() string                  { return l.name }
func (l Loop) Run(ctx context.Context) error { return l.run(ctx) }

// Loops are the replica's two loops: the knowledge's sync
// ("knowledge_sync") and the election ("leader_election").
func (r *Replica) Loops() []Loop {
	return []Loop{{"knowledge_sync", r.Sync}, {"leader_election", r.Elect}}
}

// Sync loads every generation published, the current one first, until ctx
// ends. A generation that cannot be loaded is logged; answers go on from
// the knowledge held, and the next generation is tried when it comes.
func (r *Replica) Sync(ctx context.Context) error {
	for g := range r.cfg.Shared.WatchGeneration(ctx) {
		if err := r.load(ctx, g.Number); err != nil && ctx.Err() == nil {
			r.cfg.Log.Error().Err(err).Uint64("generation", g.Number).Msg("load the shared knowledge")
		}
	}
	return nil
}

// Elect takes part in the election until ctx ends, leading a term
// whenever it wins.
func (r *Replica) Elect(ctx context.Context) error {
	Run(ctx, Config{Client: r.cfg.Shared.Client(), Prefix: r.cfg.Shared.Prefix() + "election/", ID: r.cfg.ID,
		TTL: r.cfg.TTL, Log: r.cfg.Log, Elected: r.cfg.Elected}, r.Lead)
	return nil
}

// Applied is the generation of the local knowledge.
func (r *Replica) Applied() uint64 { return r.applied.Load() }

// load brings the local knowledge to generation gen, unless it is there.
func (r *Replica) load(ctx context.Context, gen uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.applied.Load() >= gen {
		return nil
	}
	start := time.Now()
	c, g, err := r.cfg.Shared.LoadCorpus(ctx)
	if err != nil {
		return err
	}
	k := knowledge.Compile(c)
	k.Corpus = c
	if err := r.apply(ctx, g.Number, k); err != nil {
		return err
	}
	r.cfg.Log.Info().Uint64("generation", g.Number).Dur("took", time.Since(start)).Msg("loaded the shared knowledge")
	return nil
}

func (r *Replica) generation(gen uint64) {
	r.applied.Store(gen)
	if r.cfg.Generation != nil {
		r.cfg.Generation(gen)
	}
}

// apply replaces the local knowledge with k, generation gen, moves the
// answers to it, and (on the leader) queues the digests it owes. r.mu is
// held.
func (r *Replica) apply(ctx context.Context, gen uint64, k *knowledge.Knowledge) error {
	if err := r.cfg.Swap(ctx, func() error { return r.cfg.Local.ReplaceKnowledge(ctx, k) }); err != nil {
		return fmt.Errorf("replace the local knowledge: %w", err)
	}
	r.generation(gen)
	if states, err := r.cfg.Shared.SourceStates(ctx); err == nil && r.cfg.Sources != nil {
		r.cfg.Sources(states)
	}
	if trig := r.cfg.Digests.Trigger(); r.leading.Load() && trig != nil {
		rep, err := trig.OnKnowledgeChanged(ctx)
		if err != nil {
			r.cfg.Log.Error().Err(err).Msg("queue the digests of the news")
		} else if rep.Created > 0 {
			r.cfg.Log.Info().Int("deliveries", rep.Created).Int("digests", rep.Digests).Msg("queued digests of the news")
		}
	}
	return nil
}

// Lead is one term: catch the shared knowledge up (or seed it), then
// refresh, send digests and hold the gateways until the term ends, and
// stop them all before the lease is given up.
func (r *Replica) Lead(ctx context.Context, t Term) {
	fenced := r.cfg.Shared.Fenced(t.Fence)
	r.setLeading(true)
	defer r.setLeading(false)
	if err := r.seed(ctx, fenced); err != nil {
		if ctx.Err() == nil {
			r.cfg.Log.Error().Err(err).Msg("the leader could not bring the shared knowledge up to date; stepping down")
		}
		return
	}
	var wg sync.WaitGroup
	if r.cfg.Refresh != nil {
		wg.Go(func() { r.cfg.Refresh(ctx, &TermStore{r: r, fenced: fenced}) })
	}
	if r.cfg.Digests.Trigger() != nil {
		wg.Go(func() { r.sendDigests(ctx, t, fenced) })
	}
	for _, run := range r.cfg.Gateways {
		wg.Go(func() {
			if err := run(ctx); err != nil && ctx.Err() == nil {
				r.cfg.Log.Error().Err(err).Msg("gateway stopped")
			}
		})
	}
	wg.Wait()
}

func (r *Replica) setLeading(on bool) {
	r.leading.Store(on)
	if r.cfg.Leading != nil {
		r.cfg.Leading(on)
	}
}

// sendDigests runs the digest worker and schedule for the term over the
// fenced store. It first takes back what the previous leader left in the
// middle of a post: on Discord the repost's nonce makes it safe; on Slack
// the first repost of each looks for the part in the channel (when the
// app may read its history) and records it instead of posting it twice.
// Every post is guarded by the term's lease.
func (r *Replica) sendDigests(ctx context.Context, t Term, fenced *etcdstore.Store) {
	back, err := fenced.Recover(ctx, time.Now())
	if err != nil {
		if ctx.Err() == nil {
			r.cfg.Log.Error().Err(err).Msg("recover the deliveries in doubt; the worker tries again")
		}
		back = digest.Recovered{}
	}
	// A previous leader may have taken deliveries back in doubt and died
	// before posting them again: they are pending now, and still in doubt.
	all, err := fenced.ListDeliveries(ctx)
	if err != nil && ctx.Err() == nil {
		r.cfg.Log.Error().Err(err).Msg("list the deliveries still in doubt")
	}
	wc := r.cfg.Digests.WorkerConfig()
	doubt := ResolveInDoubt(back, all, wc.Posters, wc.Metrics, wc.Log)
	wrap := func(platform string, p delivery.Poster) delivery.Poster {
		return GuardPoster(doubt.Wrap(platform, p), t, nil)
	}
	if err := r.cfg.Digests.Run(ctx, fenced, wrap); err != nil && ctx.Err() == nil {
		r.cfg.Log.Error().Err(err).Msg("digests stopped")
	}
}

// seed makes sure the shared knowledge exists and the local copy is at
// it. A new cluster (generation 0) starts from the first leader's own
// knowledge: the built-in snapshot, or what `bot ingest` put in its db.
func (r *Replica) seed(ctx context.Context, fenced *etcdstore.Store) error {
	gen, err := fenced.Generation(ctx)
	if err != nil {
		return err
	}
	if gen > 0 {
		return r.load(ctx, gen)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.cfg.Local.LoadCorpus(ctx)
	if err != nil {
		return fmt.Errorf("the first leader shares its own knowledge, and its database keeps no corpus: %w", err)
	}
	raw, err := store.EncodeCorpus(c)
	if err != nil {
		return err
	}
	states, err := r.cfg.Local.SourceStates(ctx)
	if err != nil {
		return err
	}
	g, err := fenced.Publish(ctx, raw, states)
	if err != nil {
		return err
	}
	r.generation(g.Number)
	r.cfg.Log.Info().Uint64("generation", g.Number).Int("bytes", g.Bytes).Msg("shared this replica's knowledge: the first generation")
	return nil
}

// publish is the leader's replacing of the knowledge: published through
// fenced, then applied locally.
func (r *Replica) publish(ctx context.Context, fenced *etcdstore.Store, k *knowledge.Knowledge, states map[string]store.SourceState) error {
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

// TermStore is the refresher's store on a leader for one term (it
// implements refresh.Store). The knowledge the answers come from is
// local; the shared store, through the term's fence, keeps the corpus the
// refresher builds on, the source states and the generation, and
// replacing the knowledge publishes it there, then applies it locally.
type TermStore struct {
	r      *Replica
	fenced *etcdstore.Store
}

func (s *TermStore) LoadCorpus(ctx context.Context) (*knowledge.Corpus, error) {
	c, _, err := s.fenced.LoadCorpus(ctx)
	return c, err
}

func (s *TermStore) IsEmpty(ctx context.Context) (bool, error) { return s.r.cfg.Local.IsEmpty(ctx) }

func (s *TermStore) ListSources(ctx context.Context) ([]knowledge.Source, error) {
	return s.r.cfg.Local.ListSources(ctx)
}

func (s *TermStore) SourceStates(ctx context.Context) (map[string]store.SourceState, error) {
	return s.fenced.SourceStates(ctx)
}

func (s *TermStore) SaveSourceStates(ctx context.Context, states map[string]store.SourceState) error {
	return s.fenced.SaveSourceStates(ctx, states)
}

func (s *TermStore) ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error {
	return s.r.publish(ctx, s.fenced, k, states)
}

func (s *TermStore) Generation(ctx context.Context) (uint64, error) { return s.fenced.Generation(ctx) }
