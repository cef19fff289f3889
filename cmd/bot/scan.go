package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest/scan"
)

// runScan reads manifests (files, folders read recursively for .yaml,
// .yml and .json, - for stdin) and says which objects use API versions
// removed or deprecated by --to. Exit: 0 nothing found, 4 deprecations
// only, 5 something removed (or not served yet), 2 bad arguments or
// nothing readable, 3 broken on kepbot's side.
func runScan(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	toFlag := fs.String("to", "", "the release you go to, e.g. 1.36 (`VERSION`, required)")
	fromFlag := fs.String("from", "", "the release you run now (`VERSION`); a kubectl version output among the inputs gives it otherwise")
	asJSON := fs.Bool("json", false, "print one JSON object: from, to, objects, findings, unknown, errors")
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
	if len(paths) == 0 {
		return fail(exitBadInput, "give the manifests to scan: files, folders (read recursively for .yaml, .yml and .json), or - for stdin")
	}
	db, err := openKnowledge(ctx, dbPath(), func(n string) { fmt.Fprintf(io.err, "bot scan: note: %s\n", n) })
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	defer db.Close()
	code, err := scan.Run(ctx, db.Knowledge(), scan.Request{From: from, To: to, Paths: paths, Stdin: io.in, JSON: *asJSON,
		Problem: func(line string) { fmt.Fprintf(io.err, "bot scan: %s\n", line) }}, io.out)
	var bad *scan.InputError
	switch {
	case errors.Is(err, scan.ErrNoLifecycle):
		return fail(exitFailure, "the database at %s holds no API lifecycle; run bot ingest with ../shared/data/api-lifecycle (or bot sync), or use --db with a new path to start from the built-in snapshot", dbPath())
	case errors.As(err, &bad):
		return fail(exitBadInput, "%s", bad.Message)
	case err != nil:
		return fail(exitFailure, "%v", err)
	}
	return code
}
