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

// runSnapshot rebuilds the built-in snapshot from the shared sources.
func runSnapshot(_ context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	fs.SetOutput(io.err)
	out := fs.String("out", "-", "write the snapshot to `FILE` (- for stdout)")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	root := "../shared"
	if fs.NArg() > 0 {
		root = fs.Arg(0)
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
	if *out == "-" {
		_, err = io.out.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(io.err, "bot snapshot: %v\n", err)
		return exitFailure
	}
	return exitOK
}
