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
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/manifest"
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
	// Nothing changes the knowledge while ask runs, so an answer may be
	// kept for a question asked again (a file of questions often repeats).
	eng := engine.New(db.Knowledge(), engine.WithManifestReader(manifest.ChatReader))
	asker := newAsker(eng, engine.NewCachedAnswerer(eng, 4096), io.err, "bot ask")
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

// askLines answers each line of stdin. Answers go out through a buffer
// flushed whenever stdin has nothing more waiting: a person typing sees
// each answer at once, a file of questions is answered without a write for
// every line. It returns 0 when every line was read and answered (answers
// carry their own errors), 2 on a line over console.MaxLineBytes, 3 when
// the answers cannot be written (a broken pipe).
func askLines(ctx context.Context, asker *terminalAsker, from knowledge.Origin, std stdio, asJSON bool) int {
	in := bufio.NewReaderSize(std.in, console.MaxLineBytes)
	out := bufio.NewWriterSize(std.out, 64<<10)
	enc := answerEncodings{}
	for {
		line, rerr := in.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull {
			_ = out.Flush()
			fmt.Fprintf(std.err, "bot ask: reading questions: a line longer than %d KB (one question a line)\n", console.MaxLineBytes>>10)
			return exitBadInput
		}
		if text := strings.TrimRight(string(line), "\r\n"); strings.TrimSpace(text) != "" {
			a := asker.Ask(ctx, text, from)
			var err error
			if asJSON {
				err = enc.write(out, a)
			} else {
				err = printAnswer(out, a, false)
			}
			if err != nil {
				fmt.Fprintf(std.err, "bot ask: %v\n", err)
				return exitFailure
			}
		}
		if rerr == nil && in.Buffered() > 0 {
			continue
		}
		if err := out.Flush(); err != nil {
			fmt.Fprintf(std.err, "bot ask: %v\n", err)
			return exitFailure
		}
		if rerr == io.EOF {
			return exitOK
		}
		if rerr != nil {
			fmt.Fprintf(std.err, "bot ask: reading questions: %v\n", rerr)
			return exitBadInput
		}
	}
}

// answerEncodings keeps the JSON line of each answer written, by the
// answer: the answer cache hands out one *Answer per question, never
// changed, so a question asked again is not encoded again. At most
// maxKeptEncodings are kept; then it starts over.
type answerEncodings map[*knowledge.Answer][]byte

const maxKeptEncodings = 1024

// write writes a as one JSON line.
func (e answerEncodings) write(w io.Writer, a *knowledge.Answer) error {
	line, ok := e[a]
	if !ok {
		b, err := json.Marshal(a)
		if err != nil {
			return err
		}
		line = append(b, '\n')
		if len(e) >= maxKeptEncodings {
			clear(e)
		}
		e[a] = line
	}
	_, err := w.Write(line)
	return err
}

// newAsker reads questions as typed, knowing the names of eng's KEPs,
// and answers them with ans, a cache in front of eng, or eng when nil.
func newAsker(eng *engine.Engine, ans knowledge.Answerer, errOut io.Writer, name string) *terminalAsker {
	if ans == nil {
		ans = eng
	}
	return &terminalAsker{asker: question.NewAsker(question.NewReader(eng), ans), errOut: errOut, name: name}
}

// terminalAsker is the Asker of the terminal and of bot ask. Whoever types
// there runs the bot, so an answer that went wrong on kepbot's side (the
// chat shows only an apology) is explained on stderr too: a database an
// unfinished build wrote, a disk that failed.
type terminalAsker struct {
	asker  *question.Asker
	errOut io.Writer
	name   string // "bot" or "bot ask"
}

func (t *terminalAsker) Ask(ctx context.Context, text string, from knowledge.Origin) *knowledge.Answer {
	a, err := t.asker.AskErr(ctx, text, from)
	if knowledge.ErrorCode(err) == knowledge.EINTERNAL && ctx.Err() == nil { // a miss or a bad question says itself

		fmt.Fprintf(t.errOut, "%s: error: %v (bot check reads the whole database; bot ingest or bot sync writes it again)\n", t.name, err)
	}
	return a
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
