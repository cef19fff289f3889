package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
)

var updateAnswers = flag.Bool("update-answers", false, "capture testdata/answers again from the engine over testdata/corpus.json")

// engineGoldens name the answers under testdata/answers that the engine
// gave over testdata/corpus.json (made-up releases, KEPs and notices, one
// title trying mentions), and how each is drawn. TestEngineGolden renders
// each and keeps the result under testdata/golden, so a change in the
// engine's wording moves the captured answers (-update-answers), not the
// renderer's goldens (-update).
var engineGoldens = map[string]RenderOptions{
	"engine_releases":            {Slash: true},
	"engine_sig":                 {Slash: true},
	"engine_sig_release":         {Slash: true},
	"engine_subscribe":           {Slash: true, Public: true},
	"engine_subscriptions":       {Slash: true},
	"engine_subscriptions_empty": {Slash: true},
	"engine_digest_compact":      {Whole: true},
	"engine_digest_full":         {Whole: true},
	"engine_eol":                 {Slash: true},
	"engine_patches":             {Slash: true},
	"engine_action_required":     {Slash: true},
	"engine_deprecations":        {Slash: true},
	"engine_supported":           {Slash: true},
	"engine_gate":                {Slash: true},
	"engine_gate_default":        {Slash: true},
	"engine_gate_changes":        {Slash: true},
	"engine_upgrade_gates":       {Slash: true},
	"engine_cves":                {Slash: true},
	"engine_cve":                 {Slash: true},
	"engine_cve_verdict":         {Slash: true},
	"engine_cve_other":           {Slash: true},
	"engine_upgrade_cves":        {Slash: true},
}

// captureAnswers asks the real engine, with subscriptions, over a real
// bbolt file holding testdata/corpus.json, for every answer engineGoldens
// names.
func captureAnswers(t *testing.T) map[string]*knowledge.Answer {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("corpus.json: %v", err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Knowledge().ReplaceKnowledge(ctx, knowledge.Compile(&c)); err != nil {
		t.Fatal(err)
	}
	svc := digest.NewSubscriptions(digest.SubscriptionConfig{
		Store: db.Subscriptions(), Ledger: db.Subscriptions(), Knowledge: db.Knowledge(),
		CanManage: func(_ context.Context, o knowledge.Origin) (bool, error) { return o.CanManage, nil },
		Now:       func() time.Time { return time.Date(2030, 10, 7, 9, 0, 0, 0, time.UTC) },
	})
	eng := engine.New(db.Knowledge(), engine.WithSubscriptions(svc),
		engine.WithClock(func() time.Time { return time.Date(2031, 3, 1, 12, 0, 0, 0, time.UTC) }))
	from := knowledge.Origin{Platform: Platform, Workspace: "T1", Channel: "C1", User: "UADMIN", UserName: "ada", CanManage: true}
	ask := question.NewAsker(nil, eng)
	out := map[string]*knowledge.Answer{
		"engine_releases":            ask.Ask(ctx, "releases", from),
		"engine_sig":                 ask.Ask(ctx, "sig node", from),
		"engine_sig_release":         ask.Ask(ctx, "sig node 1.42", from),
		"engine_subscriptions_empty": ask.Ask(ctx, "subscriptions", from),
		"engine_subscribe":           ask.Ask(ctx, "subscribe deprecations sig:node schedule:weekly", from),
		"engine_subscriptions":       ask.Ask(ctx, "subscriptions", from),
		"engine_eol":                 ask.Ask(ctx, "1.41 eol", from),
		"engine_patches":             ask.Ask(ctx, "1.42 patches", from),
		"engine_action_required":     ask.Ask(ctx, "1.42 action required", from),
		"engine_deprecations":        ask.Ask(ctx, "1.42 deprecations", from),
		"engine_supported":           ask.Ask(ctx, "supported", from),
		"engine_gate":                ask.Ask(ctx, "gate LampProbes", from),
		"engine_gate_default":        ask.Ask(ctx, "is KettleLegacy on by default in 1.42", from),
		"engine_gate_changes":        ask.Ask(ctx, "1.42 gates", from),
		"engine_upgrade_gates":       ask.Ask(ctx, "upgrade 1.40 1.42", from),
		"engine_cves":                ask.Ask(ctx, "cves 1.42.1", from),
		"engine_cve":                 ask.Ask(ctx, "cve CVE-2031-1001", from),
		"engine_cve_verdict":         ask.Ask(ctx, "is 1.42.1 affected by CVE-2031-1001", from),
		"engine_cve_other":           ask.Ask(ctx, "cve CVE-2031-1003", from),
		"engine_upgrade_cves":        ask.Ask(ctx, "upgrade 1.42.1 1.42.2", from),
	}
	set, err := digest.LoadNoticeSet(ctx, db.Knowledge(), db.Subscriptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{digest.FormatCompact, digest.FormatFull} {
		d, _, ok := digest.BuildDigest(set, digest.Filter{Schedule: digest.ScheduleWeekly, Format: format}, digest.Seen{}, digest.ScheduleWeekly)
		if !ok {
			t.Fatal("the corpus gives no digest")
		}
		out["engine_digest_"+format] = digest.RenderDigest(&d, format)
	}
	return out
}

func TestEngineGolden(t *testing.T) {
	var captured map[string]*knowledge.Answer
	if *updateAnswers {
		captured = captureAnswers(t)
	}
	for name, opts := range engineGoldens {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join("testdata", "answers", name+".json")
			if *updateAnswers {
				writeIndented(t, in, captured[name])
			}
			b, err := os.ReadFile(in)
			if err != nil {
				t.Fatalf("read answer (go test -update-answers captures it): %v", err)
			}
			var a knowledge.Answer
			if err := json.Unmarshal(b, &a); err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			if a.Kind == knowledge.KindError {
				t.Fatalf("the engine refused: %s", a.Text)
			}
			m, cut := render(&a, opts)
			if p := CheckLimits(m); p != nil {
				t.Errorf("over Slack's limits: %v", p)
			}
			if opts.Whole && (cut || !(&Poster{}).Fits(&a)) {
				t.Error("a small digest does not fit one message whole")
			}
			js := string(m.AppendJSON(nil))
			for _, bad := range []string{"<!channel>", "<!here>", "<@U0BAD>", "<https://evil"} {
				if strings.Contains(js, bad) {
					t.Errorf("the message holds %q unescaped", bad)
				}
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, m.AppendJSON(nil), "", "  "); err != nil {
				t.Fatal(err)
			}
			pretty.WriteByte('\n')
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), pretty.String()); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", path, diff)
			}
			assertSlackGoReads(t, m)
		})
	}
}

func writeIndented(t *testing.T, path string, v any) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
