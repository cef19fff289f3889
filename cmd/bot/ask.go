package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
)

// askCommand is `bot ask`.
func askCommand() command {
	return command{
		name:        "ask",
		summary:     "answer one question, as the chat would",
		usage:       "[FLAGS] QUESTION...",
		interleaved: true,
		about:       "The question is the words after ask, read as in chat (the grammar first, then your own words). `help` lists the grammar.",
		examples: []example{
			{"bot ask kep 3866", "one KEP: stages, SIG, feature gates, sources"},
			{"bot ask --json what went GA in 1.30", "the answer as JSON, with how the question was read"},
			{"printf 'kep 3866\\n1.30 ga\\n' | bot ask --json -", "JSON Lines: one answer a line"},
		},
		exits: []exit{
			{exitOK, "answered (with --json -: every line read and answered; each answer carries its own error)"},
			{exitNotFound, "understood, and kepbot does not know it (no such KEP, release or gate)"},
			{exitBadInput, "no question, a question it cannot read, a bad flag, or a line over 16 KiB on stdin"},
			{exitFailure, "broken on kepbot's side: the database, or the answers could not be written"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			dbPath := dbFlag(fs, io.getenv)
			asJSON := fs.Bool("json", false, "print the answer as JSON; with - as the question, one JSON answer a line (JSON Lines) for each line of stdin")
			return func(ctx context.Context, words []string) int { return runAsk(ctx, io, dbPath(), *asJSON, words) }
		},
	}
}

// runAsk answers one question, or with `--json -` one question a line from
// stdin as JSON Lines. Exit: 0 answered, 1 not found, 2 bad input.
func runAsk(ctx context.Context, io stdio, dbPath string, asJSON bool, words []string) int {
	if len(words) == 0 {
		fmt.Fprintln(io.err, "bot ask: give a question, like `bot ask kep 3866` or `bot ask 1.29 ga`; `bot ask --json -` reads one question a line from stdin.")
		return exitBadInput
	}
	db, err := openKnowledge(ctx, dbPath, func(n string) { fmt.Fprintf(io.err, "bot ask: note: %s\n", n) })
	if err != nil {
		fmt.Fprintf(io.err, "bot ask: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	// Nothing changes the knowledge while ask runs, so an answer may be
	// kept for a question asked again (a file of questions often repeats).
	eng := engine.New(db.Knowledge(), engine.WithManifestReader(manifest.ChatReader))
	asker := console.NewTerminalAsker(eng, engine.NewCachedAnswerer(eng, 4096), io.err, "bot ask")
	from := knowledge.Origin{Platform: "cli", Channel: "cli"}

	if len(words) == 1 && words[0] == "-" {
		return askLines(ctx, asker, from, io, asJSON)
	}
	a := asker.Ask(ctx, strings.Join(words, " "), from)
	if err := console.WriteAnswer(io.out, a, asJSON); err != nil {
		fmt.Fprintf(io.err, "bot ask: %v\n", err)
		return exitFailure
	}
	return exitCode(a)
}

// askLines answers each line of stdin (console.AnswerLines). It returns
// 0 when every line was read and answered (answers carry their own
// errors), 2 on a line over console.MaxLineBytes or a failed read, 3 when
// the answers cannot be written (a broken pipe).
func askLines(ctx context.Context, asker console.Asker, from knowledge.Origin, std stdio, asJSON bool) int {
	err := console.AnswerLines(ctx, asker, from, std.in, std.out, asJSON)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(std.err, "bot ask: %v\n", err)
	var re *console.ReadError
	if errors.As(err, &re) {
		return exitBadInput
	}
	return exitFailure
}

// exitCode maps an answer to ask's exit status.
func exitCode(a *knowledge.Answer) int {
	if a.Error == nil {
		return exitOK
	}
	switch a.Error.Code {
	case knowledge.ENOTFOUND:
		return exitNotFound
	case knowledge.EBADINPUT:
		return exitBadInput
	}
	return exitFailure
}
