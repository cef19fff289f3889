package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/internal/goldentest"
	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/knowledge/sources/releasenote"
	"github.com/kepbot/kepbot/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func render(t *testing.T, a *knowledge.Answer) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, a); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return b.Bytes()
}

var v = knowledge.MustVersion

// handAnswers are answers written by hand, one per kind and layout, with
// words of our own.
func handAnswers() map[string]*knowledge.Answer {
	return map[string]*knowledge.Answer{
		"kep_back_step": {
			Kind: knowledge.KindKEP, Title: "KEP-9001: Widget scheduling",
			Text: "KEP-9001 (sig-apps) is alpha: alpha in 1.30. Feature gate: WidgetScheduling.",
			KEP: &knowledge.KEPFacts{
				Number: 9001, Title: "Widget scheduling", SIG: "sig-apps", Stage: knowledge.StageAlpha,
				Milestones: map[string]string{"alpha": "1.30"}, Targets: map[string]string{"stable": "1.34"},
				FeatureGates: []string{"WidgetScheduling"},
				Links:        []knowledge.Link{{Title: "KEP-9001", URL: "https://kep.k8s.io/9001"}},
				Timeline: []knowledge.Step{
					{Stage: knowledge.StageAlpha, Release: v("1.30")},
					{Stage: knowledge.StageBeta, Release: v("1.31")},
					{Stage: knowledge.StageBeta, Release: v("1.32"), Repeat: true},
					{Stage: knowledge.StageAlpha, Release: v("1.33"), Back: true},
				},
			},
			Items: []knowledge.Item{
				{KEP: 9001, Title: "Widget scheduling", Stage: knowledge.StageAlpha, Release: v("1.30"), Text: "Widgets can now be scheduled by the new widget scheduler."},
				{KEP: 9001, Title: "Widget scheduling", Stage: knowledge.StageBeta, Release: v("1.31")},
			},
			Notes: []string{"It stepped back from beta to alpha in 1.33."},
			Sources: []knowledge.SourceRef{
				{Name: "Kubernetes 1.30 release note (en)", AsOf: "2024-04-17"},
				{Name: "a blog post"},
			},
		},
		"release_no_theme": {
			Kind: knowledge.KindRelease, Title: "Kubernetes 1.40",
			Text:    "Kubernetes 1.40, released 2030-01-02: 3 enhancements (1 GA, 1 beta, 1 alpha).",
			Release: &knowledge.ReleaseFacts{Version: "1.40", Date: "2030-01-02", Enhancements: knowledge.Counts{Total: 3, Stable: 1, Beta: 1, Alpha: 1}},
			Facts:   []knowledge.Fact{{Name: "Deprecations", Value: "1"}},
			Items: []knowledge.Item{
				{KEP: 1, Title: "First thing", Stage: knowledge.StageStable, Release: v("1.40"), SIG: "sig-node"},
				{Title: "A change without a KEP", Stage: knowledge.StageAlpha, Release: v("1.40")},
			},
			Notes: []string{"Showing 2 of 3 items; ask 1.40 ga, 1.40 beta or 1.40 alpha for each list."},
		},
		"notices_api": {
			Kind: knowledge.KindList, Title: "Kubernetes 1.40: removals", Text: "1 removal in Kubernetes 1.40.",
			Notices: []knowledge.Notice{{
				Kind: knowledge.NoticeRemoval, Release: v("1.40"), KEP: 77, Title: "Old widget API",
				FeatureGates: []string{"OldWidgets"}, Text: "The old widget API is no longer served.",
				API: &knowledge.APIChange{GroupVersion: "widgets.example.io/v1beta1", Kinds: []string{"Widget"}, ReplacedBy: "widgets.example.io/v1"},
			}},
		},
		"wrap_wide": {
			Kind: knowledge.KindList, Title: "Kubernetes 1.40: GA", Text: "1 enhancement went GA in Kubernetes 1.40.",
			Items: []knowledge.Item{{KEP: 5, Title: "宽字符标题", Stage: knowledge.StageStable, Release: v("1.40"),
				Text: strings.Repeat("这是我们自己写的测试句子，用来检查折行。", 6) + " and then some English words to wrap at the column limit of the terminal view."}},
		},
		"search_ranked": {
			Kind: knowledge.KindSearch, Title: "Search: widget", Text: "2 KEPs match.",
			Items: []knowledge.Item{
				{KEP: 9001, Title: "Widget scheduling", Stage: knowledge.StageAlpha, Release: v("1.30"), SIG: "sig-apps", Rank: 1},
				{KEP: 9002, Title: "Widget volumes", Rank: 2},
			},
		},
		"scan": {
			Kind: knowledge.KindScan, Title: "Scan for Kubernetes 1.32 → 1.36", Query: "scan 1.32 1.36",
			Text: "4 objects: 2 removed by 1.36, 1 deprecated, 1 not built-in.",
			Facts: []knowledge.Fact{
				{Name: "Removed in 1.22: extensions/v1beta1 Ingress", Value: "use networking.k8s.io/v1 Ingress (served since 1.19) · per the deprecated API migration guide · 2 objects: prod/web (document 1), prod/api (document 4)"},
				{Name: "Deprecated in 1.34: storage.k8s.io/v1beta1 VolumeAttributesClass", Value: "use storage.k8s.io/v1 VolumeAttributesClass (served since 1.34) · removal planned for 1.39 · per k8s.io/api v0.36.0's lifecycle markers, not confirmed by a release note · 1 object: fast (document 2)"},
				{Name: "Not built in: example.com/v1 Widget", Value: "not built into Kubernetes: example.com is a CustomResourceDefinition's or an aggregated API's group · 1 object: gadget (document 3)"},
			},
			Notes:   []string{"document 5, line 3: a quoted value is not closed"},
			Sources: []knowledge.SourceRef{{Name: "Kubernetes deprecated API migration guide (en)"}, {Name: "k8s.io/api v0.36.0", AsOf: "2026-04-22"}},
		},
		"api": {
			Kind: knowledge.KindAPI, Title: "API Ingress", Query: "api Ingress",
			Text: "Ingress: served in 1.36: networking.k8s.io/v1 Ingress; removed: extensions/v1beta1 Ingress (1.22).",
			Facts: []knowledge.Fact{
				{Name: "extensions/v1beta1 Ingress", Value: "beta · introduced 1.1 · deprecated 1.14 · removed in 1.22 (the deprecated API migration guide) · use networking.k8s.io/v1 Ingress (served since 1.19)"},
				{Name: "networking.k8s.io/v1 Ingress", Value: "GA · introduced 1.19 · served in 1.36"},
			},
			Sources: []knowledge.SourceRef{{Name: "Kubernetes deprecated API migration guide (en)"}},
		},
		"releases": {
			Kind: knowledge.KindReleases, Title: "Known releases", Text: "I know 3 releases from their announcements and release notes: 1.40, 1.41, 1.42.",
			Releases: []knowledge.ReleaseFacts{
				{Version: "1.40", Date: "2030-01-02", Enhancements: knowledge.Counts{Total: 3, Stable: 1, Beta: 1, Alpha: 1}},
				{Version: "1.41", Date: "2030-05-06", Theme: "Lantern", Enhancements: knowledge.Counts{Stable: 2, Beta: 1}},
				{Version: "1.42"},
			},
			Facts: []knowledge.Fact{{Name: "Not announced", Value: "1.38, 1.39, 1.43–1.45"}},
		},
	}
}

func TestRenderGolden(t *testing.T) {
	for name, a := range handAnswers() {
		t.Run(name, func(t *testing.T) {
			goldentest.Compare(t, filepath.Join("testdata", "hand/"+name+".txt"), render(t, a), *update)
		})
	}
}

// TestRenderParsedAndHelp renders answers the engine gives without any
// knowledge: help, help TOPIC and bad input; and the grammar's own errors
// with "did you mean" (typo_*: the terminal reads these misspellings as
// the questions they mean, but the grammar alone suggests them).
func TestRenderParsedAndHelp(t *testing.T) {
	e := engine.New(nil)
	for name, q := range map[string]string{
		"help": "help", "help_subscribe": "help subscribe", "typo_kep": "kepp 4639",
		"typo_stage": "1.29 gaa", "bad_kep": "kep abc", "too_long": strings.Repeat("x", 1001),
		"not_yet": "subscribe deprecations",
	} {
		t.Run(name, func(t *testing.T) {
			var a *knowledge.Answer
			if strings.HasPrefix(name, "typo_") {
				_, err := question.Parse(q)
				a = knowledge.ErrorAnswer(err)
			} else {
				a = question.NewAsker(nil, e).Ask(context.Background(), q, knowledge.Origin{Platform: "console"})
			}
			goldentest.Compare(t, filepath.Join("testdata", "engine/"+name+".txt"), render(t, a), *update)
		})
	}
}

// engineOver saves k in a new bbolt file and returns an engine over it.
func engineOver(t *testing.T, k *knowledge.Knowledge) *engine.Engine {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	return engine.New(db.Knowledge())
}

// TestRenderSeeded renders answers from the five seed notes in ../shared.
// Those answers quote the notes, which may not be copied into the
// repository, so instead of golden files the test checks the facts each
// view must show.
func TestRenderSeeded(t *testing.T) {
	dir := sharedtest.Path(t, "seeds")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		part, err := releasenote.Parse(e.Name(), data)
		if err != nil {
			t.Fatal(err)
		}
		c.Add(part)
	}
	e := engineOver(t, knowledge.Compile(&c))
	tests := []struct {
		q     string
		lines []string // lines the view must hold, trailing spaces trimmed
	}{
		{"kep 3866", []string{"  SIG             sig-network", "  Stage           beta", "  Reached         alpha 1.29, beta 1.31",
			"  Feature gates   NFTablesProxyMode", "  Timeline        alpha 1.29 → beta 1.31", "  KEP-3866: https://kep.k8s.io/3866",
			"Source: Kubernetes 1.29 release note (zh), as of 2023-12-13", "Source: Kubernetes 1.31 release note (zh), as of 2024-08-13"}},
		{"1.29", []string{"Kubernetes 1.29", "  Date            2023-12-13", "  Theme           Mandala", "  Enhancements    49: 11 GA, 19 beta, 19 alpha"}},
		{"1.32", []string{"Kubernetes 1.32", "  Date            2024-12-11", "  Enhancements    44: 13 GA, 12 beta, 19 alpha"}},
		{"1.30 ga", []string{"Kubernetes 1.30: GA", "17 enhancements went GA in Kubernetes 1.30."}},
		{"kep abc", []string{`"abc" is not a KEP number. Usage: kep NUMBER, e.g. kep 4639.`}},
		{"kep 99999", []string{"I don't know KEP-99999. No kep.yaml I hold has that number; ask search WORDS", "to find a KEP by its name or gate.", "Did you mean: help search?"}},
		{"1.99", []string{"I don't know Kubernetes 1.99. I know 1.27, 1.29–1.32.", "Did you mean: 1.32?"}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			out := string(render(t, question.NewAsker(nil, e).Ask(context.Background(), tt.q, knowledge.Origin{Platform: "console"})))
			have := map[string]bool{}
			for _, l := range strings.Split(out, "\n") {
				have[l] = true
			}
			for _, l := range tt.lines {
				if !have[l] {
					t.Errorf("view of %s lacks the line %q:\n%s", tt.q, l, out)
				}
			}
			if tt.q == "1.32" && strings.Contains(out, "Theme") {
				t.Errorf("view of 1.32 shows a theme; the note gives none:\n%s", out)
			}
		})
	}
	// Every GA KEP of the 1.30 note is listed, in number order.
	out := string(render(t, question.NewAsker(nil, e).Ask(context.Background(), "1.30 ga", knowledge.Origin{})))
	last := -1
	for _, n := range []string{"24", "647", "1610", "2305", "2681", "2799", "3022", "3141", "3352", "3458", "3488", "3521", "3705", "3716", "3756", "3895", "4402"} {
		i := strings.Index(out, "  - KEP-"+n+" ")
		if i < 0 || i < last {
			t.Errorf("1.30 ga view lists KEP-%s at %d (previous at %d)", n, i, last)
		}
		last = i
	}
}

// syntheticEngine answers from the knowledge package's synthetic corpus
// (words of our own), compiled and saved in a bbolt file.
func syntheticEngine(t *testing.T) *engine.Engine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "knowledge", "engine", "testdata", "synthetic_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return engineOver(t, knowledge.Compile(&c))
}

// TestRenderSynthetic renders every kind of answer the engine gives.
func TestRenderSynthetic(t *testing.T) {
	e := syntheticEngine(t)
	for name, q := range map[string]string{
		"kep_notes_only": "kep 9001", "kep_disagree_back": "kep 9002", "kep_yaml": "kep 9003",
		"kep_unknown": "kep 99999", "release": "1.40", "release_no_theme": "1.41", "release_unknown": "1.99",
		"stage_ga": "1.40 ga", "stage_beta": "1.40 beta", "removals": "1.43 removals", "notices": "1.43 notices",
		"releases": "releases", "gate": "gate WidgetScheduling", "gate_notice_only": "gate OldWidgetFlag",
		"search": "search widget", "diff": "diff 1.40 1.43", "upgrade": "upgrade 1.39 1.41",
		"sig": "sig node", "sig_release": "sig node 1.40", "stage_repeat_back": "1.43 beta",
		"kep_many_disagree": "kep 9007", "kep_name_disagree": "kep 9006", "kep_deprecated": "kep 9008",
		"upgrade_api": "upgrade 1.41 1.43", "diff_bad_order": "diff 1.43 1.40", "diff_unknown": "diff 1.40 1.50",
		"search_cjk": "search 港口", "release_from_kep_yaml": "1.44", "sig_words": "SIG Node 1.40", "gate_yaml": "gate harbourprobes",
		"gate_code_only": "gate WidgetDrift", "gate_removed": "gate RetiredWidgets", "gate_kubeadm": "gate ControlPlaneWidgets",
		"gate_default_yes": "is WidgetDrift on by default in 1.42", "gate_default_removed": "is RetiredWidgets on by default in 1.43",
		"gate_changes": "1.42 gates", "upgrade_gates": "upgrade 1.40 1.43",
		"cves_patch": "cves 1.43.1", "cves_minor": "cves 1.43", "cve": "cve CVE-2031-1001", "cve_yes": "is 1.43.1 affected by CVE-2031-1001",
		"cve_other_product": "cve CVE-2031-1003", "upgrade_patch": "upgrade 1.43.1 1.43.3",
	} {
		t.Run(name, func(t *testing.T) {
			goldentest.Compare(t, filepath.Join("testdata", "synthetic/"+name+".txt"), render(t, question.NewAsker(nil, e).Ask(context.Background(), q, knowledge.Origin{Platform: "console"})), *update)
		})
	}
}

func TestRenderNil(t *testing.T) {
	if got := string(render(t, nil)); got != "Sorry, I have no answer.\n" {
		t.Errorf("Render(nil) = %q", got)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRenderWriteFails(t *testing.T) {
	if err := Render(failWriter{}, handAnswers()["kep_back_step"]); err == nil {
		t.Error("Render to a failing writer returned nil")
	}
}

func TestTimeline(t *testing.T) {
	steps := []knowledge.Step{
		{Stage: knowledge.StageAlpha, Release: v("1.29")},
		{Stage: knowledge.StageBeta, Release: v("1.31")},
		{Stage: knowledge.StageBeta, Release: v("1.32"), Repeat: true},
		{Stage: knowledge.StageAlpha, Release: v("1.33"), Back: true},
		{Stage: knowledge.StageDeprecated, Release: v("1.34")},
	}
	if got, want := Timeline(steps), "alpha 1.29 → beta 1.31 → back to alpha 1.33 → deprecated 1.34"; got != want {
		t.Errorf("Timeline = %q, want %q", got, want)
	}
}

func TestWrapText(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  []string
	}{
		{"", 30, []string{""}},
		{"one two three", 30, []string{"one two three"}},
		{"aaaa bbbb cccc dddd eeee ffff", 20, []string{"aaaa bbbb cccc dddd", "eeee ffff"}},
		{strings.Repeat("x", 25), 20, []string{strings.Repeat("x", 25)}},
		{strings.Repeat("字", 15), 20, []string{strings.Repeat("字", 10), strings.Repeat("字", 5)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, wrapText(tt.in, tt.width)); diff != "" {
			t.Errorf("wrapText(%q, %d) mismatch (-want +got):\n%s", tt.in, tt.width, diff)
		}
		for _, l := range wrapText(tt.in, tt.width) {
			if w := displayWidth(l); w > tt.width && strings.Contains(l, " ") {
				t.Errorf("wrapText(%q): line %q is %d wide", tt.in, l, w)
			}
		}
	}
}

// TestRenderFreeText renders questions typed as in chat, read by the
// reader that knows the synthetic engine's features by name: each view
// starts with how the text was read.
func TestRenderFreeText(t *testing.T) {
	e := syntheticEngine(t)
	asker := question.NewAsker(question.NewReader(e), e)
	for name, q := range map[string]string{
		"stage": "what went GA in 1.40?", "feature_no": "is harbour probes stable?",
		"feature_zh": "港口探针 在 1.41 是 beta 吗", "typo": "waht is new in 1.41 pls", "off_topic": "what's for lunch",
		"ambiguous": "is widget stable?",
	} {
		t.Run(name, func(t *testing.T) {
			goldentest.Compare(t, filepath.Join("testdata", "free/"+name+".txt"), render(t, asker.Ask(context.Background(), q, knowledge.Origin{Platform: "console"})), *update)
		})
	}
}

// TestRenderAPIDeprecationIsNotARemoval: an API that is deprecated is still
// served, so it goes with the other notices, not under the heading of APIs
// that stop being served.
func TestRenderAPIDeprecationIsNotARemoval(t *testing.T) {
	a := &knowledge.Answer{
		Kind:  knowledge.KindList,
		Query: "upgrade 1.41 1.43",
		Title: "Upgrading from 1.41 to 1.43",
		Notices: []knowledge.Notice{
			{Kind: knowledge.NoticeRemoval, Title: "Widget", API: &knowledge.APIChange{GroupVersion: "widgets.example.io/v1alpha1"}},
			{Kind: knowledge.NoticeDeprecation, Title: "Gadget", API: &knowledge.APIChange{GroupVersion: "widgets.example.io/v1beta1"}},
		},
	}
	out := string(render(t, a))
	served, rest, ok := strings.Cut(out, "Removals, deprecations and upgrade notes:")
	if !ok {
		t.Fatalf("no notices section:\n%s", out)
	}
	if !strings.Contains(served, "Removed") || !strings.Contains(served, "Widget") {
		t.Errorf("the removal is not under the APIs that stop being served:\n%s", out)
	}
	if strings.Contains(served, "Gadget") || !strings.Contains(rest, "Deprecated") || !strings.Contains(rest, "Gadget") {
		t.Errorf("the deprecated API is not with the other notices:\n%s", out)
	}
}
