package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/etcdstore/cluster"
)

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

// newReplica wires a replica of `bot serve` with store.backend etcd (see
// cluster.Replica): the local knowledge kb behind eng and its cache, the
// staleness note, the digests (nil without subscriptions), the question
// reader's warm-up after each swap and the gateways the leader holds.
func newReplica(cfg *config.Config, id string, shared *etcdstore.Store, kb *store.KnowledgeStore, eng *engine.Engine, cache *engine.CachedAnswerer,
	stale *refresh.StaleNotes, dg *delivery.Service, warm func(context.Context) error, gateways []func(context.Context) error,
	m *metrics.Metrics, logger zerolog.Logger) *cluster.Replica {
	log := logger.With().Str("component", "replica").Logger()
	src, mc := sourceMetrics{m.Sources()}, m.Cluster() // Cluster registers its metrics: once
	rc := cluster.ReplicaConfig{ID: id, Shared: shared, TTL: cfg.Store.Etcd.LeaseTTL, Local: kb, Digests: dg, Gateways: gateways,
		Generation: src.Generation, Leading: mc.Leading, Elected: mc.Elected, Log: log,
		Swap: func(ctx context.Context, write func() error) error {
			if err := eng.Swap(ctx, write); err != nil {
				return err
			}
			cache.Invalidate()
			if err := warm(ctx); err != nil {
				log.Error().Err(err).Msg("load the names of features")
			}
			return nil
		},
		Sources: func(states map[string]store.SourceState) { stale.Update(states, time.Now(), cfg.Sources.StaleAfter) },
	}
	if cfg.Sources.Refresh {
		setup := refreshSetup(cfg.Sources)
		rc.Refresh = func(ctx context.Context, st *cluster.TermStore) {
			c := setup.Config(st)
			c.Metrics = src
			refresh.RunLeader(ctx, setup, c, stale, log)
		}
	}
	return cluster.NewReplica(rc)
}
