package discord

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// embedTitles lists the titles of every embed of msgs, message by message.
func embedTitles(msgs []Message) [][]string {
	var out [][]string
	for _, m := range msgs {
		var ts []string
		for _, e := range m.Embeds {
			ts = append(ts, e.Title)
		}
		out = append(out, ts)
	}
	return out
}

// TestRenderDiffSections checks that the APIs no longer served come first,
// in a red embed of their own, in diffs and upgrades alike, and that an
// upgrade puts the other notices before what graduated.
func TestRenderDiffSections(t *testing.T) {
	v := knowledge.MustVersion("1.30")
	api := knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, Title: "Old API", API: &knowledge.APIChange{GroupVersion: "x.example.io/v1beta1", Kinds: []string{"X"}, ReplacedBy: "x.example.io/v1"}}
	dep := knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, Title: "A flag"}
	// An API that is only deprecated stays with the other notices.
	apiDep := knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v, Title: "Y API", API: &knowledge.APIChange{GroupVersion: "y.example.io/v1beta1"}}
	item := knowledge.Item{KEP: 1, Title: "Thing", Stage: knowledge.StageStable, Release: v, Rank: 1}
	tests := []struct {
		name  string
		a     knowledge.Answer
		want  [][]string
		color int // of the second embed
	}{
		{"diff", knowledge.Answer{Kind: knowledge.KindDiff, Title: "D", Query: "diff 1.29 1.30", Items: []knowledge.Item{item}, Notices: []knowledge.Notice{dep, api, apiDep}},
			[][]string{{"D", titleAPIs, titleItems, titleNotices}}, colorBreaking},
		{"upgrade", knowledge.Answer{Kind: knowledge.KindDiff, Title: "U", Query: "upgrade 1.29 1.30", Items: []knowledge.Item{item}, Notices: []knowledge.Notice{dep, api}},
			[][]string{{"U", titleAPIs, titleNotices, titleItems}}, colorBreaking},
		{"upgrade without APIs", knowledge.Answer{Kind: knowledge.KindDiff, Title: "U", Query: "upgrade 1.29 1.30", Items: []knowledge.Item{item}, Notices: []knowledge.Notice{dep, apiDep}},
			[][]string{{"U", titleNotices, titleItems}}, colorNotice},
		{"diff of graduations only", knowledge.Answer{Kind: knowledge.KindDiff, Title: "D", Query: "diff 1.29 1.30", Items: []knowledge.Item{item}},
			[][]string{{"D", titleItems}}, colorList},
		{"list with an API", knowledge.Answer{Kind: knowledge.KindList, Title: "L", Notices: []knowledge.Notice{api, dep}},
			[][]string{{"L", titleAPIs, ""}}, colorBreaking},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := Render(&tt.a)
			if diff := cmp.Diff(tt.want, embedTitles(msgs)); diff != "" {
				t.Errorf("embed titles (-want +got):\n%s", diff)
			}
			if e := msgs[0].Embeds; len(e) > 1 && e[1].Color != tt.color {
				t.Errorf("second embed colour %#x, want %#x", e[1].Color, tt.color)
			}
			for _, m := range msgs {
				for _, e := range m.Embeds {
					if e.Title == titleAPIs && (!strings.Contains(e.Description, "`x.example.io/v1beta1` (X) → use `x.example.io/v1`") || strings.Contains(e.Description, "y.example.io")) {
						t.Errorf("API section holds %q", e.Description)
					}
				}
			}
		})
	}
}

// TestRenderAPIsFirstWhenLong checks that a hundred graduations never push
// the API removals out of the first message.
func TestRenderAPIsFirstWhenLong(t *testing.T) {
	a := &knowledge.Answer{Kind: knowledge.KindDiff, Title: "D", Query: "diff 1.20 1.30"}
	for i := 0; i < 100; i++ {
		a.Items = append(a.Items, knowledge.Item{KEP: i + 1, Title: strings.Repeat("long name ", 20), Text: strings.Repeat("quote ", 40), Rank: i + 1})
	}
	for i := 0; i < 3; i++ {
		a.Notices = append(a.Notices, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.30"),
			API: &knowledge.APIChange{GroupVersion: fmt.Sprintf("g%d.example.io/v1beta1", i)}})
	}
	msgs := Render(a)
	if len(msgs) != MaxMessagesAnswer {
		t.Fatalf("%d messages, want %d", len(msgs), MaxMessagesAnswer)
	}
	e := msgs[0].Embeds
	if len(e) < 2 || e[1].Title != titleAPIs || strings.Count(e[1].Description, "example.io/v1beta1`") != 3 {
		t.Fatalf("second embed is not the three API removals: %+v", e[1])
	}
}

// TestAPILinesCloseCodeSpans feeds group/versions with backticks, mentions
// and markdown, and kinds long enough to fill a line: every code span
// must close on its line and everything outside them stay inert.
func TestAPILinesCloseCodeSpans(t *testing.T) {
	long := huge(3000, "Kind")
	for _, p := range append(injectionCorpus(), "a`b`c", "```", "`@everyone`", long, "x\\", "\\`") {
		ns := []knowledge.Notice{
			{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.30"), KEP: 1, Text: p, FeatureGates: []string{p},
				API: &knowledge.APIChange{GroupVersion: p, Kinds: []string{p}, ReplacedBy: p}},
		}
		// From one long kind to many: the replacement's code span moves
		// across where a line is cut.
		var kinds []string
		for i := 0; i < 8; i++ {
			kinds = append(kinds, long)
			ns = append(ns, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.30"), Text: long,
				API: &knowledge.APIChange{GroupVersion: p + long, Kinds: append([]string(nil), kinds...), ReplacedBy: long + p}})
		}
		for _, l := range apiLines(ns) {
			l = truncate(l, maxLine)
			checkInert(t, "api line", l)
		}
	}
}
