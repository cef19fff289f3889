package console

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// Knowledge is what a terminal asker reads names from and answers with:
// *engine.Engine. The reader also asks it for API kinds and the gates
// notices name when it has them (question.APISource,
// question.NoticeGateSource).
type Knowledge interface {
	question.KEPSource
	knowledge.Answerer
}

// NewTerminalAsker reads questions as typed, knowing the names of eng's
// KEPs, and answers them with ans, a cache in front of eng, or eng when
// nil. name ("bot" or "bot ask") starts what it says on errOut.
func NewTerminalAsker(eng Knowledge, ans knowledge.Answerer, errOut io.Writer, name string) *TerminalAsker {
	if ans == nil {
		ans = eng
	}
	return &TerminalAsker{asker: question.NewAsker(question.NewReader(eng), ans), errOut: errOut, name: name}
}

// TerminalAsker is the Asker of the terminal and of bot ask. Whoever types
// there runs the bot, so an answer that went wrong on kepbot's side (the
// chat shows only an apology) is explained on stderr too: a database an
// unfinished build wrote, a disk that failed.
type TerminalAsker struct {
	asker  *question.Asker
	errOut io.Writer
	name   string // "bot" or "bot ask"
}

func (t *TerminalAsker) Ask(ctx context.Context, text string, from knowledge.Origin) *knowledge.Answer {
	a, err := t.asker.AskErr(ctx, text, from)
	if knowledge.ErrorCode(err) == knowledge.EINTERNAL && ctx.Err() == nil { // a miss or a bad question says itself
		fmt.Fprintf(t.errOut, "%s: error: %v (bot check reads the whole database; bot ingest or bot sync writes it again)\n", t.name, err)
	}
	return a
}

// WriteAnswer writes a as text (Render) or as one JSON line.
func WriteAnswer(w io.Writer, a *knowledge.Answer, asJSON bool) error {
	if !asJSON {
		return Render(w, a)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// ReadError is AnswerLines' error when the questions cannot be read: a
// line over MaxLineBytes, or the reading failed.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return "reading questions: " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// AnswerLines answers each line of in, as text or as JSON Lines. Answers
// go out through a buffer flushed whenever in has nothing more waiting:
// a person typing sees each answer at once, a file of questions is
// answered without a write for every line. It returns nil when every line
// was read and answered (answers carry their own errors), a *ReadError
// when a line is over MaxLineBytes or reading fails, another error when
// the answers cannot be written (a broken pipe).
func AnswerLines(ctx context.Context, asker Asker, from knowledge.Origin, in io.Reader, w io.Writer, asJSON bool) error {
	r := bufio.NewReaderSize(in, MaxLineBytes)
	out := bufio.NewWriterSize(w, 64<<10)
	enc := answerEncodings{}
	for {
		line, rerr := r.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull {
			_ = out.Flush()
			return &ReadError{Err: fmt.Errorf("a line longer than %d KB (one question a line)", MaxLineBytes>>10)}
		}
		if text := strings.TrimRight(string(line), "\r\n"); strings.TrimSpace(text) != "" {
			a := asker.Ask(ctx, text, from)
			var err error
			if asJSON {
				err = enc.write(out, a)
			} else {
				err = WriteAnswer(out, a, false)
			}
			if err != nil {
				return err
			}
		}
		if rerr == nil && r.Buffered() > 0 {
			continue
		}
		if err := out.Flush(); err != nil {
			return err
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return &ReadError{Err: rerr}
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
