package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpWidth is where help text wraps.
const helpWidth = 80

// helpCommand is `bot help [COMMAND]`.
func helpCommand() command {
	return command{
		name:    "help",
		summary: "the commands, or one command's flags, examples and exit codes",
		usage:   "[COMMAND]",
		examples: []example{
			{"bot help", "every command, one line each (as bot --help)"},
			{"bot help scan", "scan's usage, flags, examples and exit codes (as bot scan --help)"},
		},
		exits: []exit{{exitOK, "help printed"}, {exitBadInput, "no such command"}},
		args:  completeArgs{commands: true},
		flags: func(_ *flag.FlagSet, sio stdio) runFunc {
			return func(_ context.Context, args []string) int {
				if len(args) == 0 {
					writeMainHelp(sio.out)
					return exitOK
				}
				c, ok := lookup(args[0])
				if !ok {
					return unknownCommand(sio.err, args[0])
				}
				fs, _ := c.flagSet(sio)
				c.writeHelp(sio.out, fs)
				return exitOK
			}
		},
	}
}

// writeMainHelp writes `bot --help`: what bot is, every command with its
// summary, and where to read more.
func writeMainHelp(w io.Writer) {
	fmt.Fprintln(w, "bot is kepbot: it answers questions about Kubernetes releases and KEPs on this")
	fmt.Fprintln(w, "terminal, in Slack and in Discord, and scans manifests for what breaks on the")
	fmt.Fprintln(w, "way to a release.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  bot COMMAND [FLAGS] [ARGS]")
	fmt.Fprintln(w, "  bot [FLAGS]        with no command: the terminal chat, or bot serve when Slack")
	fmt.Fprintln(w, "                     or Discord is configured (the flags are serve's)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	cs := commands()
	width := 0
	for _, c := range cs {
		width = max(width, len(c.name))
	}
	for _, c := range cs {
		writeWrapped(w, "  "+pad(c.name, width)+"  ", c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Flags:")
	fmt.Fprintln(w, "  -h, --help   this help")
	fmt.Fprintln(w, "  --version    the version and the commit it was built from (as bot version)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The database is --db PATH, else $BOT_DB, else "+defaultDB+".")
	fmt.Fprintln(w, "Run `bot help COMMAND` or `bot COMMAND --help` for a command's flags, examples")
	fmt.Fprintln(w, "and exit codes.")
}

// writeHelp writes `bot help CMD`: the summary, the usage line, the
// flags, the examples and the exit codes.
func (c command) writeHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "bot %s: %s\n\n", c.name, c.summary)
	c.writeUsage(w, fs)
	if c.about != "" {
		fmt.Fprintln(w)
		writeWrapped(w, "", c.about)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Examples:")
	for _, e := range c.examples {
		fmt.Fprintf(w, "  %s\n", e.line)
		if e.note != "" {
			writeWrapped(w, "      ", e.note)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit codes:")
	for _, x := range c.exits {
		writeWrapped(w, fmt.Sprintf("  %d  ", x.code), x.meaning)
	}
}

// writeUsage writes the usage line and the flags: what a mistyped flag
// shows, on stderr, and the start of the command's help.
func (c command) writeUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintf(w, "  %s\n", strings.TrimSpace("bot "+c.name+" "+c.usage))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Flags:")
	type row struct{ left, text string }
	var rows []row
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		left := "--" + f.Name
		if arg != "" {
			left += " " + arg
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "0s" && !strings.Contains(text, "default") {
			text += fmt.Sprintf(" (default %s)", d)
		}
		rows = append(rows, row{left, text})
	})
	rows = append(rows, row{"-h, --help", "this help"})
	width := 0
	for _, r := range rows {
		width = max(width, len(r.left))
	}
	width = min(width, 24)
	for _, r := range rows {
		if len(r.left) > width {
			fmt.Fprintf(w, "  %s\n", r.left)
			writeWrapped(w, "  "+pad("", width)+"  ", r.text)
			continue
		}
		writeWrapped(w, "  "+pad(r.left, width)+"  ", r.text)
	}
}

// writeWrapped writes text after lead, wrapped at helpWidth with every
// further line indented as far as lead.
func writeWrapped(w io.Writer, lead, text string) {
	indent := strings.Repeat(" ", len(lead))
	line := lead
	empty := true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > helpWidth {
			fmt.Fprintln(w, line)
			line, empty = indent, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	fmt.Fprintln(w, line)
}

func pad(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return s + strings.Repeat(" ", width-len(s))
}
