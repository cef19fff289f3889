package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// MaxLineBytes caps one typed line. Longer lines are refused as a whole,
// without being parsed.
const MaxLineBytes = 16 << 10

// Asker turns typed text into an Answer. *question.Asker implements it.
type Asker interface {
	Ask(ctx context.Context, text string, from knowledge.Origin) *knowledge.Answer
}

// Chat is the terminal chat: a prompt, answers, `help`, `quit`, Ctrl-D.
// After `scan VERSION` it reads the lines that follow as the manifests, up
// to a blank line (see ManifestHint), and asks them as one message, as a
// chat platform gets them.
type Chat struct {
	In     io.Reader
	Out    io.Writer
	Asker  Asker
	Prompt string // default "k8s> "
	User   string
}

// Run reads lines until `quit`, `exit`, end of input (Ctrl-D) or ctx ends.
// It fails only when writing to Out fails.
func (c *Chat) Run(ctx context.Context) error {
	prompt := c.Prompt
	if prompt == "" {
		prompt = "k8s> "
	}
	fmt.Fprintln(c.Out, "kepbot: ask about Kubernetes releases and KEPs. Try `kep 3866`, `1.29`, `1.30 ga`, `help`; `quit` or Ctrl-D to leave.")
	lines := make(chan lineOrErr)
	go readLines(c.In, lines)
	for {
		if _, err := io.WriteString(c.Out, prompt); err != nil {
			return err
		}
		var l lineOrErr
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.Out)
			return nil
		case l = <-lines:
		}
		if l.err != nil {
			fmt.Fprintln(c.Out) // leave the prompt's line after Ctrl-D
			if errors.Is(l.err, io.EOF) {
				return nil
			}
			return l.err
		}
		text := strings.TrimSpace(l.text)
		switch {
		case l.tooLong:
			fmt.Fprintf(c.Out, "That line is over %d KB; ask one short question, like `kep 3866`.\n", MaxLineBytes>>10)
			continue
		case text == "":
			continue
		case isQuit(text):
			fmt.Fprintln(c.Out, "Bye.")
			return nil
		}
		eof := false
		if awaitsManifest(text) {
			fmt.Fprintln(c.Out, ManifestHint)
			p := readManifest(ctx, lines, text)
			if p.err != nil {
				fmt.Fprintln(c.Out)
				return nil
			}
			if p.tooLong {
				fmt.Fprintln(c.Out, tooLongNote())
			}
			text, eof = p.text, p.eof
		}
		a := c.Asker.Ask(ctx, text, knowledge.Origin{Platform: "console", Channel: "terminal", User: c.User})
		if err := Render(c.Out, a); err != nil {
			return err
		}
		if eof {
			return nil
		}
	}
}

func isQuit(s string) bool {
	switch strings.ToLower(s) {
	case "quit", "exit", "q", ":q", "bye":
		return true
	}
	return false
}

type lineOrErr struct {
	text    string
	tooLong bool
	err     error
}

// readLines sends each line of r, marking lines over MaxLineBytes instead of
// keeping them, and ends with the read error (io.EOF at the end).
func readLines(r io.Reader, out chan<- lineOrErr) {
	br := bufio.NewReaderSize(r, 4096)
	for {
		var sb strings.Builder
		tooLong := false
		for {
			chunk, isPrefix, err := br.ReadLine()
			if err != nil {
				if sb.Len() > 0 || tooLong {
					out <- lineOrErr{text: sb.String(), tooLong: tooLong}
				}
				out <- lineOrErr{err: err}
				return
			}
			if !tooLong {
				if sb.Len()+len(chunk) > MaxLineBytes {
					tooLong = true
					sb.Reset()
				} else {
					sb.Write(chunk)
				}
			}
			if !isPrefix {
				break
			}
		}
		out <- lineOrErr{text: sb.String(), tooLong: tooLong}
	}
}
