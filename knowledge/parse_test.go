package knowledge

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func v(s string) Version { return MustVersion(s) }

func TestParseQuestion(t *testing.T) {
	tests := []struct {
		in   string
		want Question
	}{
		// one KEP
		{"kep 4639", Question{Kind: AskKEP, KEP: 4639}},
		{"KEP-4639", Question{Kind: AskKEP, KEP: 4639}},
		{"kep-4639", Question{Kind: AskKEP, KEP: 4639}},
		{"kep4639", Question{Kind: AskKEP, KEP: 4639}},
		{"KEP 4639", Question{Kind: AskKEP, KEP: 4639}},
		{"kep #4639", Question{Kind: AskKEP, KEP: 4639}},
		{"kep KEP-4639", Question{Kind: AskKEP, KEP: 4639}},
		{"4639", Question{Kind: AskKEP, KEP: 4639}},
		{"#3866", Question{Kind: AskKEP, KEP: 3866}},
		{"  kep    4639  ", Question{Kind: AskKEP, KEP: 4639}},
		{"kep\t4639\n", Question{Kind: AskKEP, KEP: 4639}},
		{"kep 4639?", Question{Kind: AskKEP, KEP: 4639}},
		{"ｋｅｐ　４６３９", Question{Kind: AskKEP, KEP: 4639}},
		{"ＫＥＰ－４６３９", Question{Kind: AskKEP, KEP: 4639}},
		{"kep “4639”", Question{Kind: AskKEP, KEP: 4639}},
		{"kep ‘4639’", Question{Kind: AskKEP, KEP: 4639}},
		{"kep 「4639」", Question{Kind: AskKEP, KEP: 4639}},
		{`"kep 4639"`, Question{Kind: AskKEP, KEP: 4639}},
		{"kep\u200b 4639", Question{Kind: AskKEP, KEP: 4639}},
		{"kep\x00 4639\x07", Question{Kind: AskKEP, KEP: 4639}},
		{"kep 4639\u202e", Question{Kind: AskKEP, KEP: 4639}},
		{"kep：4639", Question{Kind: AskKEP, KEP: 4639}},
		{"kep 99999", Question{Kind: AskKEP, KEP: 99999}},
		// one release
		{"1.29", Question{Kind: AskRelease, Version: v("1.29")}},
		{"v1.29", Question{Kind: AskRelease, Version: v("1.29")}},
		{"V1.29", Question{Kind: AskRelease, Version: v("1.29")}},
		{"1.29.0", Question{Kind: AskRelease, Version: v("1.29")}},
		{"v1.29.3", Question{Kind: AskRelease, Version: v("1.29")}},
		{"１．２９", Question{Kind: AskRelease, Version: v("1.29")}},
		{"release 1.30", Question{Kind: AskRelease, Version: v("1.30")}},
		{"1.29.", Question{Kind: AskRelease, Version: v("1.29")}},
		// a release at one stage, both orders, every stage word
		{"1.29 ga", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"ga 1.29", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29 GA", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29 stable", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"Stable v1.29", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29 稳定", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29稳定", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"正式 1.29", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29 稳定版", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29 general availability", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.29ga", Question{Kind: AskReleaseStage, Version: v("1.29"), Stage: StageStable}},
		{"1.30 beta", Question{Kind: AskReleaseStage, Version: v("1.30"), Stage: StageBeta}},
		{"BETA 1.30", Question{Kind: AskReleaseStage, Version: v("1.30"), Stage: StageBeta}},
		{"1.30 β", Question{Kind: AskReleaseStage, Version: v("1.30"), Stage: StageBeta}},
		{"1.31 alpha", Question{Kind: AskReleaseStage, Version: v("1.31"), Stage: StageAlpha}},
		{"alpha v1.31.2", Question{Kind: AskReleaseStage, Version: v("1.31"), Stage: StageAlpha}},
		// notices
		{"1.29 deprecations", Question{Kind: AskNotices, Version: v("1.29"), Notice: NoticeDeprecation}},
		{"deprecations 1.29", Question{Kind: AskNotices, Version: v("1.29"), Notice: NoticeDeprecation}},
		{"1.29 deprecated", Question{Kind: AskNotices, Version: v("1.29"), Notice: NoticeDeprecation}},
		{"1.29 弃用", Question{Kind: AskNotices, Version: v("1.29"), Notice: NoticeDeprecation}},
		{"1.31 removals", Question{Kind: AskNotices, Version: v("1.31"), Notice: NoticeRemoval}},
		{"removed 1.31", Question{Kind: AskNotices, Version: v("1.31"), Notice: NoticeRemoval}},
		{"1.31 移除", Question{Kind: AskNotices, Version: v("1.31"), Notice: NoticeRemoval}},
		{"1.31 notices", Question{Kind: AskNotices, Version: v("1.31")}},
		// everything else
		{"releases", Question{Kind: AskReleases}},
		{"Releases", Question{Kind: AskReleases}},
		{"release", Question{Kind: AskReleases}},
		{"help", Question{Kind: AskHelp}},
		{"HELP", Question{Kind: AskHelp}},
		{"help subscribe", Question{Kind: AskHelp, Words: "subscribe"}},
		{"help upgrade", Question{Kind: AskHelp, Words: "upgrade"}},
		{"帮助", Question{Kind: AskHelp}},
		{"gate NFTablesProxyMode", Question{Kind: AskGate, Words: "NFTablesProxyMode"}},
		{"Gate  ImageVolume", Question{Kind: AskGate, Words: "ImageVolume"}},
		{"search image volume", Question{Kind: AskSearch, Words: "image volume"}},
		{"search “Image Volume”", Question{Kind: AskSearch, Words: "image volume"}},
		{"search 镜像卷", Question{Kind: AskSearch, Words: "镜像卷"}},
		{"diff 1.29 1.32", Question{Kind: AskDiff, Version: v("1.29"), To: v("1.32")}},
		{"diff v1.29 to v1.32", Question{Kind: AskDiff, Version: v("1.29"), To: v("1.32")}},
		{"diff 1.29..1.32", Question{Kind: AskDiff, Version: v("1.29"), To: v("1.32")}},
		{"upgrade 1.29 1.31", Question{Kind: AskUpgrade, Version: v("1.29"), To: v("1.31")}},
		{"upgrade v1.29 → v1.31", Question{Kind: AskUpgrade, Version: v("1.29"), To: v("1.31")}},
		{"sig network", Question{Kind: AskSIG, Words: "network"}},
		{"sig Network 1.29", Question{Kind: AskSIG, Words: "network", Version: v("1.29")}},
		{"sig sig-node", Question{Kind: AskSIG, Words: "node"}},
		{"sig-node v1.30", Question{Kind: AskSIG, Words: "node", Version: v("1.30")}},
		{"sig api-machinery", Question{Kind: AskSIG, Words: "api-machinery"}},
		{"SIG Network", Question{Kind: AskSIG, Words: "network"}},
		{"sig API Machinery 1.31", Question{Kind: AskSIG, Words: "api-machinery", Version: v("1.31")}},
		{"sig cluster lifecycle", Question{Kind: AskSIG, Words: "cluster-lifecycle"}},
		{"subscribe deprecations", Question{Kind: AskSubscribe}},
		{"subscribe 弃用", Question{Kind: AskSubscribe}},
		{"subscribe deprecations sig:network from:v1.29.0 schedule:weekly format:full",
			Question{Kind: AskSubscribe, Filters: map[string]string{"sig": "network", "from": "1.29", "schedule": "weekly", "format": "full"}}},
		{"subscribe deprecations sig: Network schedule=DAILY", Question{Kind: AskSubscribe, Filters: map[string]string{"sig": "network", "schedule": "daily"}}},
		{"subscribe deprecations sig：sig-node", Question{Kind: AskSubscribe, Filters: map[string]string{"sig": "node"}}},
		{"subscribe deprecations format:compact, schedule:release", Question{Kind: AskSubscribe, Filters: map[string]string{"format": "compact", "schedule": "release"}}},
		{"unsubscribe deprecations", Question{Kind: AskUnsubscribe}},
		{"unsubscribe", Question{Kind: AskUnsubscribe}},
		{"subscriptions", Question{Kind: AskSubscriptions}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseQuestion(tt.in)
			if err != nil {
				t.Fatalf("ParseQuestion(%q) failed: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got, cmpIgnoreText); diff != "" {
				t.Errorf("ParseQuestion(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			// The canonical form and the normalised text both read back the same.
			for _, again := range []string{got.Canonical(), got.Text} {
				q2, err := ParseQuestion(again)
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

func TestParseQuestionText(t *testing.T) {
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
		got, err := ParseQuestion(tt.in)
		if err != nil {
			t.Fatalf("ParseQuestion(%q): %v", tt.in, err)
		}
		if got.Text != tt.text || got.Canonical() != tt.canonical {
			t.Errorf("ParseQuestion(%q): Text %q, Canonical %q; want %q, %q", tt.in, got.Text, got.Canonical(), tt.text, tt.canonical)
		}
	}
}

func TestParseQuestionBadInput(t *testing.T) {
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
		{"subscribe", []string{"deprecation digests", "Usage: subscribe deprecations [sig:NAME]"}, nil},
		{"subscribe removals", []string{"deprecation digests"}, nil},
		{"subscribe deprecations from:abc", []string{"from:abc is not a release", "from:1.29"}, nil},
		{"subscribe deprecations schedule:hourly", []string{"schedule:hourly is not allowed", "schedule:release, schedule:weekly, schedule:daily"}, nil},
		{"subscribe deprecations format:long", []string{"format:long is not allowed", "format:compact, format:full"}, nil},
		{"subscribe deprecations channel:x", []string{`filter "channel"`, "sig, from, schedule and format"}, nil},
		{"subscribe deprecations sig:a sig:b", []string{"given twice"}, nil},
		{"subscribe deprecations sig:", []string{"needs a value"}, nil},
		{"subscribe deprecations network", []string{`"network" is not a filter`}, nil},
		{"unsubscribe everything", []string{"nothing else"}, nil},
		{"subscriptions all", []string{"no more words"}, nil},
		{"help nonsense", []string{"no help on that topic", "subscribe"}, nil},
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
			q, err := ParseQuestion(tt.in)
			if err == nil {
				t.Fatalf("ParseQuestion(%q) = %+v, want an error", tt.in, q)
			}
			e, ok := err.(*Error)
			if !ok || e.Code != EBADINPUT {
				t.Fatalf("ParseQuestion(%q) error %#v, want *Error with code %s", tt.in, err, EBADINPUT)
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
				if _, err := ParseQuestion(s); err != nil {
					t.Errorf("suggestion %q does not parse: %v", s, err)
				}
			}
		})
	}
}

func TestBadInputNeverEchoesMentions(t *testing.T) {
	for _, in := range []string{"kep <!channel>", "gate @everyone", "sig <@U123>", "<!here> 1.29",
		"subscribe deprecations sig:<!channel>", "1.29 @here", "diff 1.29 <@U1>"} {
		_, err := ParseQuestion(in)
		if err == nil {
			t.Fatalf("ParseQuestion(%q) succeeded, want bad input", in)
		}
		msg := err.Error() + strings.Join(err.(*Error).Suggestions, " ")
		for _, bad := range []string{"<", "@"} {
			if strings.Contains(msg, bad) {
				t.Errorf("ParseQuestion(%q) message %q echoes %q", in, msg, bad)
			}
		}
	}
}

func TestDamerauLevenshtein(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "kep", 3}, {"kep", "", 3}, {"kep", "kep", 0},
		{"kepp", "kep", 1}, {"ag", "ga", 1}, {"alhpa", "alpha", 1},
		{"realeses", "releases", 2}, {"depracations", "deprecations", 1},
		{"稳定", "稳走", 1}, {"ca", "abc", 3},
	}
	for _, tt := range tests {
		if got := damerauLevenshtein(tt.a, tt.b); got != tt.want {
			t.Errorf("damerauLevenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
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
func BenchmarkParseQuestion(b *testing.B) {
	for name, in := range map[string]string{
		"good": "ｋｅｐ　４６３９", "typo": "kepp 4639", "sentence": "what went GA in 1.29",
		"longest": strings.Repeat("abcd ", MaxQuestionRunes/5-1),
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				ParseQuestion(in)
			}
		})
	}
}
