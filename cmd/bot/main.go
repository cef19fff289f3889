// Command bot is kepbot: it answers questions about Kubernetes releases and
// KEPs on the terminal, in Slack and in Discord, from knowledge kept in bbolt.
//
// This file only wires: flags, the database, the engine, the adapters.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
)

// Set with -ldflags "-X main.version=... -X main.commit=...".
var (
	version = "dev"
	commit  = "unknown"
)

func main() {
	ctx, stop := interruptContext(context.Background())
	code := Main(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(code)
}

// Exit codes shared by the subcommands.
const (
	exitOK       = 0
	exitNotFound = 1 // ask: the question was understood, the answer is "I don't know"
	exitBadInput = 2 // bad flags, bad question, bad files
	exitFailure  = 3 // something broke on our side: database, disk
)

type stdio struct {
	in     io.Reader
	out    io.Writer
	err    io.Writer
	getenv func(string) string
}

type command struct {
	name  string
	usage string
	run   func(ctx context.Context, io stdio, args []string) int
}

func commands() []command {
	return []command{
		{"serve", "serve [--config FILE] [--db PATH]   run the configured adapters; with none, chat on this terminal", runServe},
		{"ask", "ask [--db PATH] [--json] QUESTION...   answer one question (--json - reads one a line from stdin)", runAsk},
		{"scan", "scan --to VERSION [--from VERSION] [--json] [--db PATH] PATH...   which manifests use API versions removed or deprecated by VERSION (exit 0 none, 4 deprecated, 5 removed)", runScan},
		{"ingest", "ingest [--db PATH] PATH...   replace the knowledge with what these files and folders hold", runIngest},
		{"sync", "sync [--db PATH] [--url URL] [--from DIR|FILE] [--timeout DURATION]   refresh every source (kep.yaml, release notes and pages, lifecycle, patches, k8s.io/api), or --only some", runSync},
		{"digest", "digest preview --channel ID [--platform P] [--db PATH] [--json]   print the digest a channel would get now, without sending it", runDigest},
		{"check", "check [--db PATH] [--json]   list where the sources disagree (kep.yaml is trusted)", runCheck},
		{"snapshot", "snapshot [--out FILE] [SHARED]   rebuild the built-in snapshot from the shared sources", runSnapshot},
		{"version", "version   print the version", runVersion},
	}
}

// Main runs one subcommand and returns its exit code. With no subcommand it
// serves.
func Main(ctx context.Context, args []string, io stdio) int {
	name := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "--help" || name == "-h" {
		usage(io.out)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, io, args)
		}
	}
	fmt.Fprintf(io.err, "bot: unknown command %q\n\n", name)
	usage(io.err)
	return exitBadInput
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bot [COMMAND] [FLAGS]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  bot %s\n", c.usage)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The database is --db, else $BOT_DB, else ./data/kepbot.db.")
}

func runVersion(_ context.Context, io stdio, _ []string) int {
	fmt.Fprintf(io.out, "kepbot %s (%s)\n", version, commit)
	return exitOK
}
