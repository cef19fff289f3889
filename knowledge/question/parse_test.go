package question

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

func v(s string) knowledge.Version { return knowledge.MustVersion(s) }

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want knowledge.Question
	}{
		// one KEP
		{"kep 4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"KEP-4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep-4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"KEP 4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep #4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep KEP-4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"#3866", knowledge.Question{Kind: knowledge.AskKEP, KEP: 3866}},
		{"  kep    4639  ", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep\t4639\n", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep 4639?", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"ｋｅｐ　４６３９", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"ＫＥＰ－４６３９", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep “4639”", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep ‘4639’", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep 「4639」", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{`"kep 4639"`, knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep\u200b 4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep\x00 4639\x07", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep 4639\u202e", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep：4639", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639}},
		{"kep 99999", knowledge.Question{Kind: knowledge.AskKEP, KEP: 99999}},
		// one release
		{"1.29", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29")}},
		{"v1.29", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29")}},
		{"V1.29", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29")}},
		{"1.29.0", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29"), Patch: patchNum(0)}}, // the answer says whether the patch exists
		{"v1.29.3", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29"), Patch: patchNum(3)}},
		{"１．２９", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29")}},
		{"release 1.30", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.30")}},
		{"1.29.", knowledge.Question{Kind: knowledge.AskRelease, Version: v("1.29")}},
		// a release at one stage, both orders, every stage word
		{"1.29 ga", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"ga 1.29", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29 GA", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29 stable", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"Stable v1.29", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29 稳定", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29稳定", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"正式 1.29", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29 稳定版", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29 general availability", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.29ga", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.29"), Stage: knowledge.StageStable}},
		{"1.30 beta", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.30"), Stage: knowledge.StageBeta}},
		{"BETA 1.30", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.30"), Stage: knowledge.StageBeta}},
		{"1.30 β", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.30"), Stage: knowledge.StageBeta}},
		{"1.31 alpha", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.31"), Stage: knowledge.StageAlpha}},
		{"alpha v1.31.2", knowledge.Question{Kind: knowledge.AskReleaseStage, Version: v("1.31"), Stage: knowledge.StageAlpha}},
		// notices
		{"1.29 deprecations", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.29"), Notice: knowledge.NoticeDeprecation}},
		{"deprecations 1.29", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.29"), Notice: knowledge.NoticeDeprecation}},
		{"1.29 deprecated", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.29"), Notice: knowledge.NoticeDeprecation}},
		{"1.29 弃用", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.29"), Notice: knowledge.NoticeDeprecation}},
		{"1.31 removals", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.31"), Notice: knowledge.NoticeRemoval}},
		{"removed 1.31", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.31"), Notice: knowledge.NoticeRemoval}},
		{"1.31 移除", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.31"), Notice: knowledge.NoticeRemoval}},
		{"1.31 notices", knowledge.Question{Kind: knowledge.AskNotices, Version: v("1.31")}},
		// everything else
		{"releases", knowledge.Question{Kind: knowledge.AskReleases}},
		{"Releases", knowledge.Question{Kind: knowledge.AskReleases}},
		{"release", knowledge.Question{Kind: knowledge.AskReleases}},
		{"help", knowledge.Question{Kind: knowledge.AskHelp}},
		{"HELP", knowledge.Question{Kind: knowledge.AskHelp}},
		{"help subscribe", knowledge.Question{Kind: knowledge.AskHelp, Words: "subscribe"}},
		{"help upgrade", knowledge.Question{Kind: knowledge.AskHelp, Words: "upgrade"}},
		{"帮助", knowledge.Question{Kind: knowledge.AskHelp}},
		{"gate NFTablesProxyMode", knowledge.Question{Kind: knowledge.AskGate, Words: "NFTablesProxyMode"}},
		{"Gate  ImageVolume", knowledge.Question{Kind: knowledge.AskGate, Words: "ImageVolume"}},
		{"search image volume", knowledge.Question{Kind: knowledge.AskSearch, Words: "image volume"}},
		{"search “Image Volume”", knowledge.Question{Kind: knowledge.AskSearch, Words: "image volume"}},
		{"search 镜像卷", knowledge.Question{Kind: knowledge.AskSearch, Words: "镜像卷"}},
		{"diff 1.29 1.32", knowledge.Question{Kind: knowledge.AskDiff, Version: v("1.29"), To: v("1.32")}},
		{"diff v1.29 to v1.32", knowledge.Question{Kind: knowledge.AskDiff, Version: v("1.29"), To: v("1.32")}},
		{"diff 1.29..1.32", knowledge.Question{Kind: knowledge.AskDiff, Version: v("1.29"), To: v("1.32")}},
		{"upgrade 1.29 1.31", knowledge.Question{Kind: knowledge.AskUpgrade, Version: v("1.29"), To: v("1.31")}},
		{"upgrade v1.29 → v1.31", knowledge.Question{Kind: knowledge.AskUpgrade, Version: v("1.29"), To: v("1.31")}},
		{"sig network", knowledge.Question{Kind: knowledge.AskSIG, Words: "network"}},
		{"sig Network 1.29", knowledge.Question{Kind: knowledge.AskSIG, Words: "network", Version: v("1.29")}},
		{"sig sig-node", knowledge.Question{Kind: knowledge.AskSIG, Words: "node"}},
		{"sig-node v1.30", knowledge.Question{Kind: knowledge.AskSIG, Words: "node", Version: v("1.30")}},
		{"sig api-machinery", knowledge.Question{Kind: knowledge.AskSIG, Words: "api-machinery"}},
		{"SIG Network", knowledge.Question{Kind: knowledge.AskSIG, Words: "network"}},
		{"sig API Machinery 1.31", knowledge.Question{Kind: knowledge.AskSIG, Words: "api-machinery", Version: v("1.31")}},
		{"sig cluster lifecycle", knowledge.Question{Kind: knowledge.AskSIG, Words: "cluster-lifecycle"}},
		{"subscribe deprecations", knowledge.Question{Kind: knowledge.AskSubscribe}},
		{"subscribe 弃用", knowledge.Question{Kind: knowledge.AskSubscribe}},
		{"subscribe deprecations sig:network from:v1.29.0 schedule:weekly format:full",
			knowledge.Question{Kind: knowledge.AskSubscribe, Filters: map[string]string{"sig": "network", "from": "1.29", "schedule": "weekly", "format": "full"}}},
		{"subscribe deprecations sig: Network schedule=DAILY", knowledge.Question{Kind: knowledge.AskSubscribe, Filters: map[string]string{"sig": "network", "schedule": "daily"}}},
		{"subscribe deprecations sig：sig-node", knowledge.Question{Kind: knowledge.AskSubscribe, Filters: map[string]string{"sig": "node"}}},
		{"subscribe deprecations format:compact, schedule:release", knowledge.Question{Kind: knowledge.AskSubscribe, Filters: map[string]string{"format": "compact", "schedule": "release"}}},
		{"unsubscribe deprecations", knowledge.Question{Kind: knowledge.AskUnsubscribe}},
		{"unsubscribe", knowledge.Question{Kind: knowledge.AskUnsubscribe}},
		{"subscriptions", knowledge.Question{Kind: knowledge.AskSubscriptions}},
		// yes or no
		{"is kep 753 ga", knowledge.Question{Kind: knowledge.AskKEP, KEP: 753, Stage: knowledge.StageStable}},
		{"is KEP-753 stable?", knowledge.Question{Kind: knowledge.AskKEP, KEP: 753, Stage: knowledge.StageStable}},
		{"is 753 beta in v1.30", knowledge.Question{Kind: knowledge.AskKEP, KEP: 753, Stage: knowledge.StageBeta, Version: v("1.30")}},
		{"is kep 4639 general availability in 1.33", knowledge.Question{Kind: knowledge.AskKEP, KEP: 4639, Stage: knowledge.StageStable, Version: v("1.33")}},
		{"is kep 2400 deprecated", knowledge.Question{Kind: knowledge.AskKEP, KEP: 2400, Stage: knowledge.StageDeprecated}},
		{"is 1.31 supported", knowledge.Question{Kind: knowledge.AskSupported, Version: v("1.31")}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q) failed: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got, cmpIgnoreText); diff != "" {
				t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			// The canonical form and the normalised text both read back the same.
			for _, again := range []string{got.Canonical(), got.Text} {
				q2, err := Parse(again)
				if err != nil {
					t.Fatalf("re-parse %q: %v", again, err)
				}
				if diff := cmp.Diff(got, q2, cmpIgnoreText); diff != "" {
					t.Errorf("re-parse %q mismatch (-first +again):\n%s", again, diff)
				}
			}
		})
	}
}

var cmpIgnoreText = cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Text" }, cmp.Ignore())

func TestParseText(t *testing.T) {
	tests := []struct{ in, text, canonical string }{
		{"  KEP-4639 ", "KEP-4639", "kep 4639"},
		{"ｋｅｐ　４６３９", "kep 4639", "kep 4639"},
		{"1.29稳定", "1.29 稳定", "1.29 ga"},
		{"stable 1.29", "stable 1.29", "1.29 ga"},
		{"v1.30 弃用", "v1.30 弃用", "1.30 deprecations"},
		{"upgrade  1.29   1.32", "upgrade 1.29 1.32", "upgrade 1.29 1.32"},
		{"diff v1.29..v1.32", "diff v1.29..v1.32", "diff 1.29 1.32"},
		{"subscribe deprecations format:full sig:node", "subscribe deprecations format:full sig:node", "subscribe deprecations sig:node format:full"},
		{"help", "help", "help"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.in, err)
		}
		if got.Text != tt.text || got.Canonical() != tt.canonical {
			t.Errorf("Parse(%q): Text %q, Canonical %q; want %q, %q", tt.in, got.Text, got.Canonical(), tt.text, tt.canonical)
		}
	}
}

func TestParseBadInput(t *testing.T) {
	tests := []struct {
		in      string
		message []string // parts the message must hold
		suggest []string // exactly these suggestions, best first; nil for none
	}{
		{"", []string{"Ask me something", "kep 4639"}, nil},
		{"   ", []string{"Ask me something"}, nil},
		{"\x00\x01", []string{"Ask me something"}, nil},
		{"kep", []string{"Which KEP", "Usage: kep NUMBER"}, nil},
		{"kep abc", []string{`"abc" is not a KEP number`, "Usage: kep NUMBER, e.g. kep 4639."}, nil},
		{"kep 1.29", []string{"is a release", "Usage: kep NUMBER"}, nil},
		{"kep 0", []string{"start at 1", "Usage: kep NUMBER"}, nil},
		{"kep 12345678", []string{"too long for a KEP number"}, nil},
		{"KEP-x1", []string{"is not a KEP number"}, nil},
		{"kep 3866 4639", []string{"one KEP at a time"}, nil},
		{"4639 ga", []string{"one KEP at a time"}, nil},
		{"1.x", []string{`"1.x" is not a release`, "Usage: VERSION"}, nil},
		{"1.29.1.1 ga", []string{"is not a release"}, nil},
		{"0.0", []string{"is not a release"}, nil},
		{"1.29 1.32", []string{"two releases", "diff FROM TO"}, []string{"diff 1.29 1.32"}},
		{"1.32 v1.29", []string{"two releases"}, []string{"diff 1.29 1.32"}},
		{"2.0 2.0", []string{"one release twice"}, []string{"2.0"}},
		{"1.29 gamma", []string{`"gamma" is not a stage`, "Usage: VERSION STAGE"}, nil},
		{"ga", []string{"Which release?", "Usage: VERSION STAGE"}, nil},
		{"deprecations", []string{"Which release?", "Usage: VERSION deprecations|removals"}, nil},
		{"releases 1.29", []string{"no more words"}, nil},
		{"gate", []string{"feature gate", "Usage: gate NAME"}, nil},
		{"gate Foo Bar", []string{"one word"}, nil},
		{"gate <!channel>", []string{"not a feature gate name", "Usage: gate NAME"}, nil},
		{"search", []string{"What should I search for", "Usage: search WORDS"}, nil},
		{"search ?? !!", []string{"What should I search for"}, nil},
		{"diff 1.29", []string{"two releases", "Usage: diff FROM TO"}, nil},
		{"diff 1.29 1.29", []string{"same release"}, nil},
		{"diff 1.29 next", []string{`"next" is not a release`}, nil},
		{"sig", []string{"Which SIG", "Usage: sig NAME"}, nil},
		{"sig network 1.x", []string{"is not a release"}, nil},
		{"sig network 1.29 1.30", []string{"one SIG name and at most one release"}, nil},
		{"sig 1.29 network", []string{"release after the SIG name"}, nil},
		{"diff 1.32 1.29", []string{"1.29 is older than 1.32", "diff 1.29 1.32"}, []string{"diff 1.29 1.32"}},
		{"upgrade v1.31 v1.27", []string{"1.27 is older than 1.31", "upgrade 1.27 1.31"}, []string{"upgrade 1.27 1.31"}},
		{"sig @everyone", []string{`"everyone" is not a SIG name`}, nil},
		{"subscribe", []string{"deprecation digests", "Usage: subscribe deprecations|cves [sig:NAME]"}, nil},
		{"subscribe removals", []string{"deprecation digests"}, nil},
		{"subscribe deprecations from:abc", []string{"from:abc is not a release", "from:1.29"}, nil},
		{"subscribe deprecations schedule:hourly", []string{"schedule:hourly is not allowed", "schedule:release, schedule:weekly, schedule:daily"}, nil},
		{"subscribe deprecations format:long", []string{"format:long is not allowed", "format:compact, format:full"}, nil},
		{"subscribe deprecations channel:x", []string{`filter "channel"`, "sig, from, schedule and format"}, nil},
		{"subscribe deprecations sig:a sig:b", []string{"given twice"}, nil},
		{"subscribe deprecations sig:", []string{"needs a value"}, nil},
		{"subscribe deprecations network", []string{`"network" is not a filter`}, nil},
		{"unsubscribe everything", []string{"deprecation digests and CVE digests"}, nil},
		{"subscriptions all", []string{"no more words"}, nil},
		{"help nonsense", []string{"no help on that topic", "subscribe"}, nil},
		{"is", []string{"Ask whether", "Usage: is kep NUMBER STAGE"}, nil},
		{"is kep 753", []string{"Ask whether"}, []string{"kep 753"}},
		{"is kep 753 gamma", []string{`"gamma" is not a stage`}, []string{"kep 753"}},
		{"is kep 753 ga in 1.x", []string{`"1.x" is not a release`}, []string{"kep 753"}},
		{"is sidecar ga", []string{`"sidecar" is not a KEP number`}, nil},
		{"what is new", []string{"I don't understand", "help"}, nil},
		{strings.Repeat("a", 1001), []string{"too long"}, nil},
		{strings.Repeat("稳", 1001), []string{"too long"}, nil},
		{strings.Repeat("a稳", 400), []string{"too long"}, nil},
		{"kep \xff4639", []string{"not valid UTF-8"}, nil},
		// typos: did you mean
		{"kepp 4639", []string{"I don't understand"}, []string{"kep 4639"}},
		{"kepp4639", []string{"I don't understand"}, []string{"kep 4639"}},
		{"1.29 gaa", []string{`"gaa" is not a stage`}, []string{"1.29 ga"}},
		{"1.29 bta", []string{"is not a stage"}, []string{"1.29 beta"}},
		{"alhpa 1.31", []string{"is not a stage"}, []string{"alpha 1.31"}},
		{"realeses", []string{"I don't understand"}, []string{"releases"}},
		{"depracations 1.29", []string{"is not a stage"}, []string{"deprecations 1.29"}},
		{"1.29 removels", []string{"is not a stage"}, []string{"1.29 removals"}},
		{"serach image volume", []string{"I don't understand"}, []string{"search image volume"}},
		{"hlep", []string{"I don't understand"}, []string{"help"}},
		{"help subscibe", []string{"no help"}, []string{"help subscribe"}},
		{"subscirbe deprecations", []string{"I don't understand"}, []string{"subscribe deprecations"}},
		{"subscribe deprecations shedule:weekly", []string{`filter "shedule"`}, []string{"subscribe deprecations schedule:weekly"}},
		{"subscribe deprecations schedule:weekley", []string{"not allowed"}, []string{"subscribe deprecations schedule:weekly"}},
		{"diff 1.29 1.32 extra", []string{"two releases"}, nil},
		// a question inside a sentence
		{"what went GA in 1.29", []string{"I don't understand"}, []string{"1.29 ga"}},
		{"tell me about KEP 4639", []string{"I don't understand"}, []string{"kep 4639"}},
		{"what is new in v1.30", []string{"I don't understand"}, []string{"1.30"}},
		{"which KEP-3866 stage", []string{"I don't understand"}, []string{"kep 3866"}},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			q, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tt.in, q)
			}
			e, ok := err.(*knowledge.Error)
			if !ok || e.Code != knowledge.EBADINPUT {
				t.Fatalf("Parse(%q) error %#v, want *knowledge.Error with code %s", tt.in, err, knowledge.EBADINPUT)
			}
			for _, part := range tt.message {
				if !strings.Contains(e.Message, part) {
					t.Errorf("message %q lacks %q", e.Message, part)
				}
			}
			if diff := cmp.Diff(tt.suggest, e.Suggestions); diff != "" {
				t.Errorf("suggestions mismatch (-want +got):\n%s", diff)
			}
			for _, s := range e.Suggestions {
				if _, err := Parse(s); err != nil {
					t.Errorf("suggestion %q does not parse: %v", s, err)
				}
			}
		})
	}
}

func TestBadInputNeverEchoesMentions(t *testing.T) {
	for _, in := range []string{"kep <!channel>", "gate @everyone", "sig <@U123>", "<!here> 1.29",
		"subscribe deprecations sig:<!channel>", "1.29 @here", "diff 1.29 <@U1>"} {
		_, err := Parse(in)
		if err == nil {
			t.Fatalf("Parse(%q) succeeded, want bad input", in)
		}
		msg := err.Error() + strings.Join(err.(*knowledge.Error).Suggestions, " ")
		for _, bad := range []string{"<", "@"} {
			if strings.Contains(msg, bad) {
				t.Errorf("Parse(%q) message %q echoes %q", in, msg, bad)
			}
		}
	}
}

func TestNormalizeIdempotent(t *testing.T) {
	for _, in := range []string{"  ｋｅｐ　４６３９ ?", "1.29稳定版ga", "“search” a,b;c", "a\u200bb\tc", "v1.29ga?!.", "x 。"} {
		once := normalize(in)
		if twice := normalize(once); twice != once {
			t.Errorf("normalize(%q) = %q, but normalize of that is %q", in, once, twice)
		}
	}
}

// BenchmarkParseQuestion covers a good question, a typo that earns a
// suggestion, and the longest garbage the parser reads.
func BenchmarkParse(b *testing.B) {
	for name, in := range map[string]string{
		"good": "ｋｅｐ　４６３９", "typo": "kepp 4639", "sentence": "what went GA in 1.29",
		"longest": strings.Repeat("abcd ", MaxRunes/5-1),
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Parse(in)
			}
		})
	}
}

func patchNum(n int) *int { return &n }
