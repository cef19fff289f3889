package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest/scan"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store"
)

// scanCommand is `bot scan`. Its exit codes are scan.ExitCodes, the one
// list the help prints and docs/scan.md's table says (a test holds both to it).
func scanCommand() command {
	return command{
		name:        "scan",
		summary:     "which manifests use APIs removed or deprecated by a release",
		usage:       "--to VERSION [FLAGS] PATH...",
		interleaved: true,
		args:        completeArgs{files: true},
		about: "Reads files, folders (recursively: .yaml, .yml, .json) and - (stdin): multi-document YAML, JSON, " +
			"kind: List, helm template output; or, with --cluster, a live cluster (its deprecated-APIs metric, every object's " +
			"managedFields, its Helm releases). Only apiVersion, kind, name and namespace are read, never a value. " +
			"A pasted kubectl version output among the inputs sets --from. It only reads: the database read-only, " +
			"or the built-in snapshot in memory.",
		examples: []example{
			{"bot scan --to 1.36 deploy/ charts/rendered.yaml", "files and folders"},
			{"helm template my-chart | bot scan --to 1.36 -", "- reads stdin; \"# Source:\" names each template"},
			{"bot scan --to 1.36 --format sarif k8s/ > kepbot.sarif", "SARIF 2.1.0, for code scanning"},
			{"bot scan --cluster --context prod --to 1.32", "a live cluster, as kubectl reaches it"},
		},
		exits: scanExits(),
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			var f scanFlags
			f.db = dbFlag(fs, io.getenv)
			fs.Lookup("db").Usage = "the bbolt database `PATH` to read (default $BOT_DB, else ./data/kepbot.db when it exists, else the built-in snapshot in memory)"
			f.dbSet = func() bool { return fs.Lookup("db").Value.String() != "" || io.getenv("BOT_DB") != "" }
			fs.StringVar(&f.to, "to", "", "the release you go to, e.g. 1.36 (`VERSION`, required)")
			fs.StringVar(&f.from, "from", "", "the release you run now (`VERSION`); a kubectl version output among the inputs, or the cluster, gives it otherwise")
			fs.BoolVar(&f.json, "json", false, "print one JSON object: from, to, objects, findings, unknown, errors, skipped, gates (--format json)")
			fs.StringVar(&f.format, "format", scan.FormatText, "the report's `FORM`: "+strings.Join(scan.Formats, ", ")+" (SARIF 2.1.0, for code scanning)")
			fs.StringVar(&f.failOn, "fail-on", "deprecated", "the least `FINDING` that makes the exit non-zero: deprecated (exit 4 or 5), removed (deprecations alone exit 0), or cve (as deprecated, and with --cluster the known vulnerabilities of the cluster's own release exit 6)")
			fs.BoolVar(&f.ignoreUnreadable, "ignore-unreadable", false, "list the inputs that cannot be read or parsed without exiting 3 for them")
			f.cl = clusterFlags(fs)
			return func(ctx context.Context, paths []string) int { return runScan(ctx, io, f, paths) }
		},
	}
}

// scanExits is scan.ExitCodes as the help lists them.
func scanExits() []exit {
	out := make([]exit, len(scan.ExitCodes))
	for i, e := range scan.ExitCodes {
		out[i] = exit{e.Code, e.Meaning}
	}
	return out
}

// scanFlags are bot scan's flags.
type scanFlags struct {
	db               func() string
	dbSet            func() bool // --db or $BOT_DB was given
	to, from         string
	json             bool
	format, failOn   string
	ignoreUnreadable bool
	cl               clusterOpts
}

// runScan reads manifests (files, folders read recursively for .yaml,
// .yml and .json, - for stdin), or a live cluster with --cluster, and says
// which objects use API versions removed or deprecated by --to. Its exit
// codes are scan.ExitCodes: 0 nothing found, 4 deprecations only, 5
// something removed (or not served), 3 an input could not be read (or
// kepbot broke), 2 bad arguments, 130 and 143 when a signal stopped it.
func runScan(ctx context.Context, io stdio, f scanFlags, paths []string) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(io.err, "bot scan: "+format+"\n", a...)
		return code
	}
	if f.to == "" {
		return fail(exitBadInput, "give --to VERSION, the release you go to, e.g. bot scan --to 1.36 manifests/")
	}
	to, err := knowledge.ParseVersion(f.to)
	if err != nil {
		return fail(exitBadInput, "--to %q is not a release like 1.36", f.to)
	}
	var from knowledge.Version
	if f.from != "" {
		if from, err = knowledge.ParseVersion(f.from); err != nil {
			return fail(exitBadInput, "--from %q is not a release like 1.32", f.from)
		}
	}
	if f.json {
		f.format = scan.FormatJSON
	}
	if !slices.Contains(scan.Formats, f.format) {
		return fail(exitBadInput, "--format %q is not one of %s", f.format, strings.Join(scan.Formats, ", "))
	}
	if f.failOn != "deprecated" && f.failOn != "removed" && f.failOn != "cve" {
		return fail(exitBadInput, "--fail-on %q is not deprecated, removed or cve", f.failOn)
	}
	switch {
	case *f.cl.cluster && len(paths) > 0:
		return fail(exitBadInput, "give either --cluster or the manifests to scan, not both")
	case !*f.cl.cluster && (*f.cl.kubeconfig != "" || *f.cl.context != ""):
		return fail(exitBadInput, "--kubeconfig and --context are for --cluster")
	case len(paths) == 0 && !*f.cl.cluster:
		return fail(exitBadInput, "give the manifests to scan: files, folders (read recursively for .yaml, .yml and .json), or - for stdin; or --cluster")
	}
	kb, where, closeDB, err := scanKnowledge(f.dbSet(), f.db())
	var bad *scan.InputError
	switch {
	case errors.As(err, &bad):
		return fail(exitBadInput, "%s", bad.Message)
	case err != nil:
		return fail(exitFailure, "%v", err)
	}
	defer closeDB()
	var problems []string
	base, _ := os.Getwd()
	req := scan.Request{From: from, To: to, Paths: paths, Stdin: io.in, Format: f.format, BaseDir: base,
		IgnoreUnreadable: f.ignoreUnreadable, FailOnCVE: f.failOn == "cve",
		Problem: func(line string) { problems = append(problems, line) },
		Note:    func(line string) { fmt.Fprintf(io.err, "bot scan: note: %s\n", line) }}
	if *f.cl.cluster {
		read, err := f.cl.reader(io.err)
		if err != nil {
			return fail(exitFailure, "%v", err)
		}
		req.Read = read
	}
	code, err, stopped := untilInterrupted(ctx, func() (int, error) { return scan.Run(ctx, kb, req, io.out) })
	if stopped {
		fmt.Fprintf(io.err, "bot scan: %v; the scan was stopped\n", context.Cause(ctx))
		return code
	}
	if err == nil && len(problems) > 0 {
		fmt.Fprintf(io.err, "bot scan: %s\n", unreadableWords(problems, f.ignoreUnreadable))
	}
	if err == nil && code == scan.ExitDeprecated && f.failOn == "removed" {
		code = scan.ExitClean
	}
	switch {
	case errors.Is(err, scan.ErrNoLifecycle):
		return fail(exitFailure, "%s holds no API lifecycle; run bot ingest with ../shared/data/api-lifecycle (or bot sync) into it, or leave out --db to scan with the built-in snapshot", where)
	case errors.As(err, &bad):
		for _, p := range problems {
			fmt.Fprintf(io.err, "bot scan: %s\n", p)
		}
		return fail(exitBadInput, "%s", bad.Message)
	case err != nil:
		return fail(exitFailure, "%v", err)
	}
	return code
}

// unreadableWords says, in one line for standard error, what could not be
// read and what it does to the exit code.
func unreadableWords(problems []string, ignored bool) string {
	s := "could not read or parse " + problems[0]
	if len(problems) > 1 {
		s += fmt.Sprintf(" (and %d more, listed in the report)", len(problems)-1)
	}
	if ignored {
		return s + "; passed over (--ignore-unreadable)"
	}
	return s + "; exit 3 unless something is removed (5); --ignore-unreadable passes over them"
}

// untilInterrupted runs f, and returns early when a signal stops the
// command (stopped, with its exit code: 130, 143): a read of a silent
// stdin or a pipe does not see a context, and a scan only reads, so it
// may be left behind as the process ends.
func untilInterrupted(ctx context.Context, f func() (int, error)) (code int, err error, stopped bool) {
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		c, e := f()
		done <- result{c, e}
	}()
	select {
	case r := <-done:
		return r.code, r.err, false
	case <-ctx.Done():
		if c, ok := interruptedCode(ctx); ok {
			return c, nil, true
		}
		r := <-done
		return r.code, r.err, false
	}
}

// scanKnowledge opens what a scan reads, and nothing for writing: the
// database of --db or $BOT_DB, or ./data/kepbot.db when it exists, read-only
// under a shared lock (scans in parallel share it); otherwise the built-in
// snapshot in memory, so a scan in CI writes no ./data into the working
// tree and runs in a read-only folder. where names it for messages.
func scanKnowledge(given bool, path string) (kb scan.Knowledge, where string, closeDB func(), err error) {
	_, statErr := os.Stat(path)
	if given && errors.Is(statErr, fs.ErrNotExist) {
		return nil, "", nil, &scan.InputError{Message: fmt.Sprintf("there is no database at %s; a scan only reads one: make it with bot ingest or bot sync, or leave out --db (and $BOT_DB) to scan with the built-in snapshot", path)}
	}
	if statErr == nil || given {
		db, err := store.Open(path, store.Options{Timeout: lockTimeout, ReadOnly: true})
		if err != nil {
			return nil, "", nil, err
		}
		return db.Knowledge(), "the database at " + path, func() { db.Close() }, nil
	}
	k, err := snapshot.Load()
	if err != nil {
		return nil, "", nil, err
	}
	return scan.InMemory(k), "the built-in snapshot", func() {}, nil
}
