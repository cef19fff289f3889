// Command bot is kepbot: it answers questions about Kubernetes releases and
// KEPs on the terminal, in Slack and in Discord, from knowledge kept in bbolt.
//
// This file only wires: the command line, the database, the engine, the
// adapters. Each command's flags, help and exit codes are in its own file
// (see command.go).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
)

func main() {
	ctx, stop := interruptContext(context.Background())
	fd := os.Stdin.Fd()
	code := Main(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, getenv: os.Getenv,
		terminal: isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)})
	stop()
	os.Exit(code)
}

// Exit codes shared by the commands; each command's help lists its own.
const (
	exitOK       = 0
	exitNotFound = 1 // ask: the question was understood, the answer is "I don't know"
	exitBadInput = 2 // bad flags, bad question, bad files, bad config
	exitFailure  = 3 // something broke on our side: database, disk
)

type stdio struct {
	in     io.Reader
	out    io.Writer
	err    io.Writer
	getenv func(string) string
	// terminal: stdin is a terminal, where someone can chat.
	terminal bool
}

// Main runs one command and returns its exit code. With no command (or
// only flags) it is `bot serve` as a person at a terminal means it: the
// chat when no platform is configured, whatever stdin is.
func Main(ctx context.Context, args []string, sio stdio) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 {
			switch args[0] {
			case "-h", "-help", "--help":
				writeMainHelp(sio.out)
				return exitOK
			case "-version", "--version":
				return versionCommand().run(ctx, sio, args[1:])
			}
		}
		c := serveCommand(true)
		fs, run := c.flagSet(sio)
		rest, err := parseFlags(fs, args, false)
		if err != nil {
			fmt.Fprintf(sio.err, "bot: %s\n\n", flagError(err))
			writeMainHelp(sio.err)
			return exitBadInput
		}
		if len(rest) > 0 {
			if _, ok := lookup(rest[0]); ok { // bot --db x ask …
				fmt.Fprintf(sio.err, "bot: give the command first, then its flags: bot %s %s …\n", rest[0], strings.Join(args[:len(args)-len(rest)], " "))
				return exitBadInput
			}
		}
		return run(ctx, rest)
	}
	c, ok := lookup(args[0])
	if !ok {
		return unknownCommand(sio.err, args[0])
	}
	return c.run(ctx, sio, args[1:])
}
