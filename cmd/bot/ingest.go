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
		},
		exits: []exit{
			{exitOK, "ingested; the summary names what was read"},
			{exitBadInput, "no path, or no document could be read (the database was not changed)"},
			{exitFailure, "the database could not be opened or written (it was not changed)"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			dbPath := dbFlag(fs, io.getenv)
			return func(ctx context.Context, paths []string) int { return runIngest(ctx, io, dbPath(), paths) }
		},
	}
}

// runIngest replaces the knowledge in the database at path with exactly
// what the given files and folders hold. Files it cannot read are named in
// warnings; when nothing can be read, the database is left as it was.
func runIngest(ctx context.Context, io stdio, path string, paths []string) int {
	if len(paths) == 0 {
		fmt.Fprintln(io.err, "bot ingest: give the files or folders to read, like `bot ingest ../shared/seeds`.")
		return exitBadInput
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
		fmt.Fprintf(io.err, "bot ingest: %v; the database was not changed.\n", err)
		return exitBadInput
	}
	if res.Files == 0 {
		fmt.Fprintln(io.err, "bot ingest: no document could be read; the database was not changed.")
		return exitBadInput
	}
	k := knowledge.Compile(res.Corpus)
	k.Corpus = res.Corpus // kept, so a later sync can swap kep.yaml and compile again
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		fmt.Fprintf(io.err, "bot ingest: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
		fmt.Fprintf(io.err, "bot ingest: %v; the database was not changed.\n", err)
		return exitFailure
	}
	ingest.WriteSummary(io.out, path, res, k)
	return exitOK
}
