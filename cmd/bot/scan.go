package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
)

// Exit codes of bot scan, for CI: what the manifests hold decides them.
const (
	exitScanDeprecated = 4 // only deprecations
	exitScanRemoved    = 5 // something is not served in the target
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
	types, releases, err := db.Knowledge().ListAPIs(ctx)
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	t := knowledge.NewAPITable(types, releases)
	if !t.Known() {
		return fail(exitFailure, "the database at %s holds no API lifecycle; run bot ingest with ../shared/data/api-lifecycle (or bot sync), or use --db with a new path to start from the built-in snapshot", dbPath())
	}
	if err := knowledge.CheckScanReleases(t, from, to); err != nil {
		return fail(exitBadInput, "%s", knowledge.ErrorMessage(err))
	}
	read := readManifests(ctx, paths, io.in)
	if read.Documents == 0 && len(read.Objects) == 0 {
		for _, p := range read.Problems {
			fmt.Fprintf(io.err, "bot scan: %s\n", problemText(p))
		}
		return fail(exitBadInput, "nothing readable: none of the inputs held a YAML or JSON document")
	}
	if from.IsZero() && !read.ServerVersion.IsZero() {
		from = read.ServerVersion
		if err := knowledge.CheckScanReleases(t, from, to); err != nil {
			return fail(exitBadInput, "the kubectl version among the inputs says the server runs %s: %s", from, knowledge.ErrorMessage(err))
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(exitFailure, "%v", err)
	}
	report := t.Scan(read.Objects, from, to)
	out := &scanOutput{t: t, report: report, read: read, sources: sourcesByID(ctx, db.Knowledge())}
	if *asJSON {
		err = out.writeJSON(io.out)
	} else {
		err = out.writeText(io.out)
	}
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	switch {
	case report.Breaks():
		return exitScanRemoved
	case report.Count(knowledge.ScanDeprecated) > 0:
		return exitScanDeprecated
	}
	return exitOK
}

// sourcesByID lists the knowledge's sources by ID, for naming what a
// finding rests on; empty when they cannot be read.
func sourcesByID(ctx context.Context, kb interface {
	ListSources(context.Context) ([]knowledge.Source, error)
}) map[string]knowledge.Source {
	out := map[string]knowledge.Source{}
	srcs, err := kb.ListSources(ctx)
	if err != nil {
		return out
	}
	for _, s := range srcs {
		out[s.ID] = s
	}
	return out
}
