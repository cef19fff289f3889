package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/cmd/bot/internal/app"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// serveFlags are bot serve's flags.
type serveFlags struct {
	config, db, pprof string
}

// serveCommand is `bot serve`. implicit is bot with no command: a person
// who typed `bot` (or `go run ./cmd/bot`) gets the chat whatever stdin
// is, where `bot serve` with nothing configured chats only on a terminal.
func serveCommand(implicit bool) command {
	return command{
		name:    "serve",
		summary: "serve Slack and Discord as configured; with neither, chat here",
		usage:   "[FLAGS]",
		about: "Runs every configured platform (Slack Socket Mode, Slack's HTTP endpoints, Discord's gateway and " +
			"interactions) and one HTTP server (/healthz, /readyz, /metrics) until SIGINT or SIGTERM. A platform that " +
			"cannot connect is retried with backoff while the others serve, and /readyz names it. With no platform " +
			"configured it is the terminal chat on a terminal, and an error naming the settings anywhere else (a " +
			"container whose Secret is missing). `bot` with no command chats whenever no platform is configured.",
		examples: []example{
			{"bot", "chat on this terminal (no network, no tokens)"},
			{"SLACK_BOT_TOKEN=xoxb-… SLACK_APP_TOKEN=xapp-… bot serve", "serve Slack over Socket Mode"},
			{"bot serve --config bot.yaml --db /var/lib/kepbot/kepbot.db", "settings from a file (see configs/bot.example.yaml)"},
		},
		exits: []exit{
			{exitOK, "stopped by SIGINT or SIGTERM after finishing the answers in flight, or the chat ended (quit, Ctrl-D)"},
			{exitBadInput, "a bad flag or setting; no platform configured and stdin not a terminal; --pprof not on loopback"},
			{exitFailure, "the database, etcd or the HTTP address failed, or every platform refused its credentials"},
		},
		flags: func(fs *flag.FlagSet, sio stdio) runFunc {
			var f serveFlags
			fs.StringVar(&f.config, "config", "", "the YAML config `FILE` (see configs/bot.example.yaml)")
			fs.StringVar(&f.db, "db", "", "the bbolt database `PATH` (default: the config's db, $BOT_DB, else "+defaultDB+")")
			fs.StringVar(&f.pprof, "pprof", "", "serve Go's profiles on `ADDR`, a loopback host:port of its own (off by default)")
			return func(ctx context.Context, args []string) int { return runServe(ctx, sio, f, implicit, args) }
		},
	}
}

// runServe runs every configured adapter and the HTTP server (health,
// metrics, Slack's endpoints) until SIGINT or SIGTERM, then closes the
// database. With no adapter configured it is the terminal chat, when
// someone can chat: implicit (bot with no command) or stdin a terminal.
func runServe(ctx context.Context, io stdio, f serveFlags, implicit bool, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(io.err, "bot serve: unexpected %q; to ask one question use `bot ask %s`.\n", args[0], args[0])
		return exitBadInput
	}
	cfg, err := config.Load(f.config, io.getenv)
	if err != nil {
		fmt.Fprintf(io.err, "bot serve: %v\n", err)
		return exitBadInput
	}
	if f.db != "" {
		cfg.DB = f.db
	}
	dcfg, err := app.DiscordConfig(cfg, io.getenv)
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "config") { // the adapter's own say "config: …" already
			msg = "config: " + msg
		}
		fmt.Fprintf(io.err, "bot serve: %s\n", msg)
		return exitBadInput
	}
	platforms := cfg.HasAdapters() || dcfg.Enabled()
	if !platforms && !implicit && !io.terminal && !cfg.UsesEtcd() {
		fmt.Fprintf(io.err, "bot serve: %sStdin is not a terminal, so there is no one to chat with: the terminal chat is `bot` (or `bot serve` on a terminal); one question is `bot ask QUESTION`.\n",
			app.NoPlatform(cfg, dcfg))
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
		if !platforms {
			fmt.Fprintln(io.err, "bot serve: store.backend etcd runs replicas that serve Slack or Discord, and none is configured; "+
				"set the Slack or Discord secrets, or leave store.backend at bbolt for the terminal chat")
			return exitBadInput
		}
		if etcd, err = app.OpenShared(ctx, cfg); err != nil {
			fmt.Fprintf(io.err, "bot serve: %v\n", err)
			return exitFailure
		}
		defer etcd.Close()
	}

	if !platforms {
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

	return app.Process{Config: cfg, Slack: app.SlackConfig(cfg), Discord: dcfg, DB: db, Etcd: etcd,
		Created: created, Pprof: f.pprof, Getenv: io.getenv, Version: currentBuild().Version, Stderr: io.err,
		BadInput: exitBadInput, Failure: exitFailure}.Run(ctx)
}
