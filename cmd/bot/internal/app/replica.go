package app

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	kengine "github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/etcdstore/cluster"
)

// newReplica wires a replica of `bot serve` with store.backend etcd (see
// cluster.Replica): the local knowledge kb behind eng and its cache, the
// staleness note, the digests (nil without subscriptions), the question
// reader's warm-up after each swap and the gateways the leader holds.
func newReplica(cfg *config.Config, setup refresh.Setup, id string, shared *etcdstore.Store, kb *store.KnowledgeStore, eng *kengine.Engine, cache *kengine.CachedAnswerer,
	stale *refresh.StaleNotes, dg *delivery.Service, warm func(context.Context) error, gateways []func(context.Context) error,
	m *metrics.Metrics, logger zerolog.Logger) *cluster.Replica {
	log := logger.With().Str("component", "replica").Logger()
	src, mc := sourceMetrics{m.Sources()}, m.Cluster() // Cluster registers its metrics: once
	rc := cluster.ReplicaConfig{ID: id, Shared: shared, TTL: cfg.Store.Etcd.LeaseTTL, Local: kb, Digests: dg, Gateways: gateways,
		Generation: src.Generation, Leading: mc.Leading, Elected: mc.Elected, Log: log,
		Swap:    swapAnswers(eng, cache, warm, log),
		Sources: func(states map[string]store.SourceState) { stale.Update(states, time.Now(), cfg.Sources.StaleAfter) },
	}
	if cfg.Sources.Refresh {
		rc.Refresh = func(ctx context.Context, st *cluster.TermStore) {
			c := setup.Config(st)
			c.Metrics = src
			refresh.RunLeader(ctx, setup, c, stale, log)
		}
	}
	return cluster.NewReplica(rc)
}
