package knowledge_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// openStore saves k in a new bbolt database in a temporary folder.
func openStore(t testing.TB, k *knowledge.Knowledge) knowledge.KnowledgeStore {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	return db.Knowledge()
}

// synthetic compiles testdata/synthetic_corpus.json, a corpus written for
// these tests in words of our own.
func synthetic(t testing.TB) *knowledge.Knowledge {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("read synthetic corpus: %v", err)
	}
	return knowledge.Compile(&c)
}

func ask(t testing.TB, e *knowledge.Engine, q string) *knowledge.Answer {
	t.Helper()
	a := e.Ask(context.Background(), q, knowledge.Origin{Platform: "console"})
	if a == nil {
		t.Fatalf("Ask(%q) = nil", q)
	}
	return a
}

// goldenQuestions are asked of the synthetic knowledge; each answer's JSON
// is kept under testdata/answers.
var goldenQuestions = map[string]string{
	"kep_notes_only": "kep 9001", "kep_disagree_back": "kep 9002", "kep_yaml": "KEP-9003",
	"kep_unknown": "kep 99999", "kep_bad": "kep abc",
	"release": "1.40", "release_no_theme": "v1.41", "release_unknown": "1.42",
	"stage_ga": "1.40 ga", "stage_beta": "beta 1.40", "stage_unknown_release": "1.99 alpha",
	"deprecations": "1.41 弃用", "removals": "1.43 removals", "notices": "1.43 notices",
	"releases": "releases", "gate": "gate widgetscheduling", "gate_notice_only": "gate OldWidgetFlag",
	"gate_typo": "gate WidgetSchedulin", "search": "search widget", "diff": "diff 1.40 1.43",
	"upgrade": "upgrade 1.39 1.41", "sig": "sig node", "sig_release": "sig-node 1.40", "sig_typo": "sig nodde",
	"subscribe": "subscribe deprecations sig:node", "stage_repeat_back": "1.43 beta",
}

func TestEngineGoldenJSON(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)))
	for name, q := range goldenQuestions {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(ask(t, e, q), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "answers", name+".json"), append(got, '\n'))
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (go test -update writes it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

func TestEngineKEP(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)))
	tests := []struct {
		q          string
		title      string
		sig        string
		stage      knowledge.Stage
		milestones map[string]string
		targets    map[string]string
		gates      []string
		timeline   string
		links      int
		notes      []string // parts of the notes, in order
	}{
		{"kep 9001", "KEP-9001: Widget scheduling", "sig-apps", knowledge.StageBeta,
			map[string]string{"alpha": "1.40", "beta": "1.41"}, map[string]string{}, []string{"WidgetScheduling"},
			"alpha 1.40, beta 1.41, beta 1.43 (again)", 1, nil},
		{"kep 9002", "KEP-9002: Quiet probes", "sig-node", knowledge.StageBeta,
			map[string]string{"alpha": "1.40", "beta": "1.40"}, map[string]string{}, []string{"QuietProbes"},
			"alpha 1.40, beta 1.40, stable 1.41, beta 1.43 (back)", 1,
			[]string{"Sources differ on 1.40: a 1.40 blog post (en) says alpha, Kubernetes 1.40 release note (en) says beta.",
				"It stepped back from GA to beta in 1.43."}},
		{"kep 9003", "KEP-9003: Widget volumes", "sig-storage", knowledge.StageBeta,
			map[string]string{"alpha": "1.40", "beta": "1.41"}, map[string]string{"stable": "1.44"}, []string{"WidgetVolumes"},
			"alpha 1.40, beta 1.41", 2, []string{"a 1.40 blog post (en) says beta in 1.40, but kep.yaml says beta in 1.41; I go by kep.yaml."}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			a := ask(t, e, tt.q)
			if a.Kind != knowledge.KindKEP || a.KEP == nil {
				t.Fatalf("Ask(%q) = %s answer %q", tt.q, a.Kind, a.Text)
			}
			f := a.KEP
			if a.Title != tt.title || f.SIG != tt.sig || f.Stage != tt.stage {
				t.Errorf("title %q, SIG %q, stage %v; want %q, %q, %v", a.Title, f.SIG, f.Stage, tt.title, tt.sig, tt.stage)
			}
			if diff := cmp.Diff(tt.milestones, f.Milestones); diff != "" {
				t.Errorf("milestones (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.targets, f.Targets); diff != "" {
				t.Errorf("targets (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.gates, f.FeatureGates); diff != "" {
				t.Errorf("gates (-want +got):\n%s", diff)
			}
			if got := timeline(f.Timeline); got != tt.timeline {
				t.Errorf("timeline %q, want %q", got, tt.timeline)
			}
			if len(f.Links) != tt.links || !strings.HasPrefix(f.Links[0].URL, "https://kep.k8s.io/") {
				t.Errorf("links %+v, want %d starting with kep.k8s.io", f.Links, tt.links)
			}
			if diff := cmp.Diff(tt.notes, a.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if len(a.Items) == 0 || len(a.Sources) == 0 {
				t.Errorf("items %d, sources %d; want both", len(a.Items), len(a.Sources))
			}
			for _, s := range a.Sources {
				if s.AsOf == "" {
					t.Errorf("source %q has no as-of date", s.Name)
				}
			}
		})
	}
}

func timeline(steps []knowledge.Step) string {
	var parts []string
	for _, s := range steps {
		p := s.Stage.String() + " " + s.Release.String()
		if s.Repeat {
			p += " (again)"
		}
		if s.Back {
			p += " (back)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

func TestEngineLists(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)))
	tests := []struct {
		q       string
		kind    knowledge.Kind
		title   string
		keps    []int // item KEP numbers in order
		notices []knowledge.NoticeKind
		notes   int
	}{
		{"1.40 ga", knowledge.KindList, "Kubernetes 1.40: GA", []int{9004, 9005, 0}, nil, 0},
		{"1.40 beta", knowledge.KindList, "Kubernetes 1.40: beta", []int{9002}, nil, 1},
		{"1.40 alpha", knowledge.KindList, "Kubernetes 1.40: alpha", []int{9001, 9002, 9003}, nil, 1},
		{"1.41 ga", knowledge.KindList, "Kubernetes 1.41: GA", []int{9002}, nil, 0},
		{"1.41 deprecations", knowledge.KindList, "Kubernetes 1.41: deprecations", nil, []knowledge.NoticeKind{knowledge.NoticeDeprecation}, 0},
		{"1.43 removals", knowledge.KindList, "Kubernetes 1.43: removals", nil, []knowledge.NoticeKind{knowledge.NoticeRemoval}, 0},
		{"1.43 notices", knowledge.KindList, "Kubernetes 1.43: notices", nil, []knowledge.NoticeKind{knowledge.NoticeRemoval, knowledge.NoticeUpgrade}, 0},
		{"1.40 removals", knowledge.KindList, "Kubernetes 1.40: removals", nil, nil, 0},
		{"search widget", knowledge.KindSearch, "Search: widget", []int{9001, 9003}, nil, 0},
		{"search quiet node", knowledge.KindSearch, "Search: quiet node", []int{9002, 9004}, nil, 0},
		{"sig node", knowledge.KindList, "sig-node", []int{9002, 9004}, nil, 0},
		{"sig node 1.40", knowledge.KindList, "sig-node in Kubernetes 1.40", []int{9002, 9002, 9004}, nil, 0},                                                           // two sources, two stages
		{"diff 1.40 1.43", knowledge.KindDiff, "Kubernetes 1.40 → 1.43", []int{9002, 9001, 9003, 9002}, []knowledge.NoticeKind{"deprecation", "removal", "upgrade"}, 1}, // 9001 beta again in 1.43 is no graduation
		{"1.43 beta", knowledge.KindList, "Kubernetes 1.43: beta", []int{9002}, nil, 1},                                                                                 // 9001 was beta in 1.41: a repeat, noted; 9002 stepped back: shown
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			a := ask(t, e, tt.q)
			if a.Kind != tt.kind || a.Title != tt.title {
				t.Fatalf("Ask(%q) = %s %q (%s), want %s %q", tt.q, a.Kind, a.Title, a.Text, tt.kind, tt.title)
			}
			var keps []int
			for _, it := range a.Items {
				keps = append(keps, it.KEP)
			}
			if diff := cmp.Diff(tt.keps, keps); diff != "" {
				t.Errorf("item KEPs (-want +got):\n%s", diff)
			}
			var kinds []knowledge.NoticeKind
			for _, n := range a.Notices {
				kinds = append(kinds, n.Kind)
			}
			if diff := cmp.Diff(tt.notices, kinds); diff != "" {
				t.Errorf("notice kinds (-want +got):\n%s", diff)
			}
			if len(a.Notes) != tt.notes {
				t.Errorf("notes %q, want %d", a.Notes, tt.notes)
			}
		})
	}
}

func TestEngineRelease(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)), knowledge.WithHighlights(2))
	a := ask(t, e, "1.40")
	want := &knowledge.ReleaseFacts{Version: "1.40", Date: "2030-01-02", Theme: "Lantern", Enhancements: knowledge.Counts{Total: 6, Stable: 3, Beta: 2, Alpha: 1}}
	if diff := cmp.Diff(want, a.Release); diff != "" {
		t.Errorf("release facts (-want +got):\n%s", diff)
	}
	if len(a.Items) != 2 || a.Items[0].Stage != knowledge.StageStable || len(a.Notes) != 1 {
		t.Errorf("highlights %+v notes %q; want 2 GA items first and a note on the rest", a.Items, a.Notes)
	}
	if a.Text != "Kubernetes 1.40 (Lantern), released 2030-01-02: 6 enhancements (3 GA, 2 beta, 1 alpha)." {
		t.Errorf("text %q", a.Text)
	}
	if b := ask(t, e, "1.41"); b.Release.Theme != "" || strings.Contains(b.Text, "(") && strings.Contains(b.Text, "()") {
		t.Errorf("1.41 has no theme, got %q / %q", b.Release.Theme, b.Text)
	}
	r := ask(t, e, "releases")
	if r.Kind != knowledge.KindReleases || len(r.Facts) != 3 || r.Facts[2].Name != "1.43" {
		t.Errorf("releases = %+v", r.Facts)
	}
}

func TestEngineErrors(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)))
	tests := []struct {
		q, code, message string
		suggest          []string
	}{
		{"kep 99999", knowledge.ENOTFOUND, "I don't know KEP-99999.", nil},
		{"1.99", knowledge.ENOTFOUND, "I don't know Kubernetes 1.99. I know 1.40, 1.41, 1.43.", []string{"1.43"}},
		{"1.42 ga", knowledge.ENOTFOUND, "I don't know Kubernetes 1.42. I know 1.40, 1.41, 1.43.", []string{"1.43 ga"}},
		{"1.39 removals", knowledge.ENOTFOUND, "I don't know Kubernetes 1.39. I know 1.40, 1.41, 1.43.", []string{"1.40 removals"}},
		{"gate WidgetSchedulin", knowledge.ENOTFOUND, "I don't know a feature gate named WidgetSchedulin.", []string{"gate WidgetScheduling"}},
		{"sig nodde", knowledge.ENOTFOUND, "I know no KEP of sig-nodde.", []string{"sig node"}},
		{"search zebra", knowledge.ENOTFOUND, "I found no KEP matching those words.", nil},
		{"diff 1.20 1.30", knowledge.ENOTFOUND, "I know no release after 1.20 up to 1.30.", nil},
		{"kep abc", knowledge.EBADINPUT, `"abc" is not a KEP number. Usage: kep NUMBER, e.g. kep 4639.`, nil},
		{"subscribe deprecations", knowledge.EBADINPUT, "Subscriptions are not available yet.", nil},
		{"unsubscribe deprecations", knowledge.EBADINPUT, "Subscriptions are not available yet.", nil},
		{"subscriptions", knowledge.EBADINPUT, "Subscriptions are not available yet.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			a := ask(t, e, tt.q)
			if a.Kind != knowledge.KindError || a.Error == nil || a.Error.Code != tt.code {
				t.Fatalf("Ask(%q) = %s %+v, want error %s", tt.q, a.Kind, a.Error, tt.code)
			}
			if !strings.HasPrefix(a.Text, tt.message) {
				t.Errorf("message %q, want it to start %q", a.Text, tt.message)
			}
			if diff := cmp.Diff(tt.suggest, a.Suggest); diff != "" {
				t.Errorf("suggestions (-want +got):\n%s", diff)
			}
		})
	}
}

// failingStore is a real store whose KEP lookups fail as a broken disk would.
type failingStore struct{ knowledge.KnowledgeStore }

func (failingStore) FindKEPByNumber(context.Context, int) (*knowledge.KEP, error) {
	return nil, errors.New("read /var/lib/kepbot.db: input/output error")
}

func TestEngineHidesInternalErrors(t *testing.T) {
	e := knowledge.NewEngine(failingStore{openStore(t, synthetic(t))})
	a := ask(t, e, "kep 9001")
	if a.Kind != knowledge.KindError || a.Error.Code != knowledge.EINTERNAL || strings.Contains(a.Text, "/var/lib") {
		t.Errorf("Ask over a failing store = %+v; want an internal error that hides the cause", a)
	}
	_, err := e.Answer(context.Background(), knowledge.Question{Kind: knowledge.AskKEP, KEP: 9001})
	if err == nil || !strings.Contains(err.Error(), "find KEP-9001") {
		t.Errorf("Answer error %v; want it wrapped with what was looked up", err)
	}
}

func TestEngineContextCanceled(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Answer(ctx, knowledge.Question{Kind: knowledge.AskKEP, KEP: 9001}); !errors.Is(err, context.Canceled) {
		t.Errorf("Answer with a canceled context: %v", err)
	}
}

func TestEngineQueryIsCanonical(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)))
	for in, want := range map[string]string{"KEP-9001": "kep 9001", "稳定 v1.40": "1.40 ga", "upgrade 1.41 1.40": "upgrade 1.40 1.41"} {
		if got := ask(t, e, in).Query; got != want {
			t.Errorf("Ask(%q).Query = %q, want %q", in, got, want)
		}
	}
}

func TestQuoteIsShortAndSingleSpaced(t *testing.T) {
	e := knowledge.NewEngine(openStore(t, synthetic(t)), knowledge.WithMaxQuote(12))
	a := ask(t, e, "kep 9001")
	for _, it := range a.Items {
		if n := len([]rune(it.Text)); n > 12 || strings.Contains(it.Text, "  ") {
			t.Errorf("quote %q: %d runes, want at most 12, single-spaced", it.Text, n)
		}
	}
	if got := a.Items[0].Text; got != "Widgets can…" {
		t.Errorf("first quote %q, want %q", got, "Widgets can…")
	}
}
