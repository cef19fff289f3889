package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
)

// checkCommand is `bot check`.
func checkCommand() command {
	return command{
		name:    "check",
		summary: "list where the sources disagree (kep.yaml is trusted)",
		usage:   "[FLAGS]",
		examples: []example{
			{"bot check", "every disagreement, by kind"},
			{"bot check --json | jq -r '.[].kind' | sort | uniq -c", "how many of each kind"},
		},
		exits: []exit{
			{exitOK, "listed, whether or not there are disagreements: they are facts about the documents, not failures"},
			{exitBadInput, "a bad flag or argument"},
			{exitFailure, "the database could not be opened or read"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			dbPath := dbFlag(fs, io.getenv)
			asJSON := fs.Bool("json", false, "print the disagreements as JSON")
			return func(ctx context.Context, args []string) int {
				if len(args) > 0 {
					fmt.Fprintf(io.err, "bot check: unexpected %q; bot check takes only flags.\n", args[0])
					return exitBadInput
				}
				return runCheck(ctx, io, dbPath(), *asJSON)
			}
		},
	}
}

// runCheck lists every disagreement between the sources in the database
// at path, by kind. It exits 0 whether or not it finds any: disagreements
// are facts about the documents, not failures.
func runCheck(ctx context.Context, io stdio, path string, asJSON bool) int {
	db, err := openKnowledge(ctx, path, func(n string) { fmt.Fprintf(io.err, "bot check: note: %s\n", n) })
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
	knowledge.WriteDisagreements(io.out, keps, path, asJSON)
	return exitOK
}
