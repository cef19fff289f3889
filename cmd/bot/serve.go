package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/logging"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/internal/serve"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/etcdstore/cluster"
)

// answerCacheSize is how many answers serve keeps in memory: every KEP,
// release and release-stage question with room to spare.
const answerCacheSize = 4096

// runServe runs every configured adapter and the HTTP server (health,
// metrics, Slack's endpoints) until SIGINT or SIGTERM, then closes the
// database. With no adapter configured it is the terminal chat.
func runServe(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.err)
	configPath := fs.String("config", "", "the YAML config `FILE` (see configs/bot.example.yaml)")
	dbOverride := fs.String("db", "", "the bbolt database `PATH` (default: the config's db, $BOT_DB, else "+defaultDB+")")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles on `ADDR`, a loopback host:port of its own (off by default)")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(io.err, "bot serve: unexpected %q; to ask one question use `bot ask %s`.\n", fs.Arg(0), fs.Arg(0))
		return exitBadInput
	}
	cfg, err := config.Load(*configPath, io.getenv)
	if err != nil {
		fmt.Fprintf(io.err, "bot serve: %v\n", err)
		return exitBadInput
	}
	if *dbOverride != "" {
		cfg.DB = *dbOverride
	}
	dcfg, err := discordConfig(cfg, io.getenv)
	if err != nil {
		fmt.Fprintf(io.err, "bot serve: config: %v\n", err)
		return exitBadInput
	}
	var created string
	db, err := openKnowledge(ctx, cfg.DB, func(n string) { created = n })
	if err != nil {
		fmt.Fprintf(io.err, "bot: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	kb := db.Knowledge()
	shared := db.Shared()
	var etcd *etcdstore.Store
	if cfg.UsesEtcd() {
		if !cfg.HasAdapters() && !dcfg.Enabled() {
			fmt.Fprintln(io.err, "bot serve: store.backend etcd runs replicas that serve Slack or Discord, and none is configured; "+
				"set the Slack or Discord secrets, or leave store.backend at bbolt for the terminal chat")
			return exitBadInput
		}
		if etcd, err = openShared(ctx, cfg); err != nil {
			fmt.Fprintf(io.err, "bot serve: %v\n", err)
			return exitFailure
		}
		defer etcd.Close()
		shared = etcd
	}

	if !cfg.HasAdapters() && !dcfg.Enabled() {
		if created != "" {
			fmt.Fprintf(io.err, "bot: note: %s\n", created)
		}
		chat := &console.Chat{In: io.in, Out: io.out, Asker: console.NewTerminalAsker(engine.New(kb, engine.WithManifestReader(manifest.ChatReader)), nil, io.err, "bot"), User: io.getenv("USER")}
		if err := chat.Run(ctx); err != nil {
			fmt.Fprintf(io.err, "bot: %v\n", err)
			return exitFailure
		}
		return exitOK
	}

	secrets := cfg.Secrets()
	if t := dcfg.BotToken.Value(); t != "" {
		secrets = append(secrets, t)
	}
	logger := logging.New(cfg.Log, io.err, secrets...)
	if pct, limit := serve.TuneGC(io.getenv); pct > 0 || limit > 0 {
		logger.Debug().Int("gc_percent", pct).Int64("memory_limit", limit).Msg("garbage collection tuned for a small live heap (GOGC, GOMEMLIMIT override)")
	}
	if *pprofAddr != "" {
		at, err := serve.StartPprof(ctx, *pprofAddr)
		if err != nil {
			fmt.Fprintf(io.err, "bot serve: %v\n", err)
			return exitBadInput
		}
		logger.Info().Str("addr", at).Msg("serving profiles (--pprof)")
	}
	if created != "" {
		logger.Info().Str("db", cfg.DB).Msg("no knowledge in the database yet; answering from the built-in snapshot until bot ingest or bot sync")
	}
	// Subscriptions only where a digest can be posted: a bot token.
	var dg *delivery.Service
	opts := []engine.Option{engine.WithManifestReader(manifest.ChatReader)}
	if !cfg.Slack.BotToken.IsZero() || dcfg.Gateway() {
		dg = delivery.NewService(shared, kb, logger)
		opts = append([]engine.Option{engine.WithSubscriptions(dg.Subscriptions())}, opts...)
	}
	eng := engine.New(kb, opts...)
	// Pay for the engine's catalog and search index now, not on the first
	// question someone asks in chat.
	if err := eng.Warm(ctx); err != nil {
		logger.Error().Err(err).Msg("load the knowledge")
		return exitFailure
	}
	// A repeated question is answered from memory until the knowledge
	// changes: only serve's own refresh changes it (bbolt lets one process
	// hold the file), or with etcd the loading of a new shared generation,
	// and either empties the cache when it does. Answers say when a source
	// has failed for long (the staleness note).
	cache := engine.NewCachedAnswerer(eng, answerCacheSize)
	answerer := refresh.NewStaleNotes(cache)
	// Every adapter reads questions with one reader, which knows the
	// features of the engine's KEPs by name; build its vocabulary now too.
	reader := question.NewReader(eng)
	if err := reader.Warm(ctx); err != nil {
		logger.Error().Err(err).Msg("load the names of features")
		return exitFailure
	}
	m := metrics.New(version)
	ad, code := buildAdapters(ctx, io, cfg, dcfg, db, shared, answerer, reader, logger, m)
	if code != exitOK {
		return code
	}
	var rep *cluster.Replica
	if etcd != nil {
		rep = newReplica(cfg, replicaID(io.getenv), etcd, kb, eng, cache, answerer, dg, reader.Warm, ad.gateways, m, logger)
		for _, l := range rep.Loops() {
			ad.run = append(ad.run, l)
		}
	}
	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		fmt.Fprintf(io.err, "bot serve: listen on %s (http.addr, BOT_HTTP_ADDR): %v\n", cfg.HTTP.Addr, err)
		return exitFailure
	}
	if cfg.Sources.Refresh && rep == nil {
		ra, err := newRefreshAdapter(cfg, db, eng, cache, dg, m, answerer, reader.Warm, logger)
		if err != nil {
			fmt.Fprintf(io.err, "bot serve: sources: %v\n", err)
			return exitBadInput
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
			return exitFailure
		}
	}
	digestCtx, stopDigests := context.WithCancel(ctx)
	waitDigests := func() {}
	if rep == nil { // with etcd, the leader runs them for its term
		waitDigests = dg.Start(digestCtx)
	}
	// The database closes (deferred above) only after the digest worker
	// and schedule have stopped.
	defer func() { stopDigests(); waitDigests() }()
	err = serve.Run(ctx, serve.Deps{
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
		Version:  version,
		Listener: ln,
	})
	if err != nil {
		logger.Error().Err(err).Msg("serve stopped")
		return exitFailure
	}
	return exitOK
}
