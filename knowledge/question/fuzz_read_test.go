package question

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// FuzzRead checks that no text panics the reader or takes long, that every
// failure is a bad-input *knowledge.Error with a message and suggestions
// the grammar reads, that nothing read from free text holds < or @ in its
// words, and that every question read is written (Canonical) as the
// grammar reads back to the same question.
func FuzzRead(f *testing.F) {
	for _, p := range phrasings {
		f.Add(p.text)
	}
	for _, s := range []string{"", "\x00", strings.Repeat("is sidecar ", 90), strings.Repeat("稳", 999),
		"<@U1><!channel>@everyone", "kep kep kep 1 2 3", "1.1.1.1 1.2 1.3", "’s’s’s", "::::", "#1#2#3"} {
		f.Add(s)
	}
	r := NewReader(StaticKEPs(syntheticKEPs()))
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		q, err := r.Read(context.Background(), s)
		if d := time.Since(start); d > 200*time.Millisecond {
			t.Fatalf("Read(%q) took %v", s, d)
		}
		if err != nil {
			e, ok := err.(*knowledge.Error)
			if !ok || e.Code != knowledge.EBADINPUT || e.Message == "" {
				t.Fatalf("Read(%q) error %#v, want a bad-input *knowledge.Error", s, err)
			}
			for _, sug := range e.Suggestions {
				if _, err := Parse(sug); err != nil {
					t.Fatalf("Read(%q) suggests %q, which fails: %v", s, sug, err)
				}
			}
			return
		}
		if q.Free && strings.ContainsAny(q.Words, "<@>") {
			t.Fatalf("Read(%q) = %+v: words hold a mention", s, q)
		}
		canon, err := Parse(q.Canonical())
		if err != nil {
			t.Fatalf("Read(%q) = %+v, but its canonical form %q fails: %v", s, q, q.Canonical(), err)
		}
		q.Free, q.Text, canon.Text = false, "", ""
		if len(q.Filters) == 0 {
			q.Filters = nil
		}
		if diff := cmp.Diff(q, canon); diff != "" {
			t.Fatalf("canonical %q of %q reads differently (-read +canonical):\n%s", q.Canonical(), s, diff)
		}
	})
}
