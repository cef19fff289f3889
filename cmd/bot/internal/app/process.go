package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/adapters/slack"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/logging"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	kengine "github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/etcdstore/cluster"
)

// answerCacheSize is how many answers serve keeps in memory: every KEP,
// release and release-stage question with room to spare.
const answerCacheSize = 4096

// Process is one `bot serve` with chat adapters, its values built from
// the config by cmd/bot: it sets up the log (every secret redacted), the
// garbage collector and the profiles, then runs the adapters, the HTTP
// server, the knowledge's refresh (or with etcd the replica's loops) and
// the digests together.
type Process struct {
	Config  *config.Config
	Slack   slack.Config
	Discord discord.Config
	DB      *store.DB        // open; the caller closes it after Run
	Etcd    *etcdstore.Store // nil with store.backend bbolt
	// Created, when set, says the database was new or empty and given
	// the built-in snapshot.
	Created string
	// Pprof, when set, is the loopback address to serve Go's profiles on.
	Pprof string
	// Getenv reads GOGC and GOMEMLIMIT (see TuneGC).
	Getenv  func(string) string
	Version string
	// Stderr is the log's, and is told, after "bot serve: ", what in the
	// config or the environment keeps serve from starting.
	Stderr io.Writer
	// BadInput and Failure are the exit codes Run returns for a bad
	// config and for a failure on our side.
	BadInput, Failure int
}

// Run serves until ctx ends (SIGINT, SIGTERM) and returns the exit code:
// 0, p.BadInput or p.Failure, after saying why on p.Stderr or in the log.
func (p Process) Run(ctx context.Context) int {
	cfg, db := p.Config, p.DB
	secrets := cfg.Secrets()
	if t := p.Discord.BotToken.Value(); t != "" {
		secrets = append(secrets, t)
	}
	logger := logging.New(cfg.Log, p.Stderr, secrets...)
	if pct, limit := TuneGC(p.Getenv); pct > 0 || limit > 0 {
		logger.Debug().Int("gc_percent", pct).Int64("memory_limit", limit).Msg("garbage collection tuned for a small live heap (GOGC, GOMEMLIMIT override)")
	}
	if p.Pprof != "" {
		at, err := StartPprof(ctx, p.Pprof)
		if err != nil {
			fmt.Fprintf(p.Stderr, "bot serve: %v\n", err)
			return p.BadInput
		}
		logger.Info().Str("addr", at).Msg("serving profiles (--pprof)")
	}
	if p.Created != "" {
		logger.Info().Str("db", cfg.DB).Msg("no knowledge in the database yet; answering from the built-in snapshot until bot ingest or bot sync")
	}
	kb := db.Knowledge()
	shared := db.Shared()
	if p.Etcd != nil {
		shared = p.Etcd
	}
	// Subscriptions only where a digest can be posted: a bot token.
	var dg *delivery.Service
	opts := []kengine.Option{kengine.WithManifestReader(manifest.ChatReader)}
	if !cfg.Slack.BotToken.IsZero() || p.Discord.Gateway() {
		dg = delivery.NewService(shared, kb, logger)
		opts = append([]kengine.Option{kengine.WithSubscriptions(dg.Subscriptions())}, opts...)
	}
	eng := kengine.New(kb, opts...)
	// Pay for the engine's catalog and search index now, not on the first
	// question someone asks in chat.
	if err := eng.Warm(ctx); err != nil {
		if ctx.Err() != nil {
			// stopped (SIGTERM, Ctrl-C) while loading: a stop, not a failure
			logger.Info().Msg("stopped before serving")
			return 0
		}
		logger.Error().Err(err).Msg("load the knowledge")
		return p.Failure
	}
	// A repeated question is answered from memory until the knowledge
	// changes: only serve's own refresh changes it (bbolt lets one process
	// hold the file), or with etcd the loading of a new shared generation,
	// and either empties the cache when it does. Answers say when a source
	// has failed for long (the staleness note).
	cache := kengine.NewCachedAnswerer(eng, answerCacheSize)
	answerer := refresh.NewStaleNotes(cache)
	// Every adapter reads questions with one reader, which knows the
	// features of the engine's KEPs by name; build its vocabulary now too.
	reader := question.NewReader(eng)
	if err := reader.Warm(ctx); err != nil {
		logger.Error().Err(err).Msg("load the names of features")
		return p.Failure
	}
	m := metrics.New(p.Version)
	ad, code := p.adapters(ctx, shared, answerer, reader, logger, m)
	if code != 0 {
		return code
	}
	var rep *cluster.Replica
	if p.Etcd != nil {
		rep = newReplica(cfg, RefreshSetup(cfg.Sources), ReplicaID(cfg), p.Etcd, kb, eng, cache, answerer, dg, reader.Warm, ad.gateways, m, logger)
		for _, l := range rep.Loops() {
			ad.run = append(ad.run, l)
		}
	}
	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		fmt.Fprintf(p.Stderr, "bot serve: listen on %s (http.addr, BOT_HTTP_ADDR): %v\n", cfg.HTTP.Addr, err)
		return p.Failure
	}
	if cfg.Sources.Refresh && rep == nil {
		ra, err := newRefreshAdapter(cfg, RefreshSetup(cfg.Sources), p.DB, eng, cache, dg, m, answerer, reader.Warm, logger)
		if err != nil {
			fmt.Fprintf(p.Stderr, "bot serve: sources: %v\n", err)
			return p.BadInput
		}
		ra.admin.Addr = func() string { return ln.Addr().String() }
		ad.run = append(ad.run, ra)
	} else if rep == nil {
		logger.Info().Msg("refreshing the knowledge is off (sources.refresh): it changes only with bot ingest or bot sync while serve is stopped")
	}
	if dg != nil {
		d := cfg.Digests
		if err := dg.Attach(ad.posters, delivery.Settings{Weekday: d.Weekday(), WeeklyAt: d.WeeklyAt(), DailyAt: d.DailyAt(),
			GlobalRate: d.GlobalRate, SlackWorkspaceRate: d.SlackWorkspaceRate}, m.Delivery()); err != nil {
			logger.Error().Err(err).Msg("start the digests")
			return p.Failure
		}
	}
	digestCtx, stopDigests := context.WithCancel(ctx)
	waitDigests := func() {}
	if rep == nil { // with etcd, the leader runs them for its term
		waitDigests = dg.Start(digestCtx)
	}
	// The database closes (the caller's) only after the digest worker and
	// schedule have stopped.
	defer func() { stopDigests(); waitDigests() }()
	err = Run(ctx, Deps{
		Metrics:  m,
		Adapters: ad.run,
		Config:   cfg,
		Ready: func() error {
			empty, err := kb.IsEmpty(context.Background())
			if err != nil {
				return err
			}
			if empty {
				return errors.New("no knowledge loaded")
			}
			return nil
		},
		Logger:   logger,
		Version:  p.Version,
		Listener: ln,
	})
	if err != nil {
		logger.Error().Err(err).Msg("serve stopped")
		return p.Failure
	}
	return 0
}
