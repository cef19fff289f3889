package discord

import (
	"fmt"
	"regexp"
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
		{"upgrade", knowledge.Answer{Kind: knowledge.KindDiff, Title: "U", Query: "upgrade 1.29 1.30", BreaksFirst: true, Items: []knowledge.Item{item}, Notices: []knowledge.Notice{api, dep}},
			[][]string{{"U", "⛔ APIs that stop being served (1)", "Deprecations (1)", titleItems + " (1)"}}, colorBreaking},
		{"upgrade without APIs", knowledge.Answer{Kind: knowledge.KindDiff, Title: "U", Query: "upgrade 1.29 1.30", BreaksFirst: true, Items: []knowledge.Item{item}, Notices: []knowledge.Notice{dep, apiDep}},
			[][]string{{"U", "Deprecations (2)", titleItems + " (1)"}}, colorNotice},
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
					if (e.Title == titleAPIs || strings.HasPrefix(e.Title, "⛔ APIs that")) && (!strings.Contains(e.Description, "`x.example.io/v1beta1` (X) → use `x.example.io/v1`") || strings.Contains(e.Description, "y.example.io")) {
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

// TestRenderCountsWhatItLeavesOutByKind checks, for releases, API removals
// and a SIG's KEPs, that the lines shown plus "…and N more" add up.
func TestRenderCountsWhatItLeavesOutByKind(t *testing.T) {
	line := map[string]*regexp.Regexp{
		"releases": regexp.MustCompile(`(?m)^\*\*1\.\d+\*\* — `),
		"apis":     regexp.MustCompile("(?m)^• \\*\\*1\\.30\\*\\* `"),
		"sig":      regexp.MustCompile(`(?m)^• \*\*KEP-\d+\*\* `),
	}
	for _, n := range []int{1, 40, 150, 1000} {
		answers := map[string]*knowledge.Answer{
			"releases": {Kind: knowledge.KindReleases, Title: "Known releases", Facts: []knowledge.Fact{{Name: "Not announced", Value: "1.0–1.3"}}},
			"apis":     {Kind: knowledge.KindDiff, Title: "Upgrade", Query: "upgrade 1.0 1.30"},
			"sig":      {Kind: knowledge.KindSIG, Title: "sig-node"},
		}
		for i := 0; i < n; i++ {
			answers["releases"].Releases = append(answers["releases"].Releases, knowledge.ReleaseFacts{Version: fmt.Sprintf("1.%d", i+4),
				Date: "2024-04-17", Theme: strings.Repeat("Theme ", 10), Enhancements: knowledge.Counts{Total: 45, Stable: 17, Beta: 18, Alpha: 10}})
			answers["apis"].Notices = append(answers["apis"].Notices, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.30"),
				KEP: i + 1, Text: strings.Repeat("quote ", 30), API: &knowledge.APIChange{GroupVersion: "flowcontrol.example.io/v1beta2", Kinds: []string{"FlowSchema"}, ReplacedBy: "flowcontrol.example.io/v1"}})
			answers["sig"].Items = append(answers["sig"].Items, knowledge.Item{KEP: i + 1, Title: strings.Repeat("word ", 20), SIG: "sig-node", Stage: knowledge.StageBeta})
		}
		for kind, a := range answers {
			shown, more := 0, 0
			msgs := Render(a)
			for _, m := range msgs {
				if err := CheckMessage(m); err != nil {
					t.Fatalf("%s n=%d: %v", kind, n, err)
				}
				for _, e := range m.Embeds {
					shown += len(line[kind].FindAllString(e.Description, -1))
					if sub := regexp.MustCompile(`…and (\d+) more`).FindStringSubmatch(e.Description); sub != nil {
						fmt.Sscan(sub[1], &more)
					}
				}
			}
			if shown+more != n || shown == 0 {
				t.Errorf("%s n=%d: %d shown + %d more != %d", kind, n, shown, more, n)
			}
			if kind == "releases" && (len(msgs[0].Embeds[0].Fields) != 1 || msgs[0].Embeds[0].Fields[0].Value != "1.0–1.3") {
				t.Errorf("releases n=%d: the Not announced field is gone: %+v", n, msgs[0].Embeds[0].Fields)
			}
			if kind == "sig" && strings.Contains(msgs[0].Embeds[0].Description, "sig-node") {
				t.Errorf("sig n=%d: items repeat the SIG the title names", n)
			}
		}
	}
}

func TestReleaseLine(t *testing.T) {
	tests := []struct {
		in   knowledge.ReleaseFacts
		want string
	}{
		{knowledge.ReleaseFacts{Version: "1.29", Date: "2023-12-13", Theme: "Kite", Enhancements: knowledge.Counts{Total: 5, Stable: 3, Beta: 1, Alpha: 1}},
			"**1.29** — 2023-12-13 · Kite · 5 enhancements: 3 GA, 1 beta, 1 alpha"},
		{knowledge.ReleaseFacts{Version: "1.30", Date: "2024-04-17"}, "**1.30** — 2024-04-17"},
		{knowledge.ReleaseFacts{Version: "1.31", Enhancements: knowledge.Counts{Stable: 2}}, "**1.31** — 2 GA, 0 beta, 0 alpha"},
		{knowledge.ReleaseFacts{Version: "1.32", Enhancements: knowledge.Counts{Total: 1, Alpha: 1}}, "**1.32** — 1 enhancement: 0 GA, 0 beta, 1 alpha"},
		{knowledge.ReleaseFacts{Version: "1.33"}, "**1.33**"},
		{knowledge.ReleaseFacts{Version: "1.34", Theme: "**Big** @everyone <@&1>"}, "**1.34** — \\*\\*Big\\*\\* @\u200beveryone \\<@&1\\>"},
	}
	for _, tt := range tests {
		if got := releaseLine(tt.in); got != tt.want {
			t.Errorf("releaseLine(%+v) = %q, want %q", tt.in, got, tt.want)
		}
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
