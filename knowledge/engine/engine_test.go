package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/internal/goldentest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
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

func ask(t testing.TB, e *engine.Engine, q string) *knowledge.Answer {
	t.Helper()
	a := question.NewAsker(nil, e).Ask(context.Background(), q, knowledge.Origin{Platform: "console"})
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
	"kep_name_disagree": "kep 9006", "kep_many_disagree": "kep 9007", "kep_deprecated": "kep 9008",
	"release_from_kep_yaml": "1.44", "stage_from_kep_yaml": "1.44 ga",
	"search_cjk": "search 只读卷", "search_phrase": "search widget volumes", "search_gate": "search harbourprobes",
	"diff_bad_order": "diff 1.43 1.40", "diff_unknown": "diff 1.40 1.50", "upgrade_api": "upgrade 1.41 1.43",
	"sig_words": "SIG Node 1.40", "gate_yaml": "gate harbourprobes",
	// the code's feature gates (GateTables of the synthetic corpus, 1.40-1.43)
	"gate_code_only": "gate widgetdrift", "gate_removed": "gate RetiredWidgets", "gate_kubeadm": "gate ControlPlaneWidgets",
	"gate_default_yes": "is WidgetDrift on by default in 1.42", "gate_default_no": "is WidgetDrift enabled in 1.43",
	"gate_default_removed": "is RetiredWidgets on by default in 1.43", "gate_default_not_yet": "ControlPlaneWidgets default in 1.40",
	"gate_default_unread": "is WidgetDrift on by default in 1.44", "gate_placeholder": "gate None",
	"gate_changes": "1.42 gates", "gate_changes_oldest": "gates 1.40", "gate_changes_unread": "1.44 gates", "upgrade_gates": "upgrade 1.40 1.43",
	"eol_past": "1.40 eol", "eol_maintenance": "1.41 end of life", "eol_supported": "eol 1.43", "eol_planned": "1.44 eol",
	"eol_unknown": "1.39 eol", "eol_unknown_release": "1.99 eol", "patches_unknown_release": "1.99 patches", "patches": "1.43 patches", "patches_few": "latest 1.41 patch", "patches_lifecycle_only": "1.40 patches",
	"supported": "supported", "latest": "latest",
	"is_kep_yes": "is kep 9003 beta", "is_kep_no_in": "is kep 9003 ga in 1.40", "is_supported_no": "is 1.40 supported",
	"is_supported_yes": "is 1.43 supported", "is_kep_removed": "is kep 9008 deprecated", "action_required": "1.43 action required", "deprecations_relnotes": "1.43 deprecations",
	"cves_patch": "cves 1.43.1", "cves_minor": "cves 1.43", "cve": "cve CVE-2031-1001", "cve_yes": "is 1.43.1 affected by CVE-2031-1001",
	"cve_no": "is 1.43.2 affected by GHSA-aaaa-bbbb-3101", "cve_other_product": "cve CVE-2031-1003", "cve_unknown": "cve CVE-2031-9999",
	"upgrade_patch": "upgrade 1.43.1 1.43.3", "cves_unknown_patch": "cves 1.43.9",
}

// goldenDay is "today" for the golden answers: the synthetic lifecycle has
// 1.40 past its end of life, 1.41 in maintenance, 1.43 supported and 1.44
// planned on this day.
var goldenDay = time.Date(2031, 3, 1, 12, 0, 0, 0, time.UTC)

func TestEngineGoldenJSON(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)), engine.WithClock(func() time.Time { return goldenDay }))
	for name, q := range goldenQuestions {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(ask(t, e, q), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			goldentest.Compare(t, filepath.Join("testdata", "answers", name+".json"), append(got, '\n'), *update)
		})
	}
}

func TestEngineKEP(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)))
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
			"alpha 1.40, beta 1.41, beta 1.43 (again)", 2,
			[]string{"The Kubernetes 1.41 release note (zh) lists it as beta in 1.41; the Kubernetes 1.43 release note (en) also lists it as beta in 1.43 — the notes disagree; I count it beta from 1.41, and each release lists it as its note does."}},
		{"kep 9002", "KEP-9002: Quiet probes", "sig-node", knowledge.StageBeta,
			map[string]string{"alpha": "1.40", "beta": "1.40"}, map[string]string{}, []string{"QuietProbes"},
			"alpha 1.40, beta 1.40, stable 1.41, beta 1.43 (back)", 1,
			[]string{"Sources differ on 1.40: a 1.40 blog post (en) says alpha, the Kubernetes 1.40 release note (en) says beta.",
				"It stepped back from GA to beta in 1.43."}},
		{"kep 9003", "KEP-9003: Widget volumes", "sig-storage", knowledge.StageBeta,
			map[string]string{"alpha": "1.40", "beta": "1.41"}, map[string]string{"stable": "1.44"}, []string{"WidgetVolumes"},
			"alpha 1.40, beta 1.41", 3, []string{"A 1.40 blog post (en) says beta in 1.40; kep.yaml says beta in 1.41 — I go by kep.yaml."}},
		{"kep 9006", "KEP-9006: Lantern metrics API", "sig-instrumentation", knowledge.StageStable,
			map[string]string{"alpha": "1.38", "beta": "1.40", "stable": "1.44"}, map[string]string{}, []string{"LanternMetrics"},
			"alpha 1.38, beta 1.40, stable 1.44", 2,
			[]string{"The Kubernetes 1.41 release note (zh) calls this KEP 'WidgetVolumes 只读卷'; kep.yaml names it 'Lantern metrics API' — it likely means KEP-9003."}},
		{"kep 9007", "KEP-9007: Harbour probes", "sig-node", knowledge.StageBeta,
			map[string]string{"alpha": "1.40", "beta": "1.41"}, map[string]string{"stable": "1.43"}, []string{"HarbourProbes"},
			"alpha 1.40, beta 1.41", 2,
			[]string{
				// the code of 1.41 declares HarbourProbes beta, as kep.yaml says
				"A 1.40 blog post (en) and the Kubernetes 1.40 release note (en) say beta in 1.40; beta in 1.41 by the code of 1.41 (HarbourProbes) — I go by what shipped.",
				"The Kubernetes 1.40 release note (en) says GA in 1.40; kep.yaml has it at beta, with GA planned for 1.43 — I go by kep.yaml.",
				"The Kubernetes 1.41 release note (zh) says alpha in 1.41; kep.yaml says alpha in 1.40 — I go by kep.yaml.",
				"And 2 more (bot check lists all).",
			}},
		{"kep 9008", "KEP-9008: Legacy widget sync", "sig-apps", knowledge.StageDeprecated,
			map[string]string{"alpha": "1.38", "stable": "1.39"}, map[string]string{}, []string{"LegacyWidgetSync"},
			"alpha 1.38, stable 1.39, deprecated 1.41", 2, nil},
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
			if (len(a.Items) == 0 && tt.q != "kep 9008") || len(a.Sources) == 0 { // no document speaks of KEP-9008
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
	e := engine.New(openStore(t, synthetic(t)))
	tests := []struct {
		q       string
		kind    knowledge.Kind
		title   string
		keps    []int // item KEP numbers in order
		notices []knowledge.NoticeKind
		notes   int
	}{
		{"1.40 ga", knowledge.KindList, "Kubernetes 1.40: GA", []int{9004, 9005, 0}, nil, 0},
		{"1.40 beta", knowledge.KindList, "Kubernetes 1.40: beta", []int{9002, 9006}, nil, 0},
		{"1.40 alpha", knowledge.KindList, "Kubernetes 1.40: alpha", []int{9001, 9002, 9003, 9007}, nil, 1},
		{"1.44 ga", knowledge.KindList, "Kubernetes 1.44: GA", []int{9006}, nil, 0}, // from kep.yaml alone
		{"1.39 ga", knowledge.KindList, "Kubernetes 1.39: GA", []int{9008}, nil, 0},
		{"1.41 ga", knowledge.KindList, "Kubernetes 1.41: GA", []int{9002}, nil, 0},
		{"1.41 deprecations", knowledge.KindList, "Kubernetes 1.41: deprecations", nil, []knowledge.NoticeKind{knowledge.NoticeDeprecation}, 0},
		// The release note's and the guide's widget v1beta1 removals are one change told twice: one item, with a note.
		{"1.43 removals", knowledge.KindList, "Kubernetes 1.43: removals", nil, []knowledge.NoticeKind{knowledge.NoticeRemoval, knowledge.NoticeRemoval}, 1},
		{"1.43 notices", knowledge.KindList, "Kubernetes 1.43: notices", nil, []knowledge.NoticeKind{knowledge.NoticeRemoval, knowledge.NoticeUpgrade,
			knowledge.NoticeDeprecation, knowledge.NoticeUpgrade, knowledge.NoticeRemoval}, 1}, // the release notes' entries follow the note's
		{"1.40 removals", knowledge.KindList, "Kubernetes 1.40: removals", nil, nil, 0},
		{"search widget", knowledge.KindSearch, "Search: widget", []int{9001, 9003, 9008}, nil, 0},         // names, by number; the 1.41 note on 9006 means 9003
		{"search quiet node", knowledge.KindSearch, "Search: quiet node", []int{9002, 9004, 9007}, nil, 0}, // a phrase in the name, then the SIG
		{"search 港口", knowledge.KindSearch, "Search: 港口", []int{9007}, nil, 0},                             // a Chinese note's words, by bigram
		{"search lanternmetrics", knowledge.KindSearch, "Search: lanternmetrics", []int{9006}, nil, 0},     // a feature gate
		{"search 9003", knowledge.KindSearch, "Search: 9003", []int{9003}, nil, 0},                         // a KEP number
		{"search 只读卷", knowledge.KindSearch, "Search: 只读卷", []int{9003}, nil, 0},                           // the note numbers it 9006 but means 9003
		{"sig node", knowledge.KindSIG, "sig-node", []int{9002, 9004, 9007}, nil, 0},
		{"sig-node 1.40", knowledge.KindSIG, "sig-node in Kubernetes 1.40", []int{9004, 9002, 9002, 9007}, nil, 0}, // two sources, two stages
		{"diff 1.40 1.43", knowledge.KindDiff, "Kubernetes 1.40 → 1.43", []int{9002, 9001, 9003, 9007, 9002, 9008},
			[]knowledge.NoticeKind{"deprecation", "removal", "upgrade", "deprecation", "upgrade", "removal"}, 2}, // 9001 beta again in 1.43 is no graduation; the API removal said twice is shown once
		{"upgrade 1.40 1.43", knowledge.KindDiff, "Upgrading from 1.40 to 1.43", []int{9008, 9002, 9001, 9003, 9007, 9002},
			[]knowledge.NoticeKind{"removal", "removal", "upgrade", "upgrade", "deprecation", "deprecation"}, 5}, // what breaks first: the API, the other removals, what needs action, deprecations; three notes say where the vulnerabilities were counted
		{"1.43 beta", knowledge.KindList, "Kubernetes 1.43: beta", []int{9001, 9002}, nil, 1}, // 9001 was beta in 1.41: listed as 1.43's note lists it, noted; 9002 stepped back: shown
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
	e := engine.New(openStore(t, synthetic(t)), engine.WithHighlights(2))
	a := ask(t, e, "1.40")
	want := &knowledge.ReleaseFacts{Version: "1.40", Date: "2030-01-02", Theme: "Lantern", Enhancements: knowledge.Counts{Total: 6, Stable: 3, Beta: 2, Alpha: 1}}
	if diff := cmp.Diff(want, a.Release); diff != "" {
		t.Errorf("release facts (-want +got):\n%s", diff)
	}
	if len(a.Items) != 2 || a.Items[0].Stage != knowledge.StageStable || len(a.Notes) != 1 {
		t.Errorf("highlights %+v notes %q; want 2 GA items first and a note on the rest", a.Items, a.Notes)
	}
	if a.Text != "Kubernetes 1.40 (Lantern), released 2030-01-02 (the day the lifecycle record gives): 6 enhancements (3 GA, 2 beta, 1 alpha)." {
		t.Errorf("text %q", a.Text)
	}
	if b := ask(t, e, "1.41"); b.Release.Theme != "" || strings.Contains(b.Text, "(") && strings.Contains(b.Text, "()") {
		t.Errorf("1.41 has no theme, got %q / %q", b.Release.Theme, b.Text)
	}
	r := ask(t, e, "releases")
	var got []string
	for _, rf := range r.Releases {
		got = append(got, rf.Version+" "+rf.Date+" "+rf.Theme)
	}
	if diff := cmp.Diff([]string{"1.40 2030-01-02 Lantern", "1.41 2030-05-06 ", "1.43 2030-12-10 Harbour"}, got); diff != "" {
		t.Errorf("releases (-want +got):\n%s", diff)
	}
	if want := []knowledge.Fact{{Name: "Not announced", Value: "1.38, 1.39, 1.44"}}; r.Kind != knowledge.KindReleases || !cmp.Equal(want, r.Facts) {
		t.Errorf("releases = %s %+v, want the releases kep.yaml alone knows apart", r.Kind, r.Facts)
	}
}

func TestEngineErrors(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)))
	tests := []struct {
		q, code, message string
		suggest          []string
	}{
		{"kep 99999", knowledge.ENOTFOUND, "I don't know KEP-99999. No kep.yaml I hold has that number (kubernetes/enhancements as of 2031-05-01); ask search WORDS to find a KEP by its name or gate.", []string{"help search"}},
		{"1.99", knowledge.ENOTFOUND, "I don't know Kubernetes 1.99. I know 1.40, 1.41, 1.43 (announced), and 1.38, 1.39, 1.44 from kep.yaml or the API guide only.", []string{"1.44"}},
		{"1.42 ga", knowledge.ENOTFOUND, "I don't know Kubernetes 1.42. I know 1.40, 1.41, 1.43 (announced), and 1.38, 1.39, 1.44 from kep.yaml or the API guide only.", []string{"1.43 ga"}},
		{"1.37 removals", knowledge.ENOTFOUND, "I don't know Kubernetes 1.37. I know 1.40, 1.41, 1.43 (announced), and 1.38, 1.39, 1.44 from kep.yaml or the API guide only.", []string{"1.38 removals"}},
		{"gate WidgetSchedulin", knowledge.ENOTFOUND, "I don't know a feature gate named WidgetSchedulin.", []string{"gate WidgetScheduling"}},
		{"search zebra", knowledge.ENOTFOUND, "I found no KEP matching those words.", nil},
		{"diff 1.20 1.30", knowledge.ENOTFOUND, "I don't know Kubernetes 1.20. I know 1.40, 1.41, 1.43 (announced), and 1.38, 1.39, 1.44 from kep.yaml or the API guide only.", nil}, // no known release before 1.30 to suggest
		{"diff 1.20 1.41", knowledge.ENOTFOUND, "I don't know Kubernetes 1.20.", []string{"diff 1.38 1.41"}},
		{"upgrade 1.40 1.50", knowledge.ENOTFOUND, "I don't know Kubernetes 1.50.", []string{"upgrade 1.40 1.44"}},
		{"diff 1.43 1.40", knowledge.EBADINPUT, "1.40 is older than 1.43: give the release you run first, then the one you go to: diff 1.40 1.43.", []string{"diff 1.40 1.43"}},
		{"sig nodde", knowledge.ENOTFOUND, "I know no KEP of sig-nodde. SIGs I know: apps, instrumentation, node, storage.", []string{"sig node"}},
		{"gate harbourprobe", knowledge.ENOTFOUND, "I don't know a feature gate named harbourprobe.", []string{"gate HarbourProbes"}},
		{"kep abc", knowledge.EBADINPUT, `"abc" is not a KEP number. Usage: kep NUMBER, e.g. kep 4639.`, nil},
		{"subscribe deprecations", knowledge.EBADINPUT, "Subscriptions are not set up here", nil},
		{"unsubscribe deprecations", knowledge.EBADINPUT, "Subscriptions are not set up here", nil},
		{"subscriptions", knowledge.EBADINPUT, "Subscriptions are not set up here", nil},
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

func (failingStore) ListKEPs(context.Context) ([]*knowledge.KEP, error) {
	return nil, errors.New("read /var/lib/kepbot.db: input/output error")
}

func TestEngineHidesInternalErrors(t *testing.T) {
	e := engine.New(failingStore{openStore(t, synthetic(t))})
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
	e := engine.New(openStore(t, synthetic(t)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Answer(ctx, knowledge.Question{Kind: knowledge.AskKEP, KEP: 9001}); !errors.Is(err, context.Canceled) {
		t.Errorf("Answer with a canceled context: %v", err)
	}
}

func TestEngineQueryIsCanonical(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)))
	for in, want := range map[string]string{"KEP-9001": "kep 9001", "稳定 v1.40": "1.40 ga", "upgrade v1.40 → v1.41": "upgrade 1.40 1.41", "SIG Node": "sig node"} {
		if got := ask(t, e, in).Query; got != want {
			t.Errorf("Ask(%q).Query = %q, want %q", in, got, want)
		}
	}
}

func TestQuoteIsShortAndSingleSpaced(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)), engine.WithMaxQuote(12))
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

// TestEmptyNoticeListPointsToTheOthers: a release with none of the kind
// asked for says which kinds it has, as questions that work, whether the
// answer comes from the catalog or the store.
func TestEmptyNoticeListPointsToTheOthers(t *testing.T) {
	for _, warm := range []bool{false, true} {
		e := engine.New(openStore(t, synthetic(t)))
		if warm {
			if err := e.Warm(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		for q, want := range map[string]string{
			"1.41 removals": "I know of no removals in Kubernetes 1.41. It has 1 deprecation: ask 1.41 deprecations." +
				" I hold release notes as data from 1.43 on; for 1.41 this list comes from the other documents only.",
			"1.40 removals": "I know of no removals in Kubernetes 1.40. I hold release notes as data from 1.43 on; for 1.40 this list comes from the other documents only.",
			"1.44 removals": "I know of no removals in Kubernetes 1.44. I hold no release notes of 1.44 yet (the newest I hold are 1.43's), so this list may grow.",
		} {
			if got := ask(t, e, q).Text; got != want {
				t.Errorf("warm %v, %q: %q, want %q", warm, q, got, want)
			}
		}
	}
}

// TestEmptyNoticeListFromSnapshotSaysSo: the built-in snapshot keeps no
// notice without a KEP or an API, so "none" from it says how to get more.
func TestEmptyNoticeListFromSnapshotSaysSo(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	c.Sources = append(c.Sources, knowledge.Source{ID: "snapshot", Name: "built-in snapshot", Kind: knowledge.SourceSnapshot})
	for _, warm := range []bool{false, true} {
		e := engine.New(openStore(t, knowledge.Compile(&c)))
		if warm {
			if err := e.Warm(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if got := ask(t, e, "1.40 removals").Text; !strings.Contains(got, "run bot sync or bot ingest") {
			t.Errorf("warm %v: %q does not say the snapshot keeps fewer notices", warm, got)
		}
		if got := ask(t, e, "1.43 removals").Text; strings.Contains(got, "snapshot") {
			t.Errorf("warm %v: a list with notices speaks of the snapshot: %q", warm, got)
		}
	}
}

func TestItemsWithoutSharedSIG(t *testing.T) {
	items := []knowledge.Item{{KEP: 1, SIG: "sig-node"}, {KEP: 2, SIG: "SIG-Node"}}
	a := &knowledge.Answer{Kind: knowledge.KindSIG, Items: items}
	got := a.ItemsWithoutSharedSIG()
	if got[0].SIG != "" || got[1].SIG != "" {
		t.Errorf("one SIG throughout: %+v, want the SIG left out", got)
	}
	if a.Items[0].SIG != "sig-node" {
		t.Error("ItemsWithoutSharedSIG changed the answer's own items")
	}
	a.Items = []knowledge.Item{{KEP: 1, SIG: "sig-node"}, {KEP: 2, SIG: "sig-apps"}}
	if got := a.ItemsWithoutSharedSIG(); got[1].SIG != "sig-apps" {
		t.Errorf("two SIGs: %+v, want them kept", got)
	}
	list := &knowledge.Answer{Kind: knowledge.KindList, Items: items}
	if got := list.ItemsWithoutSharedSIG(); got[0].SIG != "sig-node" {
		t.Errorf("not a SIG's answer: %+v, want the SIG kept", got)
	}
}
