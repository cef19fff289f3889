package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kepbot/kepbot/cmd/bot/internal/admin"
	"github.com/kepbot/kepbot/cmd/bot/internal/app"
	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/logging"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
)

// syncCommand is `bot sync` with what tests change: the fetch options (to
// reach a local TLS server), the archive limits, the clock, the waits
// between retries, and whether stderr is a terminal (for the progress
// line).
type syncCommand struct {
	fetch    fetch.Options
	limits   kepyaml.Limits
	now      func() time.Time
	wait     func(ctx context.Context, d time.Duration) error
	terminal func(w io.Writer) bool
}

// command is `bot sync` in the command table.
func (c syncCommand) command() command {
	return command{
		name:    "sync",
		summary: "ask every source for news once, and apply it",
		usage:   "[FLAGS]",
		about: "Asks every source (kep.yaml, release notes and pages, the API lifecycle, patches, k8s.io/api) for " +
			"news and applies what they bring in one transaction, each source's part swapped alone; a source that " +
			"fails keeps its part. A failing source is asked again twice with backoff; a host that keeps failing, or " +
			"that asked to wait (429, Retry-After, a rate limit), is not asked again before its time. The whole sync " +
			"ends within --timeout. While bot serve holds the database, it asks the running serve to refresh instead.",
		examples: []example{
			{"bot sync", "every source, from the network"},
			{"bot sync --only kep.yaml,release-notes/1.36", "some sources only"},
			{"bot sync --from ../enhancements", "kep.yaml from a local checkout (or its .tar.gz)"},
			{"bot sync --timeout 1m --json", "give up after a minute, and print the report as JSON"},
		},
		exits: []exit{
			{exitOK, "every source asked answered (with news or without)"},
			{exitBadInput, "a bad flag or setting, an --only it does not know, --from that holds no kep.yaml, or a source whose URL may not be fetched or whose content cannot be used (the others were applied)"},
			{exitFailure, "a source could not be reached: it failed, its host asked to wait or kept failing, or the time ran out; stderr names each and why (the others were applied). Or the database could not be written (it was not changed)"},
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
	json                        bool
}

func (c syncCommand) flags(fs *flag.FlagSet, io stdio) runFunc {
	var f syncFlags
	fs.StringVar(&f.config, "config", "", "read the sources section of `FILE` (as bot serve does)")
	fs.StringVar(&f.db, "db", "", "the bbolt database `PATH` (default $BOT_DB, else "+defaultDB+")")
	fs.StringVar(&f.url, "url", "", "fetch the enhancements tarball from `URL`, https on an allowed host (default $BOT_SYNC_URL, else "+sources.DefaultSyncURL+")")
	fs.StringVar(&f.from, "from", "", "read a kubernetes/enhancements checkout `DIR` or its .tar.gz FILE instead of fetching kep.yaml")
	fs.StringVar(&f.only, "only", "", "ask only these `SOURCES`, comma-separated: "+strings.Join(refresh.Names(), ", ")+", or one release's: release-notes/1.36, api-lifecycle/1.36")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after `DURATION` in all (every fetch, retry and wait); what was read by then is applied and the rest named (default sources.timeout, "+config.DefaultSourcesTimeout.String()+")")
	fs.BoolVar(&f.json, "json", false, "print the report as one JSON object on stdout (database, applied, generation, counts, each source's result and error, hosts, exit), and no progress line")
	return func(ctx context.Context, args []string) int { return c.sync(ctx, io, f, args) }
}

// sync asks every source of the knowledge for news once and applies what
// they bring in one transaction, each source's part swapped alone; a
// source that fails keeps its part. While `bot serve` holds the database,
// it asks the running serve to refresh instead (see cmd/bot/internal/admin). The
// whole of it is bounded by --timeout; it exits 3 when a source could not
// be reached, naming each and its fault.
func (c syncCommand) sync(ctx context.Context, io stdio, f syncFlags, args []string) int {
	if c.now == nil {
		c.now = time.Now
	}
	if c.terminal == nil {
		c.terminal = logging.IsTerminal
	}
	out := syncOutput{io: io, json: f.json}
	switch {
	case len(args) > 0:
		return out.fail(exitBadInput, fmt.Sprintf("unexpected %q; give a local copy with --from PATH.", args[0]))
	case f.from != "" && (f.url != "" || f.only != ""):
		return out.fail(exitBadInput, "--from reads kep.yaml from a local copy; give it without --url or --only.")
	}
	cfg, err := config.Load(f.config, io.getenv)
	if err != nil {
		return out.fail(exitBadInput, err.Error())
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
	db := cfg.DB
	out.db = db
	var opts refresh.Options
	if f.only != "" {
		if opts.Only, err = refresh.SplitOnly(f.only); err != nil {
			return out.fail(exitBadInput, "--only: "+err.Error())
		}
	}
	opts.Force, opts.Budget = true, cfg.Sources.Timeout
	if !f.json && c.terminal(io.err) {
		line := refresh.NewProgressLine(io.err, "bot sync")
		opts.Progress, out.clear = line.Step, line.Clear
		defer line.Clear()
	}
	st := refresh.LocalStore{Path: db, Timeout: lockTimeout}
	rc := app.RefreshSetup(cfg.Sources).Config(st)
	rc.Fetch = c.fetch
	rc.Fetch.Timeout = cfg.Sources.Timeout
	rc.Limits, rc.Now, rc.Wait = c.limits, c.now, c.wait
	rep, err := refresh.Once{Config: rc, Store: st, From: f.from, Options: opts}.Run(ctx)
	var se *refresh.OnceError
	var le *refresh.LocalError
	var oe *store.OpenError
	switch {
	case errors.As(err, &se) && se.Setup:
		return out.fail(exitBadInput, se.Err.Error())
	case errors.As(err, &se):
		return out.fail(exitFailure, se.Err.Error())
	case errors.As(err, &oe) && errors.Is(oe, store.ErrLocked):
		return askServe(ctx, out, db, opts, f.from)
	case errors.As(err, &le) || errors.Is(err, refresh.ErrNoCorpus):
		return out.fail(exitBadInput, err.Error()+"; the database was not changed.")
	case err != nil:
		return out.fail(exitFailure, err.Error()+"; the database was not changed.")
	}
	return out.report("", rep)
}

// askServe is `bot sync` while another kepbot holds the database: it asks
// the running serve to refresh now, within the same budget, and prints the
// report as a sync of its own would.
func askServe(ctx context.Context, out syncOutput, db string, opts refresh.Options, from string) int {
	if from != "" {
		return out.fail(exitFailure, fmt.Sprintf("another kepbot (such as `bot serve`) has %s open; --from needs the database itself: stop it first, or let it refresh from the network (bot sync without --from).", db))
	}
	pid, rep, err := admin.AskRefresh(ctx, db, opts.Only, opts.Budget)
	if err != nil {
		return out.fail(exitFailure, err.Error())
	}
	return out.report(fmt.Sprintf("The running kepbot (pid %d) refreshed its knowledge.\n", pid), rep)
}

// syncOutput writes bot sync's report and errors: as text (the report on
// stdout; each source not reached, and any error, on stderr), or as one
// JSON object on stdout (--json), stderr as with text.
type syncOutput struct {
	io    stdio
	json  bool
	db    string
	clear func() // rubs out the progress line, if any
}

// report writes rep after head (whose pass it was, if not this process's)
// and returns the exit code: the worst severity among its sources.
func (o syncOutput) report(head string, rep *refresh.Report) int {
	if o.clear != nil {
		o.clear()
	}
	code := rep.Severity()
	if o.json {
		refresh.WriteReport(io.Discard, o.io.err, o.db, rep)
		if err := refresh.WriteJSON(o.io.out, refresh.JSONReport{Database: o.db, Report: rep, Exit: code}); err != nil {
			return exitFailure
		}
		return code
	}
	fmt.Fprint(o.io.out, head)
	refresh.WriteReport(o.io.out, o.io.err, o.db, rep)
	return code
}

// fail says msg on stderr (with --json, also as the report's error on
// stdout) and returns code.
func (o syncOutput) fail(code int, msg string) int {
	if o.clear != nil {
		o.clear()
	}
	fmt.Fprintf(o.io.err, "bot sync: %s\n", msg)
	if o.json {
		refresh.WriteJSON(o.io.out, refresh.JSONReport{Database: o.db, Exit: code, Error: msg})
	}
	return code
}
