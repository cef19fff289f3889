package slack

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	slackapi "github.com/slack-go/slack"

	"github.com/kepbot/kepbot/internal/goldentest"
	"github.com/kepbot/kepbot/knowledge"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenAnswers are one answer of each kind, shaped like the engine's.
func goldenAnswers() map[string]struct {
	a    *knowledge.Answer
	opts RenderOptions
} {
	v := knowledge.MustVersion
	src := []knowledge.SourceRef{{Name: "Kubernetes 1.40 release note (en)", AsOf: "2030-01-02"}}
	release := &knowledge.Answer{Kind: knowledge.KindRelease, Title: "Kubernetes 1.40", Text: "Kubernetes 1.40 (Lantern), released 2030-01-02: 6 enhancements.",
		Release: &knowledge.ReleaseFacts{Version: "1.40", Date: "2030-01-02", Theme: "Lantern", Enhancements: knowledge.Counts{Total: 6, Stable: 3, Beta: 2, Alpha: 1}},
		Facts:   []knowledge.Fact{{Name: "Listed", Value: "3 GA, 1 beta, 3 alpha"}},
		Items: []knowledge.Item{{KEP: 9004, Title: "Steady clocks", Stage: knowledge.StageStable, Release: v("1.40"), SIG: "sig-node", Text: "Steady clocks graduate."},
			{Title: "A change without a KEP", Stage: knowledge.StageBeta, Release: v("1.40")}},
		Notes: []string{"Showing 2 of 7 items; ask 1.40 ga for the list."}, Sources: src, Query: "1.40"}
	notices := &knowledge.Answer{Kind: knowledge.KindList, Title: "Kubernetes 1.43: notices", Text: "2 notices.",
		Notices: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: v("1.43"), Title: "FlowSchema v1beta3", KEP: 9010,
			API: &knowledge.APIChange{GroupVersion: "flowcontrol.apiserver.k8s.io/v1beta3", ReplacedBy: "flowcontrol.apiserver.k8s.io/v1"}},
			{Kind: knowledge.NoticeDeprecation, Release: v("1.43"), Title: "OldWidgetFlag", Text: "Use --widget instead."}},
		Sources: src, Query: "1.43 notices"}
	releases := &knowledge.Answer{Kind: knowledge.KindReleases, Title: "Known releases", Text: "3 releases.",
		Facts:   []knowledge.Fact{{Name: "1.40", Value: "2030-01-02, Lantern"}, {Name: "1.41", Value: "2030-05-06"}, {Name: "1.43", Value: "2030-12-10"}},
		Sources: src, Query: "releases"}
	search := &knowledge.Answer{Kind: knowledge.KindSearch, Title: "Search: widget", Text: "2 KEPs match.",
		Items: []knowledge.Item{{KEP: 9001, Title: "Widget scheduling", Stage: knowledge.StageBeta, SIG: "sig-scheduling", Rank: 1},
			{KEP: 9003, Title: "Widget volumes", Stage: knowledge.StageAlpha, Rank: 2}}, Query: "search widget"}
	gate := &knowledge.Answer{Kind: knowledge.KindGate, Title: "Feature gate WidgetScheduling", Text: "WidgetScheduling belongs to KEP-9001.",
		Items: []knowledge.Item{{KEP: 9001, Title: "Widget scheduling", Stage: knowledge.StageAlpha, Release: v("1.40")}}, Query: "gate WidgetScheduling"}
	diff := &knowledge.Answer{Kind: knowledge.KindDiff, Title: "Kubernetes 1.40 → 1.43", Text: "What changed after 1.40 up to 1.43.",
		Items:   []knowledge.Item{{KEP: 9002, Title: "Quiet probes", Stage: knowledge.StageStable, Release: v("1.41")}},
		Notices: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: v("1.43"), Title: "OldWidgetFlag"}},
		Notes:   []string{"Sources disagree on KEP-9002."}, Query: "diff 1.40 1.43"}
	help := &knowledge.Answer{Kind: knowledge.KindHelp, Title: "kepbot help", Text: "Ask me about Kubernetes releases and KEPs.", Query: "help",
		Facts: []knowledge.Fact{{Name: "kep NUMBER", Value: "one KEP (e.g. kep 4639)"}, {Name: "VERSION STAGE", Value: "what reached a stage (e.g. 1.29 ga)"}}}
	notFound := knowledge.ErrorAnswer(&knowledge.Error{Code: knowledge.ENOTFOUND, Message: "I don't know release 1.42.", Suggestions: []string{"1.43", "1.41"}})
	internal := knowledge.ErrorAnswer(os.ErrPermission)
	subscription := knowledge.ErrorAnswer(knowledge.Errorf(knowledge.EBADINPUT, "Subscriptions are not available yet."))
	return map[string]struct {
		a    *knowledge.Answer
		opts RenderOptions
	}{
		"kep":                   {kepAnswer(), RenderOptions{Slash: true}},
		"kep_public":            {kepAnswer(), RenderOptions{Slash: true, Public: true}},
		"kep_mention":           {kepAnswer(), RenderOptions{}},
		"release":               {release, RenderOptions{Slash: true}},
		"list_page1":            {listAnswer("1.40", 30), RenderOptions{Slash: true}},
		"list_page2_public":     {listAnswer("1.40", 30), RenderOptions{Slash: true, Public: true, Page: 1, Replace: true}},
		"list_page3":            {listAnswer("1.40", 30), RenderOptions{Slash: true, Page: 2, Replace: true}},
		"notices":               {notices, RenderOptions{Slash: true}},
		"releases":              {releases, RenderOptions{Slash: true}},
		"search":                {search, RenderOptions{Slash: true}},
		"gate":                  {gate, RenderOptions{Slash: true}},
		"diff":                  {diff, RenderOptions{Slash: true}},
		"help_public_stays_own": {help, RenderOptions{Slash: true, Public: true}},
		"error_not_found":       {notFound, RenderOptions{Slash: true, Public: true}},
		"error_internal":        {internal, RenderOptions{Slash: true}},
		"error_subscription":    {subscription, RenderOptions{}},
	}
}

// TestGolden renders one answer of each kind and compares the JSON with
// testdata/golden/NAME.json; -update rewrites them (review the diff).
func TestGolden(t *testing.T) {
	for name, tt := range goldenAnswers() {
		t.Run(name, func(t *testing.T) {
			m := Render(tt.a, tt.opts)
			if p := CheckLimits(m); p != nil {
				t.Errorf("over Slack's limits: %v", p)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, m.AppendJSON(nil), "", "  "); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			pretty.WriteByte('\n')
			path := filepath.Join("testdata", "golden", name+".json")
			goldentest.Compare(t, path, pretty.Bytes(), *update)
			assertSlackGoReads(t, m)
		})
	}
}

// assertSlackGoReads proves the JSON is Block Kit as slack-go models it:
// every block decodes to a known type and encodes back to the same JSON.
func assertSlackGoReads(t *testing.T, m *Message) {
	t.Helper()
	var msg slackapi.Msg
	if err := json.Unmarshal(m.AppendJSON(nil), &msg); err != nil {
		t.Fatalf("slack-go cannot read the message: %v", err)
	}
	if len(msg.Blocks.BlockSet) != len(m.Blocks) {
		t.Fatalf("slack-go read %d blocks, want %d", len(msg.Blocks.BlockSet), len(m.Blocks))
	}
	for i, b := range msg.Blocks.BlockSet {
		if _, unknown := b.(*slackapi.UnknownBlock); unknown {
			t.Errorf("block %d is unknown to slack-go", i)
		}
	}
	again, err := json.Marshal(msg.Blocks)
	if err != nil {
		t.Fatal(err)
	}
	var x, y any
	_ = json.Unmarshal(again, &x)
	_ = json.Unmarshal(m.BlocksJSON(), &y)
	if diff := cmp.Diff(y, x); diff != "" {
		t.Errorf("slack-go re-encodes the blocks differently (-ours +slack-go):\n%s", diff)
	}
}

func TestRenderResponseTypes(t *testing.T) {
	tests := []struct {
		kind   knowledge.Kind
		public bool
		want   string
	}{
		{knowledge.KindKEP, false, Ephemeral},
		{knowledge.KindKEP, true, InChannel},
		{knowledge.KindList, true, InChannel},
		{knowledge.KindHelp, true, Ephemeral},
		{knowledge.KindError, true, Ephemeral},
	}
	for _, tt := range tests {
		m := Render(&knowledge.Answer{Kind: tt.kind, Title: "t", Text: "x"}, RenderOptions{Slash: true, Public: tt.public})
		if m.ResponseType != tt.want {
			t.Errorf("%s public=%v: response_type %q, want %q", tt.kind, tt.public, m.ResponseType, tt.want)
		}
	}
	if m := Render(kepAnswer(), RenderOptions{}); m.ResponseType != "" {
		t.Errorf("a chat.postMessage body has response_type %q", m.ResponseType)
	}
	if m := Render(nil, RenderOptions{Slash: true}); !strings.Contains(m.Text, "Sorry") || CheckLimits(m) != nil {
		t.Errorf("nil answer renders %q %v", m.Text, CheckLimits(m))
	}
}

func TestPageValueRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		q      string
		page   int
		public bool
	}{{"1.29 ga", 0, false}, {"search a|b", 7, true}, {"sig node 1.30", 999, false}} {
		q, p, pub, ok := parsePageValue(pageValue(tt.q, tt.page, tt.public))
		if !ok || q != tt.q || p != tt.page || pub != tt.public {
			t.Errorf("round trip of %+v = %q %d %v %v", tt, q, p, pub, ok)
		}
	}
	for _, bad := range []string{"", "x", "1|1|", "-1|0|q", "1|2|q", "1000|0|q", "a|0|q", "1|0"} {
		if _, _, _, ok := parsePageValue(bad); ok {
			t.Errorf("parsePageValue(%q) accepted", bad)
		}
	}
}

// TestSubscriptionChangeIsShownToTheChannel: a subscribe or unsubscribe
// that was made is in_channel, like Discord's; a listing and a refusal
// stay ephemeral.
func TestSubscriptionChangeIsShownToTheChannel(t *testing.T) {
	for _, tc := range []struct {
		a    *knowledge.Answer
		want string
	}{
		{&knowledge.Answer{Kind: knowledge.KindSubscription, Title: "Subscribed", Query: "subscribe deprecations from:1.29"}, InChannel},
		{&knowledge.Answer{Kind: knowledge.KindSubscription, Title: "Unsubscribed", Query: "unsubscribe deprecations"}, InChannel},
		{&knowledge.Answer{Kind: knowledge.KindSubscription, Title: "This channel's subscriptions", Query: "subscriptions"}, Ephemeral},
		{knowledge.ErrorAnswer(knowledge.Errorf(knowledge.EBADINPUT, "Only admins can change this channel's subscriptions.")), Ephemeral},
	} {
		if got := Render(tc.a, RenderOptions{Slash: true}).ResponseType; got != tc.want {
			t.Errorf("%s %q: response_type %q, want %q", tc.a.Kind, tc.a.Query, got, tc.want)
		}
	}
}

// TestSourceWithoutDate: a source that does not say its date is shown as
// "date unknown", never with a date it does not give.
func TestSourceWithoutDate(t *testing.T) {
	a := &knowledge.Answer{Kind: knowledge.KindKEP, Title: "KEP-1", Text: "x",
		Sources: []knowledge.SourceRef{{Name: "guide"}, {Name: "note", AsOf: "2024-08-13"}}}
	b, err := json.Marshal(Render(a, RenderOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "guide (date unknown) · note (as of 2024-08-13)") {
		t.Errorf("sources line not found in %s", b)
	}
}

// TestReleaseCardCounts: the card's enhancements field gives the total
// when the announcement counted one, and the counts by stage alone when
// only kep.yaml's are known (no "0:" before them), as Discord and the
// terminal do.
func TestReleaseCardCounts(t *testing.T) {
	for _, tt := range []struct {
		counts knowledge.Counts
		want   string
	}{
		{knowledge.Counts{Total: 45, Stable: 17, Beta: 18, Alpha: 10}, "45: 17 GA, 18 beta, 10 alpha"},
		{knowledge.Counts{Stable: 3, Beta: 2, Alpha: 1}, "3 GA, 2 beta, 1 alpha"},
	} {
		var got string
		for _, f := range releaseFacts(&knowledge.ReleaseFacts{Version: "1.36", Enhancements: tt.counts}) {
			if f.Name == "Enhancements" {
				got = f.Value
			}
		}
		if got != tt.want {
			t.Errorf("counts %+v: Enhancements %q, want %q", tt.counts, got, tt.want)
		}
	}
}
