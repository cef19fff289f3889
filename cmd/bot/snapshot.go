package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

// snapshotCommand is `bot snapshot`.
func snapshotCommand() command {
	return command{
		name:    "snapshot",
		summary: "rebuild the built-in snapshot of facts from the shared sources",
		usage:   "[FLAGS] [SHARED]",
		args:    completeArgs{files: true},
		about: "Reads every shared source under SHARED (default ../shared) and writes the snapshot a new database " +
			"starts from: numbers, stages, dates, names, feature gates, no document text. go generate ./knowledge/snapshot runs it.",
		examples: []example{
			{"bot snapshot --out knowledge/snapshot/snapshot.json", "rebuild the snapshot in the repository (what go generate does)"},
			{"bot snapshot /srv/shared > /tmp/snapshot.json", "from another copy of the shared sources, to stdout"},
		},
		exits: []exit{
			{exitOK, "written"},
			{exitBadInput, "a shared source did not read cleanly (the snapshot was not written), or a bad flag"},
			{exitFailure, "the snapshot could not be built or written"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			out := fs.String("out", "-", "write the snapshot to `FILE` (- for stdout)")
			return func(_ context.Context, args []string) int { return runSnapshot(io, *out, args) }
		},
	}
}

// runSnapshot rebuilds the built-in snapshot from the shared sources.
func runSnapshot(io stdio, out string, args []string) int {
	if len(args) > 1 {
		fmt.Fprintf(io.err, "bot snapshot: unexpected %q; give one folder of shared sources.\n", args[1])
		return exitBadInput
	}
	root := "../shared"
	if len(args) > 0 {
		root = args[0]
	}
	res, err := ingest.Load(sources.Shared(root))
	if err != nil {
		fmt.Fprintf(io.err, "bot snapshot: %v\n", err)
		return exitBadInput
	}
	if len(res.Warnings) > 0 {
		for _, w := range res.Warnings {
			fmt.Fprintf(io.err, "warning: %s\n", w)
		}
		fmt.Fprintln(io.err, "bot snapshot: every shared source must read cleanly; the snapshot was not written.")
		return exitBadInput
	}
	b, err := snapshot.Build(res.Corpus)
	if err != nil {
		fmt.Fprintf(io.err, "bot snapshot: %v\n", err)
		return exitFailure
	}
	if out == "-" {
		_, err = io.out.Write(b)
	} else {
		err = os.WriteFile(out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(io.err, "bot snapshot: %v\n", err)
		return exitFailure
	}
	return exitOK
}
