package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/kepbot/kepbot/internal/admin"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/serve"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
)

// syncCommand is `bot sync` with what tests change: the fetch options (to
// reach a local TLS server), the archive limits and the clock.
type syncCommand struct {
	fetch  fetch.Options
	limits kepyaml.Limits
	now    func() time.Time
}

// command is `bot sync` in the command table.
func (c syncCommand) command() command {
	return command{
		name:    "sync",
		summary: "ask every source for news once, and apply it",
		usage:   "[FLAGS]",
		about: "Asks every source (kep.yaml, release notes and pages, the API lifecycle, patches, k8s.io/api) for " +
			"news and applies what they bring in one transaction, each source's part swapped alone; a source that " +
			"fails keeps its part. While bot serve holds the database, it asks the running serve to refresh instead.",
		examples: []example{
			{"bot sync", "every source, from the network"},
			{"bot sync --only kep.yaml,release-notes/1.36", "some sources only"},
			{"bot sync --from ../enhancements", "kep.yaml from a local checkout (or its .tar.gz)"},
		},
		exits: []exit{
			{exitOK, "every source asked answered (with news or without)"},
			{exitBadInput, "a bad flag or setting, an --only it does not know, --from that holds no kep.yaml, or a source whose URL may not be fetched or whose content cannot be used (the others were applied)"},
			{exitFailure, "a source could not be reached (the others were applied), or the database could not be written (it was not changed)"},
		},
		flags: c.flags,
	}
}

// run is `bot sync ARGS`, for tests that change c's options.
func (c syncCommand) run(ctx context.Context, io stdio, args []string) int {
	return c.command().run(ctx, io, args)
}

// syncFlags are bot sync's flags.
type syncFlags struct {
	config, db, url, from, only string
	timeout                     time.Duration
}

func (c syncCommand) flags(fs *flag.FlagSet, io stdio) runFunc {
	var f syncFlags
	fs.StringVar(&f.config, "config", "", "read the sources section of `FILE` (as bot serve does)")
	fs.StringVar(&f.db, "db", "", "the bbolt database `PATH` (default $BOT_DB, else "+defaultDB+")")
	fs.StringVar(&f.url, "url", "", "fetch the enhancements tarball from `URL`, https on an allowed host (default $BOT_SYNC_URL, else "+sources.DefaultSyncURL+")")
	fs.StringVar(&f.from, "from", "", "read a kubernetes/enhancements checkout `DIR` or its .tar.gz FILE instead of fetching kep.yaml")
	fs.StringVar(&f.only, "only", "", "ask only these `SOURCES`, comma-separated: "+strings.Join(refresh.Names(), ", ")+", or one release's: release-notes/1.36, api-lifecycle/1.36")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up one source's fetch after `DURATION` (default "+config.DefaultSourcesTimeout.String()+")")
	return func(ctx context.Context, args []string) int { return c.sync(ctx, io, f, args) }
}

// sync asks every source of the knowledge for news once and applies what
// they bring in one transaction, each source's part swapped alone; a
// source that fails keeps its part. While `bot serve` holds the database,
// it asks the running serve to refresh instead (see internal/admin).
func (c syncCommand) sync(ctx context.Context, io stdio, f syncFlags, args []string) int {
	if c.now == nil {
		c.now = time.Now
	}
	switch {
	case len(args) > 0:
		fmt.Fprintf(io.err, "bot sync: unexpected %q; give a local copy with --from PATH.\n", args[0])
		return exitBadInput
	case f.from != "" && (f.url != "" || f.only != ""):
		fmt.Fprintln(io.err, "bot sync: --from reads kep.yaml from a local copy; give it without --url or --only.")
		return exitBadInput
	}
	cfg, err := config.Load(f.config, io.getenv)
	if err != nil {
		fmt.Fprintf(io.err, "bot sync: %v\n", err)
		return exitBadInput
	}
	if f.db != "" {
		cfg.DB = f.db
	}
	if f.url != "" {
		cfg.Sources.SyncURL = f.url
	}
	if f.timeout > 0 {
		cfg.Sources.Timeout = f.timeout
	}
	var opts refresh.Options
	if f.only != "" {
		if opts.Only, err = refresh.SplitOnly(f.only); err != nil {
			fmt.Fprintf(io.err, "bot sync: --only: %v\n", err)
			return exitBadInput
		}
	}
	opts.Force = true
	db := cfg.DB
	st := refresh.LocalStore{Path: db, Timeout: lockTimeout}
	rc := serve.RefreshSetup(cfg.Sources).Config(st)
	rc.Fetch = c.fetch
	rc.Fetch.Timeout = cfg.Sources.Timeout
	rc.Limits, rc.Now = c.limits, c.now
	rep, err := refresh.Once{Config: rc, Store: st, From: f.from, Options: opts}.Run(ctx)
	var se *refresh.OnceError
	var le *refresh.LocalError
	var oe *store.OpenError
	switch {
	case errors.As(err, &se):
		fmt.Fprintf(io.err, "bot sync: %v\n", se.Err)
		if se.Setup {
			return exitBadInput
		}
		return exitFailure
	case errors.As(err, &oe) && errors.Is(oe, store.ErrLocked):
		return askServe(ctx, io, db, opts, f.from)
	case err != nil:
		fmt.Fprintf(io.err, "bot sync: %v; the database was not changed.\n", err)
		if errors.As(err, &le) || errors.Is(err, refresh.ErrNoCorpus) {
			return exitBadInput
		}
		return exitFailure
	}
	refresh.WriteReport(io.out, io.err, db, rep)
	return rep.Severity()
}

// askServe is `bot sync` while another kepbot holds the database: it asks
// the running serve to refresh now, and prints the report as a sync of
// its own would.
func askServe(ctx context.Context, sio stdio, db string, opts refresh.Options, from string) int {
	if from != "" {
		fmt.Fprintf(sio.err, "bot sync: another kepbot (such as `bot serve`) has %s open; --from needs the database itself: stop it first, or let it refresh from the network (bot sync without --from).\n", db)
		return exitFailure
	}
	pid, rep, err := admin.AskRefresh(ctx, db, opts.Only)
	if err != nil {
		fmt.Fprintf(sio.err, "bot sync: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(sio.out, "The running kepbot (pid %d) refreshed its knowledge.\n", pid)
	refresh.WriteReport(sio.out, sio.err, db, rep)
	return rep.Severity()
}
