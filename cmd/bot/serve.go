package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/knowledge"
)

// runServe runs the configured adapters. With none configured it is the
// terminal chat.
func runServe(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(io.err, "bot serve: unexpected %q; to ask one question use `bot ask %s`.\n", fs.Arg(0), fs.Arg(0))
		return exitBadInput
	}
	db, err := openKnowledge(ctx, dbPath())
	if err != nil {
		fmt.Fprintf(io.err, "bot: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	chat := &console.Chat{In: io.in, Out: io.out, Asker: knowledge.NewEngine(db.Knowledge()), User: io.getenv("USER")}
	if err := chat.Run(ctx); err != nil {
		fmt.Fprintf(io.err, "bot: %v\n", err)
		return exitFailure
	}
	return exitOK
}
