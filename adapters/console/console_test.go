package console

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// echoAsker answers every question with a help answer naming it, and
// records what it was asked.
type echoAsker struct{ asked []string }

func (e *echoAsker) Ask(_ context.Context, text string, from knowledge.Origin) *knowledge.Answer {
	e.asked = append(e.asked, from.Platform+":"+text)
	return &knowledge.Answer{Kind: knowledge.KindHelp, Title: "asked", Text: "you asked " + text}
}

func chat(t *testing.T, input string) (string, []string) {
	t.Helper()
	var out bytes.Buffer
	a := &echoAsker{}
	c := &Chat{In: strings.NewReader(input), Out: &out, Asker: a}
	if err := c.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String(), a.asked
}

func TestChatAnswersUntilQuit(t *testing.T) {
	out, asked := chat(t, "kep 3866\n\n   \n1.29 ga\nquit\nnever asked\n")
	if want := []string{"console:kep 3866", "console:1.29 ga"}; strings.Join(asked, "|") != strings.Join(want, "|") {
		t.Errorf("asked %q, want %q", asked, want)
	}
	if !strings.Contains(out, "you asked kep 3866") || !strings.Contains(out, "Bye.") {
		t.Errorf("output:\n%s", out)
	}
	if n := strings.Count(out, "k8s> "); n != 5 {
		t.Errorf("%d prompts, want 5 (one per line read):\n%s", n, out)
	}
}

func TestChatEndsAtEndOfInput(t *testing.T) {
	out, asked := chat(t, "releases") // no newline, then Ctrl-D
	if len(asked) != 1 || asked[0] != "console:releases" {
		t.Errorf("asked %q", asked)
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("output does not end on a new line after Ctrl-D: %q", out)
	}
}

func TestChatRefusesHugeLines(t *testing.T) {
	huge := strings.Repeat("x", MaxLineBytes+10)
	out, asked := chat(t, huge+"\nkep 1\n")
	if len(asked) != 1 || asked[0] != "console:kep 1" {
		t.Errorf("asked %q; the huge line must not reach the engine", asked)
	}
	if !strings.Contains(out, "over 16 KB") {
		t.Errorf("no clear message for the huge line:\n%s", out[:min(len(out), 400)])
	}
}

func TestChatStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, w := io.Pipe()
	defer w.Close()
	c := &Chat{In: r, Out: &bytes.Buffer{}, Asker: &echoAsker{}}
	if err := c.Run(ctx); err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
}
