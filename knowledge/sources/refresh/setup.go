package refresh

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/store"
)

// Setup is the one refresh setup of `bot serve`, a cluster's leader and
// `bot sync`: the sources section of the config.
type Setup struct {
	URLs       URLs
	AllowHosts []string
	Timeout    time.Duration // one source's fetch
	Interval   time.Duration // between serve's passes
	StaleAfter time.Duration // when the answers say a source has failed for long
}

// Config is the refresher's config over st from s; the caller adds what
// its use needs (Apply, Metrics, the fetch options of a test).
func (s Setup) Config(st Store) Config {
	c := Config{Store: st, URLs: s.URLs, AllowHosts: s.AllowHosts, Interval: s.Interval}
	c.Fetch.Timeout = s.Timeout
	return c
}

// LocalStore is the refresher's store over one process's database: KB,
// the database serve holds, or without it (bot sync) the database at
// Path, opened for each call and closed again, so a sync holds the file
// only while it reads or writes, never during a download.
type LocalStore struct {
	KB      *store.KnowledgeStore
	Path    string        // without KB
	Timeout time.Duration // to wait for another process to let go of Path
}

var _ Store = LocalStore{}

func (s LocalStore) LoadCorpus(ctx context.Context) (*knowledge.Corpus, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) (*knowledge.Corpus, error) { return kb.LoadCorpus(ctx) })
}

func (s LocalStore) IsEmpty(ctx context.Context) (bool, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) (bool, error) { return kb.IsEmpty(ctx) })
}

func (s LocalStore) ListSources(ctx context.Context) ([]knowledge.Source, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) ([]knowledge.Source, error) { return kb.ListSources(ctx) })
}

func (s LocalStore) SourceStates(ctx context.Context) (map[string]store.SourceState, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) (map[string]store.SourceState, error) { return kb.SourceStates(ctx) })
}

func (s LocalStore) SaveSourceStates(ctx context.Context, states map[string]store.SourceState) error {
	_, err := local(ctx, s, func(kb *store.KnowledgeStore) (struct{}, error) {
		return struct{}{}, kb.SaveSourceStates(ctx, states)
	})
	return err
}

func (s LocalStore) ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error {
	_, err := local(ctx, s, func(kb *store.KnowledgeStore) (struct{}, error) {
		return struct{}{}, kb.ReplaceWithSources(ctx, k, states)
	})
	return err
}

func (s LocalStore) Generation(ctx context.Context) (uint64, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) (uint64, error) { return kb.Generation(ctx) })
}

// local runs fn on the local knowledge: KB, or the database at Path,
// opened for this step alone and closed again.
func local[T any](ctx context.Context, s LocalStore, fn func(*store.KnowledgeStore) (T, error)) (T, error) {
	if s.KB != nil {
		return fn(s.KB)
	}
	var zero T
	db, err := store.Open(s.Path, store.Options{Timeout: s.Timeout})
	if err != nil {
		return zero, err
	}
	out, err := fn(db.Knowledge())
	if cerr := db.Close(); err == nil && cerr != nil {
		return zero, cerr
	}
	return out, err
}

// Runner is the refresh loop of serve and of a cluster's leader: a pass
// every Setup.Interval (see Loop), each logged, and the staleness note
// kept at the sources' states after each.
type Runner struct {
	r     *Refresher
	st    Store
	stale *StaleNotes
	setup Setup
	log   zerolog.Logger
	now   func() time.Time
}

// NewRunner builds the refresher of cfg (made with Setup.Config) and its
// loop; stale (nil for none) follows the sources' states in cfg.Store.
func NewRunner(s Setup, cfg Config, stale *StaleNotes, log zerolog.Logger) (*Runner, error) {
	r, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return &Runner{r: r, st: cfg.Store, stale: stale, setup: s, log: log, now: time.Now}, nil
}

// Refresher is the runner's refresher, for an operator's refresh asked
// between passes (serve's POST /admin/refresh).
func (r *Runner) Refresher() *Refresher { return r.r }

// Run notes the sources' states, then refreshes every interval until ctx
// ends; the caller closes the refresher after. A pass never stops
// answers: they go on from the knowledge they have.
func (r *Runner) Run(ctx context.Context) {
	if states, err := r.st.SourceStates(ctx); err == nil {
		r.note(states)
	}
	r.r.Loop(ctx, r.setup.Interval, r.Done)
}

// RunLeader refreshes the sources every interval while a leader's term
// (ctx) lasts, over cfg.Store: the leader's store, which publishes each
// new generation. Its log of a pass says only whether it applied news and
// the generation; log is the replica's.
func RunLeader(ctx context.Context, s Setup, cfg Config, stale *StaleNotes, log zerolog.Logger) {
	r, err := NewRunner(s, cfg, stale, log)
	if err != nil {
		log.Error().Err(err).Msg("refresh the knowledge")
		return
	}
	defer r.r.Close()
	r.r.Loop(ctx, s.Interval, func(rep *Report, err error) {
		if err != nil {
			r.log.Error().Err(err).Msg("refresh the knowledge")
			return
		}
		logPass(r.log, rep)
		if states, err := r.st.SourceStates(ctx); err == nil {
			r.note(states)
		}
	})
}

func (r *Runner) note(states map[string]store.SourceState) {
	if r.stale != nil {
		r.stale.Update(states, r.now(), r.setup.StaleAfter)
	}
}

// Done logs a pass (an operator's too) and updates the staleness note.
func (r *Runner) Done(rep *Report, err error) {
	if err != nil {
		r.log.Error().Err(err).Msg("refresh the knowledge")
		return
	}
	logPass(r.log, rep)
	if states, err := r.st.SourceStates(context.Background()); err == nil {
		r.note(states)
	}
}

// logPass logs a pass: one line for the pass, and one line for each
// source it could not reach, saying why and when it is asked again. A
// failure is said once: a warning in the first pass of a row that does
// not reach the source, at debug in the next ones (the metrics say it
// goes on). The pass's line is at info when it applied news or a source
// began to fail, else at debug.
func logPass(log zerolog.Logger, rep *Report) {
	c := rep.Counts()
	first := 0
	for _, o := range rep.Outcomes {
		if o.FirstFailure {
			first++
		}
	}
	ev := log.Debug()
	if rep.Applied || first > 0 {
		ev = log.Info()
	}
	requests := 0
	for _, o := range rep.Outcomes {
		requests += o.Requests
	}
	ev.Bool("applied", rep.Applied).Uint64("generation", rep.Generation).
		Int("updated", c[ResultUpdated]).Int("not_modified", c[ResultNotModified]).
		Int("failed", c[ResultFailed]+c[ResultRateLimited]).Int("skipped", c[ResultSkipped]).Int("waiting", c[ResultWaiting]).
		Int("requests", requests).Msg("refreshed the knowledge")
	for _, o := range rep.Outcomes {
		if o.Severity == SeverityNone {
			continue
		}
		ev := log.Debug()
		if o.FirstFailure {
			ev = log.Warn()
		}
		ev.Str("source", o.Name).Str("result", o.Result).Str("error", o.Error).Int("requests", o.Requests).
			Time("retry_at", o.RetryAt).Msg("a source failed; its part of the knowledge is kept")
	}
}
