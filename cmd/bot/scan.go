package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest/scan"
)

// scanCommand is `bot scan`. Its exit codes are data here, in one place:
// help prints them and the README's table says the same.
func scanCommand() command {
	return command{
		name:        "scan",
		summary:     "which manifests use APIs removed or deprecated by a release",
		usage:       "--to VERSION [FLAGS] PATH...",
		interleaved: true,
		args:        completeArgs{files: true},
		about: "Reads files, folders (recursively: .yaml, .yml, .json) and - (stdin): multi-document YAML, JSON, " +
			"kind: List, helm template output. Only apiVersion, kind, name and namespace are read, never a value. " +
			"A pasted kubectl version output among the inputs sets --from.",
		examples: []example{
			{"bot scan --to 1.36 deploy/ charts/rendered.yaml", "files and folders"},
			{"helm template my-chart | bot scan --to 1.36 -", "- reads stdin; \"# Source:\" names each template"},
			{"bot scan --from 1.32 --to 1.36 --json manifests/", "one JSON object, for CI"},
		},
		exits: []exit{
			{scan.ExitClean, "nothing removed or deprecated (objects not built in do not count)"},
			{scan.ExitDeprecated, "only deprecations"},
			{scan.ExitRemoved, "something is removed (or not served yet) in --to"},
			{exitBadInput, "bad arguments: no --to, a release kepbot does not know, --from not older than --to, nothing readable"},
			{exitFailure, "broken on kepbot's side: the database cannot be opened or holds no API lifecycle"},
		},
		flags: func(fs *flag.FlagSet, io stdio) runFunc {
			var f scanFlags
			f.db = dbFlag(fs, io.getenv)
			fs.StringVar(&f.to, "to", "", "the release you go to, e.g. 1.36 (`VERSION`, required)")
			fs.StringVar(&f.from, "from", "", "the release you run now (`VERSION`); a kubectl version output among the inputs gives it otherwise")
			fs.BoolVar(&f.json, "json", false, "print one JSON object: from, to, objects, findings, unknown, errors")
			return func(ctx context.Context, paths []string) int { return runScan(ctx, io, f, paths) }
		},
	}
}

// scanFlags are bot scan's flags.
type scanFlags struct {
	db       func() string
	to, from string
	json     bool
}

// runScan reads manifests (files, folders read recursively for .yaml,
// .yml and .json, - for stdin) and says which objects use API versions
// removed or deprecated by --to; scanCommand lists its exit codes.
func runScan(ctx context.Context, io stdio, f scanFlags, paths []string) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(io.err, "bot scan: "+format+"\n", a...)
		return code
	}
	if f.to == "" {
		return fail(exitBadInput, "give --to VERSION, the release you go to, e.g. bot scan --to 1.36 manifests/")
	}
	to, err := knowledge.ParseVersion(f.to)
	if err != nil {
		return fail(exitBadInput, "--to %q is not a release like 1.36", f.to)
	}
	var from knowledge.Version
	if f.from != "" {
		if from, err = knowledge.ParseVersion(f.from); err != nil {
			return fail(exitBadInput, "--from %q is not a release like 1.32", f.from)
		}
	}
	if len(paths) == 0 {
		return fail(exitBadInput, "give the manifests to scan: files, folders (read recursively for .yaml, .yml and .json), or - for stdin")
	}
	db, err := openKnowledge(ctx, f.db(), func(n string) { fmt.Fprintf(io.err, "bot scan: note: %s\n", n) })
	if err != nil {
		return fail(exitFailure, "%v", err)
	}
	defer db.Close()
	code, err := scan.Run(ctx, db.Knowledge(), scan.Request{From: from, To: to, Paths: paths, Stdin: io.in, JSON: f.json,
		Problem: func(line string) { fmt.Fprintf(io.err, "bot scan: %s\n", line) }}, io.out)
	var bad *scan.InputError
	switch {
	case errors.Is(err, scan.ErrNoLifecycle):
		return fail(exitFailure, "the database at %s holds no API lifecycle; run bot ingest with ../shared/data/api-lifecycle (or bot sync), or use --db with a new path to start from the built-in snapshot", f.db())
	case errors.As(err, &bad):
		return fail(exitBadInput, "%s", bad.Message)
	case err != nil:
		return fail(exitFailure, "%v", err)
	}
	return code
}
