package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
	"github.com/kepbot/kepbot/store"
)

// ingestCommand is `bot ingest`.
func ingestCommand() command {
	return command{
		name:        "ingest",
		summary:     "replace the knowledge with what files and folders hold",
		usage:       "[FLAGS] PATH...",
		interleaved: true,
		args:        completeArgs{files: true},
		about: "Reads kep.yaml files (or a kubernetes/enhancements checkout), release notes, release posts, the " +
			"deprecated API migration guide and API lifecycles, and replaces the database's knowledge with exactly " +
			"what they hold, in one transaction. Files it cannot read are named in warnings; when nothing can be read " +
			"the database is left as it was.",
		examples: []example{
			{"bot ingest ../shared/seeds", "the seed documents"},
			{"bot ingest --db ./data/kepbot.db ../shared/seeds ../shared/data/website ../shared/data/enhancements", "everything the shared sources hold"},
			{"bot ingest --json ../shared/data/lifecycle", "the summary as one JSON object, for scripts"},
		},
		exits: []exit{
			{exitOK, "ingested; the summary names what was read"},
			{exitBadInput, "no path, or no document could be read (the database was not changed)"},
			{exitFailure, "the database could not be opened or written (it was not changed)"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			dbPath := dbFlag(fs, io.getenv)
			asJSON := fs.Bool("json", false, "print the summary as one JSON object on stdout (database, files, generation, stats, sources, warnings, notes, exit); warnings still go to stderr")
			return func(ctx context.Context, paths []string) int { return runIngest(ctx, io, dbPath(), *asJSON, paths) }
		},
	}
}

// runIngest replaces the knowledge in the database at path with exactly
// what the given files and folders hold. Files it cannot read are named in
// warnings; when nothing can be read, the database is left as it was. With
// asJSON the summary, or why there is none, is one JSON object.
func runIngest(ctx context.Context, io stdio, path string, asJSON bool, paths []string) int {
	// fail says msg on stderr (and, with --json, in the report) and
	// returns code; res is what was read, if anything.
	fail := func(code int, res *ingest.Result, msg string) int {
		fmt.Fprintf(io.err, "bot ingest: %s\n", msg)
		if asJSON {
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
	if !asJSON {
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
