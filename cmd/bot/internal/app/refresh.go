package app

import (
	"context"
	"net/http"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/cmd/bot/internal/admin"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	kengine "github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
)

// refreshAdapter is serve's knowledge refresh, run beside the chat
// adapters: a pass every sources.refresh_interval (see refresh.Runner),
// and POST /admin/refresh for an operator's `bot sync` (see
// cmd/bot/internal/admin). Each pass that brings news swaps the engine to it,
// empties the answer cache and queues the digests it owes; the staleness
// note follows the sources' states.
type refreshAdapter struct {
	r     *refresh.Runner
	admin *admin.Endpoint
	log   zerolog.Logger
}

// newRefreshAdapter builds the refresher over db's knowledge for eng and
// its cache; dg (nil without subscriptions) is told of every change, and
// warm (the question reader's) runs after each swap.
func newRefreshAdapter(cfg *config.Config, setup refresh.Setup, db *store.DB, eng *kengine.Engine, cache *kengine.CachedAnswerer,
	dg *delivery.Service, m *metrics.Metrics, stale *refresh.StaleNotes, warm func(context.Context) error, log zerolog.Logger) (*refreshAdapter, error) {
	log = log.With().Str("component", "refresh").Logger()
	rc := setup.Config(db.Knowledge())
	swap := swapAnswers(eng, cache, warm, log)
	rc.Apply = func(ctx context.Context, write func() error) error {
		if err := swap(ctx, write); err != nil {
			return err
		}
		if trig := dg.Trigger(); trig != nil {
			rep, err := trig.OnKnowledgeChanged(ctx)
			if err != nil {
				log.Error().Err(err).Msg("queue the digests of the news")
			} else if rep.Created > 0 {
				log.Info().Int("deliveries", rep.Created).Int("digests", rep.Digests).Msg("queued digests of the news")
			}
		}
		return nil
	}
	if m != nil {
		rc.Metrics = sourceMetrics{m.Sources()}
	}
	r, err := refresh.NewRunner(setup, rc, stale, log)
	if err != nil {
		return nil, err
	}
	return &refreshAdapter{r: r, admin: admin.NewEndpoint(cfg.DB, cfg.HTTP.Addr, r.Refresher(), r.Done, log), log: log}, nil
}

func (a *refreshAdapter) Name() string { return "refresh" }

// Routes mounts POST /admin/refresh on serve's HTTP server.
func (a *refreshAdapter) Routes() map[string]http.Handler {
	return map[string]http.Handler{"POST /admin/refresh": a.admin}
}

// Run refreshes every interval until ctx ends, when it also removes the
// admin file.
func (a *refreshAdapter) Run(ctx context.Context) error {
	defer a.r.Refresher().Close()
	if err := a.admin.Publish(); err != nil {
		a.log.Warn().Err(err).Msg("bot sync will not be able to ask this serve to refresh")
	}
	defer a.admin.Withdraw()
	a.r.Run(ctx)
	return nil
}

// sourceMetrics records a refresher's outcomes in the metrics.
type sourceMetrics struct{ s *metrics.Sources }

func (m sourceMetrics) Observe(o refresh.Outcome) {
	ok := o.Result == refresh.ResultUpdated || o.Result == refresh.ResultNotModified || o.Result == refresh.ResultNotPublished
	m.s.Observe(metrics.SourceOutcome{Name: o.Name, Result: o.Result, Requests: o.Requests, Bytes: o.Bytes, Took: o.Took, OK: ok, FailingSince: o.FailingSince})
}

func (m sourceMetrics) Host(h refresh.HostReport) { m.s.Host(h.Host, h.Result != "ok") }

func (m sourceMetrics) Generation(g uint64) { m.s.Generation(g) }

// swapAnswers returns what runs write, which replaces the knowledge, and
// moves the answers to it: the engine's catalog, the answer cache, and the
// question reader's names of features (warm, when set) before the next
// question needs them. The refresh loop and a replica's sync swap alike.
func swapAnswers(eng *kengine.Engine, cache *kengine.CachedAnswerer, warm func(context.Context) error, log zerolog.Logger) func(context.Context, func() error) error {
	return func(ctx context.Context, write func() error) error {
		if err := eng.Swap(ctx, write); err != nil {
			return err
		}
		cache.Invalidate()
		if warm != nil {
			if err := warm(ctx); err != nil {
				log.Warn().Err(err).Msg("load the names of features")
			}
		}
		return nil
	}
}
