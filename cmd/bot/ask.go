package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/adapters/console"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// runAsk answers one question, or with `--json -` one question a line from
// stdin as JSON Lines. Exit: 0 answered, 1 not found, 2 bad input.
func runAsk(ctx context.Context, io stdio, args []string) int {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(io.err)
	dbPath := dbFlag(fs, io.getenv)
	asJSON := fs.Bool("json", false, "print the answer as JSON (`-` as the question reads JSON Lines from stdin)")
	words, err := parseInterleaved(fs, args)
	if err != nil {
		return exitBadInput
	}
	if len(words) == 0 {
		fmt.Fprintln(io.err, "bot ask: give a question, like `bot ask kep 3866` or `bot ask 1.29 ga`; `bot ask --json -` reads one question a line from stdin.")
		return exitBadInput
	}
	db, err := openKnowledge(ctx, dbPath(), func(n string) { fmt.Fprintf(io.err, "bot ask: note: %s\n", n) })
	if err != nil {
		fmt.Fprintf(io.err, "bot ask: %v\n", err)
		return exitFailure
	}
	defer db.Close()
	asker := newAsker(knowledge.NewEngine(db.Knowledge()))
	from := knowledge.Origin{Platform: "cli", Channel: "cli"}

	if len(words) == 1 && words[0] == "-" {
		return askLines(ctx, asker, from, io, *asJSON)
	}
	a := asker.Ask(ctx, strings.Join(words, " "), from)
	if err := printAnswer(io.out, a, *asJSON); err != nil {
		fmt.Fprintf(io.err, "bot ask: %v\n", err)
		return exitFailure
	}
	return exitCode(a)
}

// askLines answers each line of stdin. It returns 0 when every line was
// read and answered (answers carry their own errors), 3 on a broken pipe.
func askLines(ctx context.Context, asker *question.Asker, from knowledge.Origin, io stdio, asJSON bool) int {
	sc := bufio.NewScanner(io.in)
	sc.Buffer(make([]byte, 64<<10), console.MaxLineBytes)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := printAnswer(io.out, asker.Ask(ctx, line, from), asJSON); err != nil {
			fmt.Fprintf(io.err, "bot ask: %v\n", err)
			return exitFailure
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(io.err, "bot ask: reading questions: %v (one question a line, at most %d KB)\n", err, console.MaxLineBytes>>10)
		return exitBadInput
	}
	return exitOK
}

// newAsker reads questions as typed, knowing the names of eng's KEPs,
// and answers them with eng.
func newAsker(eng *knowledge.Engine) *question.Asker {
	return question.NewAsker(question.NewReader(eng), eng)
}

func printAnswer(w io.Writer, a *knowledge.Answer, asJSON bool) error {
	if !asJSON {
		return console.Render(w, a)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
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

// parseInterleaved parses flags that may stand before, between or after the
// words of a question, so `bot ask kep 3866 --json` works.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return words, nil
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
}
