package question

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// FuzzParse checks that no text panics the parser, that every
// failure is a bad-input *knowledge.Error with a message, and that every question read
// parses again from its own Text and from its canonical form to the same
// question.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"kep 4639", "KEP-4639", "4639", "1.29", "v1.29.0", "1.29 ga", "ga 1.29", "1.29稳定",
		"1.29 deprecations", "removals 1.31", "releases", "help subscribe", "gate NFTablesProxyMode",
		"search image volume", "diff 1.29 1.32", "upgrade 1.32 1.29", "sig network 1.29",
		"subscribe deprecations sig:network from:1.29 schedule:weekly format:full",
		"unsubscribe deprecations", "subscriptions", "ｋｅｐ　４６３９", "kep “4639”", "kepp 4639",
		"1.29 gaa", "", "\x00", "1.29 general availability", "sig: x", "diff 1.29..1.32",
		"SIG API Machinery 1.31", "sig network 1.29 1.30", "sig 1.29 network", "upgrade v1.29 → v1.32", "search 访问模式",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			e, ok := err.(*knowledge.Error)
			if !ok || e.Code != knowledge.EBADINPUT || e.Message == "" {
				t.Fatalf("Parse(%q) error %#v, want a bad-input *Error", s, err)
			}
			for _, sug := range e.Suggestions {
				if _, err := Parse(sug); err != nil {
					t.Fatalf("Parse(%q) suggests %q, which fails: %v", s, sug, err)
				}
			}
			return
		}
		again, err := Parse(q.Text)
		if err != nil {
			t.Fatalf("Parse(%q) read %+v, but its Text %q fails: %v", s, q, q.Text, err)
		}
		if diff := cmp.Diff(q, again); diff != "" {
			t.Fatalf("Parse(%q) and Parse(%q) differ (-first +again):\n%s", s, q.Text, diff)
		}
		canon, err := Parse(q.Canonical())
		if err != nil {
			t.Fatalf("Parse(%q) read %+v, but its canonical form %q fails: %v", s, q, q.Canonical(), err)
		}
		if diff := cmp.Diff(q, canon, cmpIgnoreText); diff != "" {
			t.Fatalf("canonical %q of %q reads differently (-first +canonical):\n%s", q.Canonical(), s, diff)
		}
	})
}

// FuzzRead checks that no text panics the reader or takes long, that every
// failure is a bad-input *knowledge.Error with a message and suggestions
// the grammar reads, that nothing read from free text holds < or @ in its
// words, and that every question read is written (Canonical) as the
// grammar reads back to the same question.
func FuzzRead(f *testing.F) {
	for _, p := range phrasings {
		f.Add(p.text)
	}
	for _, c := range phrasings22 {
		f.Add(c.text)
	}
	for _, s := range []string{"", "\x00", strings.Repeat("is sidecar ", 90), strings.Repeat("稳", 999),
		"<@U1><!channel>@everyone", "kep kep kep 1 2 3", "1.1.1.1 1.2 1.3", "’s’s’s", "::::", "#1#2#3"} {
		f.Add(s)
	}
	r := NewReader(StaticKEPs(syntheticKEPs()))
	f.Fuzz(func(t *testing.T, s string) {
		var q knowledge.Question
		var err error
		// Reading is bounded work whatever the text: the worst seed makes
		// about 400 allocations (BenchmarkRead measures the time; a
		// clock has no place in a test).
		if n := testing.AllocsPerRun(1, func() { q, err = r.Read(context.Background(), s) }); n > 2000 {
			t.Fatalf("Read(%q) made %.0f allocations, want at most 2000", s, n)
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
		q.Focus, q.Also = knowledge.FocusNone, nil // what the answer leads with, not the question
		if len(q.Filters) == 0 {
			q.Filters = nil
		}
		if diff := cmp.Diff(q, canon); diff != "" {
			t.Fatalf("canonical %q of %q reads differently (-read +canonical):\n%s", q.Canonical(), s, diff)
		}
	})
}
