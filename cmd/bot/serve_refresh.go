package main

import (
	"context"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/admin"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
)

// refreshAdapter is serve's knowledge refresh, run beside the chat
// adapters: a pass every sources.refresh_interval (see refresh.Loop), and
// POST /admin/refresh for an operator's `bot sync` (see internal/admin). Each pass
// that brings news swaps the engine to it, empties the answer cache and
// queues the digests it owes; the staleness note follows the sources'
// states.
type refreshAdapter struct {
	r        *refresh.Refresher
	kb       *store.KnowledgeStore
	stale    *refresh.StaleNotes
	interval time.Duration
	age      time.Duration
	admin    *admin.Endpoint
	log      zerolog.Logger
	now      func() time.Time
}

// newRefreshAdapter builds the refresher over db's knowledge for eng and
// its cache; dg (nil without subscriptions) is told of every change, and
// warm (the question reader's) runs after each swap.
func newRefreshAdapter(cfg *config.Config, db *store.DB, eng *engine.Engine, cache *engine.CachedAnswerer,
	dg *delivery.Service, m *metrics.Metrics, stale *refresh.StaleNotes, warm func(context.Context) error, log zerolog.Logger) (*refreshAdapter, error) {
	kb := db.Knowledge()
	log = log.With().Str("component", "refresh").Logger()
	a := &refreshAdapter{kb: kb, stale: stale, interval: cfg.Sources.RefreshInterval, age: cfg.Sources.StaleAfter, log: log, now: time.Now}
	src := cfg.Sources
	rc := refresh.Config{
		Store:      kb,
		URLs:       refresh.URLs{Sync: src.SyncURL, Relnotes: src.RelnotesURL, Lifecycle: src.LifecycleURL, Patches: src.PatchesURL, APILifecycle: src.APILifecycleURL},
		AllowHosts: src.AllowHosts,
		Interval:   src.RefreshInterval,
		Apply: func(ctx context.Context, write func() error) error {
			if err := eng.Swap(ctx, write); err != nil {
				return err
			}
			cache.Invalidate()
			if warm != nil { // the question reader's names of features, before the next question needs them
				if err := warm(ctx); err != nil {
					log.Warn().Err(err).Msg("load the names of features")
				}
			}
			if dg.Trigger() != nil {
				rep, err := dg.Trigger().OnKnowledgeChanged(ctx)
				if err != nil {
					log.Error().Err(err).Msg("queue the digests of the news")
				} else if rep.Created > 0 {
					log.Info().Int("deliveries", rep.Created).Int("digests", rep.Digests).Msg("queued digests of the news")
				}
			}
			return nil
		},
	}
	rc.Fetch.Timeout = src.Timeout
	if m != nil {
		rc.Metrics = sourceMetrics{m.Sources()}
	}
	r, err := refresh.New(rc)
	if err != nil {
		return nil, err
	}
	a.r = r
	a.admin = admin.NewEndpoint(cfg.DB, cfg.HTTP.Addr, r, a.done, log)
	return a, nil
}

func (a *refreshAdapter) Name() string { return "refresh" }

// Routes mounts POST /admin/refresh on serve's HTTP server.
func (a *refreshAdapter) Routes() map[string]http.Handler {
	return map[string]http.Handler{"POST /admin/refresh": a.admin}
}

// Run refreshes every interval until ctx ends, when it also removes the
// admin file. A pass never stops answers: they go on from the knowledge
// they have.
func (a *refreshAdapter) Run(ctx context.Context) error {
	defer a.r.Close()
	if err := a.admin.Publish(); err != nil {
		a.log.Warn().Err(err).Msg("bot sync will not be able to ask this serve to refresh")
	}
	defer a.admin.Withdraw()
	if states, err := a.kb.SourceStates(ctx); err == nil {
		a.stale.Update(states, a.now(), a.age)
	}
	a.r.Loop(ctx, a.interval, a.done)
	return nil
}

// done logs a pass and updates the staleness note.
func (a *refreshAdapter) done(rep *refresh.Report, err error) {
	if err != nil {
		a.log.Error().Err(err).Msg("refresh the knowledge")
		return
	}
	ev := a.log.Info()
	if !rep.Applied && rep.Severity() == refresh.SeverityNone {
		ev = a.log.Debug()
	}
	c := rep.Counts()
	ev.Bool("applied", rep.Applied).Uint64("generation", rep.Generation).
		Int("updated", c[refresh.ResultUpdated]).Int("not_modified", c[refresh.ResultNotModified]).
		Int("failed", c[refresh.ResultFailed]+c[refresh.ResultRateLimited]).Int("waiting", c[refresh.ResultWaiting]).
		Msg("refreshed the knowledge")
	for _, o := range rep.Outcomes {
		if o.Severity != refresh.SeverityNone {
			a.log.Warn().Str("source", o.Name).Str("result", o.Result).Str("error", o.Error).Time("retry_at", o.RetryAt).Msg("a source failed; its part of the knowledge is kept")
		}
	}
	if states, err := a.kb.SourceStates(context.Background()); err == nil {
		a.stale.Update(states, a.now(), a.age)
	}
}

// sourceMetrics records a refresher's outcomes in the metrics.
type sourceMetrics struct{ s *metrics.Sources }

func (m sourceMetrics) Observe(o refresh.Outcome) {
	ok := o.Result == refresh.ResultUpdated || o.Result == refresh.ResultNotModified || o.Result == refresh.ResultNotPublished
	m.s.Observe(o.Name, o.Result, o.Bytes, o.Took, ok)
}

func (m sourceMetrics) Generation(g uint64) { m.s.Generation(g) }
