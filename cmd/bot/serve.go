package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/serve"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/store/etcdstore"
)

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
	dcfg, err := serve.DiscordConfig(cfg, io.getenv)
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
	var etcd *etcdstore.Store
	if cfg.UsesEtcd() {
		if !cfg.HasAdapters() && !dcfg.Enabled() {
			fmt.Fprintln(io.err, "bot serve: store.backend etcd runs replicas that serve Slack or Discord, and none is configured; "+
				"set the Slack or Discord secrets, or leave store.backend at bbolt for the terminal chat")
			return exitBadInput
		}
		if etcd, err = serve.OpenShared(ctx, cfg); err != nil {
			fmt.Fprintf(io.err, "bot serve: %v\n", err)
			return exitFailure
		}
		defer etcd.Close()
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

	return serve.Process{Config: cfg, Slack: serve.SlackConfig(cfg.Slack), Discord: dcfg, DB: db, Etcd: etcd,
		Created: created, Pprof: *pprofAddr, Getenv: io.getenv, Version: version, Stderr: io.err,
		BadInput: exitBadInput, Failure: exitFailure}.Run(ctx)
}
