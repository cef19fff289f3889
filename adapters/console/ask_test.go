package console

import (
	"io"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// TestAnswerEncodings: an answer written again is the same line, kept once;
// the kept lines stay bounded.
func TestAnswerEncodings(t *testing.T) {
	e := answerEncodings{}
	a := &knowledge.Answer{Kind: knowledge.KindKEP, Title: "KEP-1: one"}
	var out strings.Builder
	for range 2 {
		if err := e.write(&out, a); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) != 3 || lines[0] != lines[1] || !strings.Contains(lines[0], `"KEP-1: one"`) || len(e) != 1 {
		t.Fatalf("%d kept, wrote %q", len(e), out.String())
	}
	for i := range maxKeptEncodings + 10 {
		if err := e.write(io.Discard, &knowledge.Answer{Kind: knowledge.KindKEP, Title: strings.Repeat("x", i%7)}); err != nil {
			t.Fatal(err)
		}
	}
	if len(e) > maxKeptEncodings {
		t.Errorf("%d encodings kept, want at most %d", len(e), maxKeptEncodings)
	}
}
