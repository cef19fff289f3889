package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
	"github.com/kepbot/kepbot/store"
)

// runIngest replaces the knowledge in the database with exactly what the
// given files and folders hold. Files it cannot read are named in warnings;
// when nothing can be read, the database is left as it was.
func runIngest(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	asJSON := fs.Bool("json", false, "print the report as one JSON object on stdout (database, files, generation, stats, sources, warnings, notes, exit); warnings still go to stderr")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitBadInput
	}
	path := dbPath()
	// fail says msg on stderr (and, with --json, in the report) and
	// returns code; res is what was read, if anything.
	fail := func(code int, res *ingest.Result, msg string) int {
		fmt.Fprintf(io.err, "bot ingest: %s\n", msg)
		if *asJSON {
			r := ingest.NewReport(path, res, nil)
			r.Exit, r.Error = code, msg
			r.WriteJSON(io.out)
		}
		return code
	}
	if len(paths) == 0 {
		return fail(exitBadInput, nil, "give the files or folders to read, like `bot ingest ../shared/seeds`.")
	}
	res, err := ingest.Load(paths)
	if res != nil {
		for _, w := range res.Warnings {
			fmt.Fprintf(io.err, "warning: %s\n", w)
		}
		for _, n := range res.Notes {
			fmt.Fprintf(io.err, "note: %s\n", n)
		}
	}
	if err != nil {
		return fail(exitBadInput, res, err.Error()+"; the database was not changed.")
	}
	if res.Files == 0 {
		return fail(exitBadInput, res, "no document could be read; the database was not changed.")
	}
	k := knowledge.Compile(res.Corpus)
	k.Corpus = res.Corpus // kept, so a later sync can swap kep.yaml and compile again
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		return fail(exitFailure, res, err.Error())
	}
	defer db.Close()
	if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
		return fail(exitFailure, res, err.Error()+"; the database was not changed.")
	}
	if !*asJSON {
		ingest.WriteSummary(io.out, path, res, k)
		return exitOK
	}
	r := ingest.NewReport(path, res, k)
	r.Generation, _ = db.Knowledge().Generation(ctx)
	if err := r.WriteJSON(io.out); err != nil {
		return exitFailure
	}
	return exitOK
}
