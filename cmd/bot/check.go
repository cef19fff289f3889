package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
)

// runCheck lists every disagreement between the sources in the database, by
// kind. It exits 0 whether or not it finds any: disagreements are facts
// about the documents, not failures.
func runCheck(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	asJSON := fs.Bool("json", false, "print the disagreements as JSON")
	if err := fs.Parse(args); err != nil {
		return exitBadInput
	}
	db, err := openKnowledge(ctx, dbPath(), func(n string) { fmt.Fprintf(io.err, "bot check: note: %s\n", n) })
	if err != nil {
		fmt.Fprintf(io.err, "bot check: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	kb := db.Knowledge()
	keps, err := kb.ListKEPs(ctx)
	if err != nil {
		fmt.Fprintf(io.err, "bot check: %v\n", err)
		return exitFailure
	}
	knowledge.WriteDisagreements(io.out, keps, dbPath(), *asJSON)
	return exitOK
}
