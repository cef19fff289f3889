package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/goldentest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
)

// goldenQuestions name the answers under testdata/answers, one per kind
// of answer and layout. They were captured from the engine over
// testdata/corpus.json (go test -run TestRenderGolden -update-answers
// captures them again); TestRenderGolden renders each as the interaction
// reply Discord would get and keeps that under testdata/golden, so that a
// change in the engine's wording does not move the renderer's goldens.
var goldenQuestions = map[string]string{
	"kep":           "kep 9101",
	"kep_notes":     "KEP-9102",
	"kep_hostile":   "kep 9104",
	"gate":          "gate GizmoSidecars",
	"release":       "1.29",
	"release_bare":  "v1.30",
	"stage_ga":      "1.29 ga",
	"deprecations":  "1.29 deprecations",
	"notices":       "1.30 notices",
	"releases":      "releases",
	"search":        "search gizmo",
	"diff":          "diff 1.28 1.30",
	"upgrade":       "upgrade 1.28 1.30",
	"sig":           "sig node",
	"sig_release":   "sig node 1.30",
	"help":          "help",
	"help_topic":    "help diff",
	"error_unknown": "kep 99999",
	"error_typo":    "1.29 gaa",
	"error_bad":     "kep abc",
	"eol":           "1.29 eol",
	"patches":       "1.30 patches",
	"action":        "1.30 action required",
	"relnotes":      "1.30 deprecations",
	"supported":     "supported",
	// the code's feature gates (GateTables of testdata/corpus.json)
	"gate_default":  "is GizmoSidecars on by default in 1.30",
	"gate_removed":  "gate LegacyGizmos",
	"gate_changes":  "1.30 gates",
	"upgrade_gates": "upgrade 1.28 1.30",
	"cves":          "cves 1.30.1",
	"cves_minor":    "cves 1.30",
	"cve":           "cve CVE-2031-1001",
	"cve_verdict":   "is 1.30.1 affected by CVE-2031-1001",
	"cve_other":     "cve CVE-2031-1003",
	"upgrade_cves":  "upgrade 1.30.1 1.30.2",
}

var updateAnswers = flag.Bool("update-answers", false, "capture testdata/answers again from the engine")

func TestRenderGolden(t *testing.T) {
	var e *engine.Engine
	if *updateAnswers {
		e = testEngine(t)
	}
	for name, q := range goldenQuestions {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join("testdata", "answers", name+".json")
			if *updateAnswers {
				writeJSON(t, in, question.NewAsker(nil, e).Ask(context.Background(), q, knowledge.Origin{Platform: Platform}))
			}
			b, err := os.ReadFile(in)
			if err != nil {
				t.Fatalf("read answer (go test -update-answers captures it): %v", err)
			}
			var a knowledge.Answer
			if err := json.Unmarshal(b, &a); err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			msgs := Render(&a)
			for i, m := range msgs {
				if err := CheckMessage(m); err != nil {
					t.Errorf("message %d: %v", i, err)
				}
			}
			var payloads []any
			for _, m := range msgs {
				payloads = append(payloads, m.response())
			}
			goldentest.Compare(t, filepath.Join("testdata", "golden", name+".json"), encodeJSON(t, payloads), *update)
		})
	}
}

// encodeJSON is v as indented JSON without HTML escapes, for reading.
func encodeJSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, encodeJSON(t, v), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRenderKindsAndEphemeral(t *testing.T) {
	e := testEngine(t)
	tests := []struct {
		q         string
		ephemeral bool
		want      []string // in the JSON of the first message
	}{
		{"kep 9101", false, []string{`"title": "KEP-9101: Widget autoscaling"`, "alpha 1.27 → beta 1.28 → GA 1.29", "WidgetAutoscaling", "https://", "Sources: "}},
		{"1.29", false, []string{`"title": "Kubernetes 1.29"`, "Kite", "**Highlights**"}},
		{"1.29 ga", false, []string{"**KEP-9101** Widget autoscaling · GA in 1.29"}},
		{"help", true, []string{"kep NUMBER"}},
		{"kep 99999", true, []string{"I don't know KEP-99999."}},
		{"1.29 1.32", true, []string{"Did you mean `diff 1.29 1.32`"}},
	}
	for _, tt := range tests {
		msgs := Render(question.NewAsker(nil, e).Ask(context.Background(), tt.q, knowledge.Origin{}))
		if len(msgs) == 0 {
			t.Fatalf("%q: no messages", tt.q)
		}
		if msgs[0].Ephemeral != tt.ephemeral {
			t.Errorf("%q: ephemeral = %v, want %v", tt.q, msgs[0].Ephemeral, tt.ephemeral)
		}
		b, _ := json.MarshalIndent(msgs[0].response(), "", "  ")
		for _, w := range tt.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%q: rendering lacks %q:\n%s", tt.q, w, b)
			}
		}
	}
}

// huge returns a text of n runes with markdown, mentions and wide runes in it.
func huge(n int, seed string) string {
	unit := seed + " **x** @everyone <@&1> 稳定版 𝔘 "
	var b strings.Builder
	for b.Len() < 4*n {
		b.WriteString(unit)
	}
	return string([]rune(b.String())[:n])
}

// largest returns answers of every kind filled past every Discord limit:
// 200 items and notices with 5000-rune texts, 5000-rune titles.
func largest() map[string]*knowledge.Answer {
	long := huge(5000, "t")
	var items []knowledge.Item
	var notices []knowledge.Notice
	var facts []knowledge.Fact
	var links []knowledge.Link
	var srcs []knowledge.SourceRef
	var steps []knowledge.Step
	var gates, notes, sugg []string
	for i := 0; i < 200; i++ {
		items = append(items, knowledge.Item{KEP: 1000 + i, Title: long, Stage: knowledge.StageBeta, Release: knowledge.MustVersion("1.29"), Text: long, SIG: long, Rank: i + 1})
		notices = append(notices, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.30"), KEP: i + 1, Title: long, Text: long,
			FeatureGates: []string{long, long}, API: &knowledge.APIChange{GroupVersion: long, Kinds: []string{long}, ReplacedBy: long}})
		facts = append(facts, knowledge.Fact{Name: long, Value: long})
		links = append(links, knowledge.Link{Title: long, URL: fmt.Sprintf("https://example.com/%d", i)})
		srcs = append(srcs, knowledge.SourceRef{Name: long, AsOf: "2024-01-01"})
		steps = append(steps, knowledge.Step{Stage: knowledge.StageAlpha, Release: knowledge.MustVersion("1.29")})
		gates = append(gates, long)
		notes = append(notes, long)
		sugg = append(sugg, long)
	}
	kep := &knowledge.KEPFacts{Number: 1, Title: long, SIG: long, Status: long, Stage: knowledge.StageBeta,
		Milestones: map[string]string{"alpha": "1.29", "beta": "1.30"}, Targets: map[string]string{"stable": "1.31"},
		FeatureGates: gates, Links: links, Timeline: steps}
	base := func(kind knowledge.Kind) *knowledge.Answer {
		return &knowledge.Answer{Kind: kind, Title: long, Text: long, Facts: facts, Items: items, Notices: notices,
			Links: links, Notes: notes, Sources: srcs, Suggest: sugg, Query: long}
	}
	out := map[string]*knowledge.Answer{}
	for _, k := range []knowledge.Kind{knowledge.KindList, knowledge.KindReleases, knowledge.KindSearch, knowledge.KindDiff,
		knowledge.KindSIG, knowledge.KindHelp, knowledge.KindSubscription} {
		out[string(k)] = base(k)
	}
	for i := 0; i < 200; i++ {
		out["releases"].Releases = append(out["releases"].Releases, knowledge.ReleaseFacts{Version: long, Date: long, Theme: long,
			Enhancements: knowledge.Counts{Total: 1000, Stable: 300, Beta: 300, Alpha: 400}})
	}
	out["releases_only"] = &knowledge.Answer{Kind: knowledge.KindReleases, Title: long, Text: long, Facts: facts[:1],
		Releases: out["releases"].Releases, Sources: srcs}
	out["upgrade"] = base(knowledge.KindDiff)
	out["upgrade"].Query = "upgrade 1.28 1.30"
	out["diff_apis_only"] = &knowledge.Answer{Kind: knowledge.KindDiff, Title: long, Text: long, Notices: notices, Query: "upgrade 1.28 1.30"}
	out["kep"] = base(knowledge.KindKEP)
	out["kep"].KEP = kep
	out["gate"] = base(knowledge.KindGate)
	out["gate"].KEP = kep
	out["release"] = base(knowledge.KindRelease)
	out["release"].Release = &knowledge.ReleaseFacts{Version: "1.29", Date: long, Theme: long, Enhancements: knowledge.Counts{Total: 200, Stable: 100, Beta: 50, Alpha: 50}}
	out["error"] = base(knowledge.KindError)
	out["error"].Error = &knowledge.ErrorFacts{Code: knowledge.EBADINPUT, Message: long}
	out["nil"] = nil
	out["empty"] = &knowledge.Answer{Kind: knowledge.KindList}
	return out
}

func TestRenderLargestWithinLimits(t *testing.T) {
	for name, a := range largest() {
		t.Run(name, func(t *testing.T) {
			msgs := Render(a)
			if len(msgs) == 0 || len(msgs) > MaxMessagesAnswer {
				t.Fatalf("%d messages, want 1 to %d", len(msgs), MaxMessagesAnswer)
			}
			for i, m := range msgs {
				if err := CheckMessage(m); err != nil {
					t.Errorf("message %d: %v", i, err)
				}
			}
			if a != nil && len(a.Items)+len(a.Releases)+len(a.Notices) > 0 && a.Kind != knowledge.KindError && a.Kind != knowledge.KindHelp {
				last := msgs[len(msgs)-1].Embeds
				desc := last[len(last)-1].Description
				if !regexp.MustCompile(`…and \d+ more\*$`).MatchString(desc) {
					t.Errorf("last embed does not end with …and N more: %q", desc[max(0, len(desc)-80):])
				}
			}
		})
	}
}

// TestRenderCountsWhatItLeavesOut checks that the lines shown plus the
// "…and N more" count add up to every item.
func TestRenderCountsWhatItLeavesOut(t *testing.T) {
	for _, n := range []int{1, 25, 80, 200, 1000} {
		a := &knowledge.Answer{Kind: knowledge.KindSearch, Title: "Search", Text: "many"}
		for i := 0; i < n; i++ {
			a.Items = append(a.Items, knowledge.Item{KEP: i + 1, Title: strings.Repeat("word ", 20), Text: strings.Repeat("quote ", 30)})
		}
		shown, more := 0, 0
		for _, m := range Render(a) {
			if err := CheckMessage(m); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			for _, e := range m.Embeds {
				shown += strings.Count(e.Description, "**KEP-")
				if sub := regexp.MustCompile(`…and (\d+) more`).FindStringSubmatch(e.Description); sub != nil {
					fmt.Sscan(sub[1], &more)
				}
			}
		}
		if shown+more != n {
			t.Errorf("n=%d: %d shown + %d more != %d", n, shown, more, n)
		}
	}
}

// TestSourceWithoutDate: a source that does not say its date is shown as
// "date unknown", never with a date it does not give.
func TestSourceWithoutDate(t *testing.T) {
	got := sourcesFooter([]knowledge.SourceRef{{Name: "guide"}, {Name: "note", AsOf: "2024-08-13"}})
	if !strings.Contains(got, "guide (date unknown) · note (as of 2024-08-13)") {
		t.Errorf("footer %q", got)
	}
}
