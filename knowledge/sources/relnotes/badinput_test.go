package relnotes

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

var v140 = knowledge.MustVersion("1.40")

func TestParseNotesRejects(t *testing.T) {
	big := append([]byte(`{"1": {"pr_number": 1, "text": "`), bytes.Repeat([]byte("x"), MaxNotesSize)...)
	big = append(big, `"}}`...)
	tests := []struct {
		name    string
		release knowledge.Version
		data    string
		want    error
	}{
		{"no release", knowledge.Version{}, `{"1": {"pr_number": 1, "text": "a"}}`, ErrNoRelease},
		{"empty", v140, "", ErrEmpty},
		{"blank", v140, " \n\t", ErrEmpty},
		{"too large", v140, string(big), ErrTooLarge},
		{"truncated", v140, `{"1": {"pr_number": 1, "text": "a"`, ErrNotJSON},
		{"broken entry", v140, `{"1": {"pr_number": 1, "text": "a"}, "2": {"pr_number": 2 "text": "b"}}`, ErrNotJSON},
		{"an array", v140, `[{"pr_number": 1, "text": "a"}]`, ErrNotJSON},
		{"a string", v140, `"notes"`, ErrNotJSON},
		{"trailing garbage", v140, `{"1": {"pr_number": 1, "text": "a"}} {}`, ErrNotJSON},
		{"not JSON", v140, "# Release notes\n", ErrNotJSON},
		{"binary", v140, "\x00\x01\x02", ErrNotJSON},
		{"no readable entry", v140, `{"a": 1, "b": {"text": "no number"}}`, ErrNotNotes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ws, err := ParseNotes(tt.release, "x/notes.json", []byte(tt.data), provenance.Stamp{})
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if c != nil || ws != nil {
				t.Errorf("a corpus or warnings came with the error")
			}
			if msg := err.Error(); !strings.Contains(msg, "x/notes.json") || !strings.Contains(msg, "expected") {
				t.Errorf("error %q should name the file and say what was expected", msg)
			}
		})
	}
}

// TestParseNotesReadsAround checks that a bad entry costs only itself and
// that every warning names the file and the entry.
func TestParseNotesReadsAround(t *testing.T) {
	long := strings.Repeat("é", 10<<20/2) // 10 MB of two-byte characters
	data := `{
	  "100": {"pr_number": 100, "text": "Removed the ` + "`Foo`" + ` feature gate.", "kinds": ["cleanup"], "sigs": ["node"]},
	  "101": {"text": "no number"},
	  "102": "not an object",
	  "103": {"pr_number": 103, "text": "hidden", "do_not_publish": true},
	  "104": {"pr_number": 104, "text": "A new kind.", "kinds": ["kind/brand-new", "Feature", "feature"], "sigs": "sig/apps"},
	  "105": {"pr_number": 105, "text": "` + long + `", "kinds": ["bug"]},
	  "106": {"pr_number": "106", "text": "  Number as text.  ", "action_required": true, "pr_url": "javascript:alert(1)"},
	  "107": {"pr_number": 107, "text": ""},
	  "108": {"pr_number": -5, "text": "negative"},
	  "10900": {"pr_number": 109, "text": "Key and number differ.", "kinds": 7, "documentation": "nope"},
	  "110": {"pr_number": 110, "text": "First.", "kinds": ["feature"], "documentation": [{"url": "https://github.com/kubernetes/enhancements/issues/1", "type": "KEP"}]},
	  "110 again": {"pr_number": 110, "text": "Second.", "kinds": ["deprecation"], "duplicate": true}
	}`
	c, ws, err := ParseNotes(v140, "x/notes.json", []byte(data), provenance.Stamp{Date: "2030-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	var prs []int
	for _, ch := range c.Changes {
		prs = append(prs, ch.PR)
	}
	if want := []int{100, 104, 105, 106, 109, 110}; !slices.Equal(prs, want) {
		t.Fatalf("changes of PRs %v, want %v", prs, want)
	}
	byPR := map[int]knowledge.Change{}
	for _, ch := range c.Changes {
		byPR[ch.PR] = ch
	}
	if ch := byPR[100]; ch.Notice != knowledge.NoticeRemoval || ch.Names[0] != "Foo" || ch.SIGs[0] != "node" || ch.Source != NotesSourceID(v140) {
		t.Errorf("100: %+v", ch)
	}
	if ch := byPR[104]; strings.Join(ch.Kinds, ",") != "brand-new,feature" || strings.Join(ch.SIGs, ",") != "apps" {
		t.Errorf("104: kinds %v, SIGs %v; want an unknown kind kept and a lone SIG read", ch.Kinds, ch.SIGs)
	}
	if ch := byPR[105]; len(ch.Text) > MaxTextBytes+len("…") || !strings.HasSuffix(ch.Text, "…") || !strings.HasPrefix(ch.Text, "éé") {
		t.Errorf("105: text of %d bytes, want it cut to %d", len(ch.Text), MaxTextBytes)
	}
	if ch := byPR[106]; ch.Text != "Number as text." || !ch.Action || ch.Notice != knowledge.NoticeUpgrade || ch.URL != "https://github.com/kubernetes/kubernetes/pull/106" {
		t.Errorf("106: %+v", ch)
	}
	// The second entry's kind is kept; a kind "deprecation" alone makes no notice (Classify).
	if ch := byPR[110]; ch.Text != "First." || strings.Join(ch.Kinds, ",") != "feature,deprecation" || ch.Notice != "" || !slices.Equal(ch.KEPs, []int{1}) {
		t.Errorf("110: %+v; want the two entries of one PR read as one", ch)
	}
	wantSkips := map[string]string{
		"x/notes.json#101": "no pr_number", "x/notes.json#102": "not an object",
		"x/notes.json#107": "no text", "x/notes.json#108": "no pr_number",
	}
	if len(c.Skipped) != len(wantSkips) {
		t.Errorf("skipped %v, want %v", c.Skipped, wantSkips)
	}
	for _, s := range c.Skipped {
		if wantSkips[s.Path] != s.Reason {
			t.Errorf("skip %+v, want the reason %q", s, wantSkips[s.Path])
		}
	}
	wantWarnings := map[string]string{
		"101": "no pr_number", "102": "not an object", "105": "cut", "107": "no text", "108": "no pr_number",
		"10900": "key", "110 again": "listed twice",
	}
	for _, w := range ws {
		if w.File != "x/notes.json" || w.Entry == "" || !strings.Contains(w.String(), "entry "+w.Entry) {
			t.Errorf("warning %+v should name the file and the entry", w)
		}
		if want, ok := wantWarnings[w.Entry]; ok && strings.Contains(w.Problem, want) {
			delete(wantWarnings, w.Entry)
		}
	}
	if len(wantWarnings) != 0 {
		t.Errorf("no warnings for %v among %v", wantWarnings, ws)
	}
}

func TestParseNotesEmptyDraft(t *testing.T) {
	c, ws, err := ParseNotes(v140, "n.json", []byte("{}"), provenance.Stamp{})
	if err != nil || len(c.Sources) != 1 || len(c.Changes) != 0 || len(ws) != 1 {
		t.Errorf("got %+v, %v, %v; want the source, no change and a warning", c, ws, err)
	}
	c, _, err = ParseNotes(v140, "n.json", []byte(`{"1": {"pr_number": 1, "text": "x", "do_not_publish": true}}`), provenance.Stamp{})
	if err != nil || len(c.Changes) != 0 {
		t.Errorf("a draft of unpublished entries: %+v, %v", c, err)
	}
}
