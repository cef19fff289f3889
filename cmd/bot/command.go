package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one of bot's commands as help, completion and dispatch all
// read it, so that what `bot help CMD` says, what a shell completes and
// what runs cannot drift apart. Each command's file builds its own.
type command struct {
	name    string
	summary string // one line for the list in `bot --help`
	// usage is what follows "bot NAME" on the usage line: the required
	// flags and the arguments ("--to VERSION [FLAGS] PATH..."). Every
	// --flag it names is one of the command's (a test checks it).
	usage string
	// about is a paragraph after the usage line; optional.
	about    string
	examples []example
	exits    []exit // every exit code the command can return
	// args is what the command's arguments complete to in a shell.
	args completeArgs
	// interleaved commands take flags between and after their arguments
	// (bot ask kep 3866 --json); the others stop reading flags at the
	// first argument.
	interleaved bool
	// flags defines the command's flags on fs and returns what runs with
	// the arguments left after them. It must do nothing else: help and
	// completion call it to read the flags.
	flags func(fs *flag.FlagSet, io stdio) runFunc
}

// runFunc runs a command with its flags parsed and returns its exit code.
type runFunc func(ctx context.Context, args []string) int

// example is one command line of a command's help, and what it does.
type example struct {
	line, note string
}

// exit is one exit code of a command and what it means.
type exit struct {
	code    int
	meaning string
}

// completeArgs says what a command's arguments are, for completion.
type completeArgs struct {
	files    bool     // files and folders
	words    []string // fixed words (digest: preview)
	commands bool     // the names of the commands (help)
}

// flagSet returns the command's flags, defined on a new FlagSet that
// prints nothing itself (run and help say what is wrong), and what runs.
func (c command) flagSet(sio stdio) (*flag.FlagSet, runFunc) {
	fs := flag.NewFlagSet("bot "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var run runFunc
	if c.flags != nil {
		run = c.flags(fs, sio)
	}
	return fs, run
}

// run parses args and runs the command. -h and --help print its help and
// exit 0; a flag it does not know, or a bad value, exits 2 with its usage.
func (c command) run(ctx context.Context, sio stdio, args []string) int {
	fs, run := c.flagSet(sio)
	rest, err := parseFlags(fs, args, c.interleaved)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.writeHelp(sio.out, fs)
		return exitOK
	case err != nil:
		fmt.Fprintf(sio.err, "bot %s: %s\n\n", c.name, flagError(err))
		c.writeUsage(sio.err, fs)
		fmt.Fprintf(sio.err, "\nRun `bot help %s` for examples and exit codes.\n", c.name)
		return exitBadInput
	}
	return run(ctx, rest)
}

// parseFlags parses args on fs and returns the arguments left. With
// interleaved, flags may also stand between and after the arguments, so
// `bot ask kep 3866 --json` works; after "--" everything is an argument.
func parseFlags(fs *flag.FlagSet, args []string, interleaved bool) ([]string, error) {
	if err := fs.Parse(args); err != nil || !interleaved {
		return fs.Args(), err
	}
	var words []string
	for {
		rest := fs.Args()
		if len(rest) == 0 {
			return words, nil
		}
		if len(args)-len(rest) > 0 && args[len(args)-len(rest)-1] == "--" {
			return append(words, rest...), nil
		}
		words = append(words, rest[0])
		args = rest[1:]
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
	}
}

// flagError rewrites the flag package's errors in the words of a long
// flag (--json, not -json), as help shows them.
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimLeft(name, "-")
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "flag --" + strings.TrimLeft(name, "-") + " needs a value"
	}
	return strings.Replace(msg, "for flag -", "for flag --", 1)
}

// commands is the table every part of bot reads: dispatch, help and
// completion. Each entry is built anew, so that no flag's value outlives
// one Main (tests call Main many times).
func commands() []command {
	return []command{
		serveCommand(false),
		askCommand(),
		scanCommand(),
		ingestCommand(),
		syncCommand{}.command(),
		digestCommand(),
		checkCommand(),
		snapshotCommand(),
		versionCommand(),
		completionCommand(),
		helpCommand(),
	}
}

// lookup returns the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// unknownCommand says name is no command, offers the closest one and
// lists them all, and returns 2.
func unknownCommand(w io.Writer, name string) int {
	fmt.Fprintf(w, "bot: unknown command %q", name)
	if near := closestCommand(name); near != "" {
		fmt.Fprintf(w, "; did you mean %q?", near)
	}
	fmt.Fprint(w, "\n\n")
	writeMainHelp(w)
	return exitBadInput
}

// closestCommand is the command name within two edits of name, or that
// name starts with (serv, ver), or "".
func closestCommand(name string) string {
	best, bestD := "", 3
	for _, c := range commands() {
		if len(name) >= 3 && strings.HasPrefix(c.name, name) {
			return c.name
		}
		if d := editDistance(name, c.name); d < bestD {
			best, bestD = c.name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of two short words.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
