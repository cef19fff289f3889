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

// runScan reads manifests (files, folders read recursively for .yaml,
// .yml and .json, - for stdin) and says which objects use API versions
// removed or deprecated by --to. Its exit codes are scan.ExitCodes: 0
// nothing found, 4 deprecations only, 5 something removed (or not served
// yet), 3 an input could not be read (or kepbot broke), 2 bad arguments,
// 130 and 143 when a signal stopped it.
func runScan(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	toFlag := fs.String("to", "", "the release you go to, e.g. 1.36 (`VERSION`, required)")
	fromFlag := fs.String("from", "", "the release you run now (`VERSION`); a kubectl version output among the inputs gives it otherwise")
	asJSON := fs.Bool("json", false, "print one JSON object: from, to, objects, findings, unknown, errors (--format json)")
	format := fs.String("format", scan.FormatText, "the report's `FORM`: "+strings.Join(scan.Formats, ", ")+" (SARIF 2.1.0, for code scanning)")
	failOn := fs.String("fail-on", "deprecated", "the least `FINDING` that makes the exit non-zero: deprecated (exit 4 or 5), or removed (deprecations alone exit 0)")
	cl := clusterFlags(fs)
	ignoreUnreadable := fs.Bool("ignore-unreadable", false, "list the inputs that cannot be read or parsed without exiting 3 for them")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitBadInput
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(io.err, "bot scan: "+format+"\n", a...)
		return code
	}
	if *toFlag == "" {
		return fail(exitBadInput, "give --to VERSION, the release you go to, e.g. bot scan --to 1.36 manifests/")
	}
	to, err := knowledge.ParseVersion(*toFlag)
	if err != nil {
		return fail(exitBadInput, "--to %q is not a release like 1.36", *toFlag)
	}
	var from knowledge.Version
	if *fromFlag != "" {
		if from, err = knowledge.ParseVersion(*fromFlag); err != nil {
			return fail(exitBadInput, "--from %q is not a release like 1.32", *fromFlag)
		}
	}
	if *asJSON {
		*format = scan.FormatJSON
	}
	if !slices.Contains(scan.Formats, *format) {
		return fail(exitBadInput, "--format %q is not one of %s", *format, strings.Join(scan.Formats, ", "))
	}
	if *failOn != "deprecated" && *failOn != "removed" {
		return fail(exitBadInput, "--fail-on %q is not deprecated or removed", *failOn)
	}
	switch {
	case *cl.cluster && len(paths) > 0:
		return fail(exitBadInput, "give either --cluster or the manifests to scan, not both")
	case !*cl.cluster && (*cl.kubeconfig != "" || *cl.context != ""):
		return fail(exitBadInput, "--kubeconfig and --context are for --cluster")
	case len(paths) == 0 && !*cl.cluster:
		return fail(exitBadInput, "give the manifests to scan: files, folders (read recursively for .yaml, .yml and .json), or - for stdin; or --cluster")
	}
	kb, where, closeDB, err := scanKnowledge(fs, io.getenv, dbPath())
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
	req := scan.Request{From: from, To: to, Paths: paths, Stdin: io.in, Format: *format, BaseDir: base,
		IgnoreUnreadable: *ignoreUnreadable,
		Problem:          func(line string) { problems = append(problems, line) },
		Note:             func(line string) { fmt.Fprintf(io.err, "bot scan: note: %s\n", line) }}
	if *cl.cluster {
		read, err := cl.reader(io.err)
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
		fmt.Fprintf(io.err, "bot scan: %s\n", unreadableWords(problems, *ignoreUnreadable))
	}
	if err == nil && code == scan.ExitDeprecated && *failOn == "removed" {
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
func scanKnowledge(flags *flag.FlagSet, getenv func(string) string, path string) (kb scan.Knowledge, where string, closeDB func(), err error) {
	given := flags.Lookup("db").Value.String() != "" || getenv("BOT_DB") != ""
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
