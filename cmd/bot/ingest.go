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
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return exitBadInput
	}
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
	path := dbPath()
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
