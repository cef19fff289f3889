package discord

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

// injectionCorpus returns hostile texts: mass and role mentions, masked
// links, markdown, Slack-style and double-escaped forms, and each of the
// first ones with zero-width and bidi characters slipped in.
func injectionCorpus() []string {
	base := []string{
		"@everyone", "@here", "@Everyone look", "@EVERYONE", "hi @here!", "@@everyone", "@everyone@here",
		"x@everyone.y", "<@&123>", "<@123>", "<@!123>", "<#123>", "<t:0:R>", "<:emoji:123>", "<a:wave:1>",
		"[click](http://evil)", "[https://kubernetes.io](http://evil.example/x)", "[x](<http://evil>)",
		"**bold** __under__ ~~strike~~ ||spoiler||", "`code` ```block```", "> quote", "# heading", "-# subtext",
		"- list", "+ list", "\\@everyone", "\\<@&1>", "&lt;!channel&gt;", "<!channel>", "<!here|here>",
		"<!everyone>", "＠everyone", "line one\n@everyone", "\t@here\r\n", "](http://evil)", "[](http://evil)",
		"@\u200beveryone", "@\u2060here", "@\u200deveryone", "<\u200b@&123>", "[cl\u200bick](http://evil)",
		"@every\u200bone", "\u202e@everyone", "\ufeff@here", "@\u200c\u200chere",
	}
	out := append([]string(nil), base...)
	for _, zw := range []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u00ad"} {
		for _, p := range []string{"@everyone", "@here", "<@&123>", "[click](http://evil)"} {
			out = append(out, p[:1]+zw+p[1:], zw+p, p+zw)
		}
	}
	return out
}

var massMention = regexp.MustCompile(`(?i)@(everyone|here)`)

// checkInert fails t when markdown-rendered text holds a live mass
// mention, a markdown character the renderer never writes itself (< > [ ]
// | ~ _) that is not backslash-escaped, or a code span left open at the
// end of a line. Code spans are skipped: Discord renders nothing inside
// them.
func checkInert(t *testing.T, where, s string) {
	t.Helper()
	if massMention.MatchString(s) {
		t.Errorf("%s: live mass mention in %q", where, s)
	}
	code := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && !code:
			i++ // the next byte is literal
		case c == '`':
			code = !code
		case c == '\n' && code:
			t.Errorf("%s: code span open at the end of a line in %q", where, s)
			return
		case !code && strings.IndexByte("<>[]|~_", c) >= 0:
			t.Errorf("%s: unescaped %q at %d in %q", where, c, i, s)
			return
		}
	}
	if code {
		t.Errorf("%s: code span left open in %q", where, s)
	}
}

// checkMessageInert checks every text of m and that each payload form of it
// carries allowed_mentions with an empty parse list.
func checkMessageInert(t *testing.T, where string, m Message) {
	t.Helper()
	if err := CheckMessage(m); err != nil {
		t.Errorf("%s: %v", where, err)
	}
	checkInert(t, where+" content", m.Content)
	for _, e := range m.Embeds {
		checkInert(t, where+" title", e.Title)
		checkInert(t, where+" description", e.Description)
		for _, f := range e.Fields {
			checkInert(t, where+" field name", f.Name)
			checkInert(t, where+" field value", f.Value)
		}
		if e.Footer != nil && massMention.MatchString(e.Footer.Text) {
			t.Errorf("%s: live mass mention in footer %q", where, e.Footer.Text)
		}
	}
	for _, payload := range []any{m.send(), m.response(), m.followup(), m.edit()} {
		checkParseEmpty(t, where, payload)
	}
}

// checkParseEmpty fails t unless payload's JSON has allowed_mentions with
// "parse": [] and nothing allowed.
func checkParseEmpty(t *testing.T, where string, payload any) {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		AllowedMentions *struct {
			Parse       *[]string `json:"parse"`
			Users       []string  `json:"users"`
			Roles       []string  `json:"roles"`
			RepliedUser bool      `json:"replied_user"`
		} `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	am := got.AllowedMentions
	if am == nil || am.Parse == nil || len(*am.Parse) != 0 || len(am.Users)+len(am.Roles) > 0 || am.RepliedUser {
		t.Errorf("%s: allowed_mentions is not {parse: []}: %s", where, b)
	}
}

func TestMentionInjectionThroughRender(t *testing.T) {
	corpus := injectionCorpus()
	if len(corpus) < 50 {
		t.Fatalf("corpus has %d payloads, want at least 50", len(corpus))
	}
	for _, p := range corpus {
		for _, a := range hostileAnswers(p) {
			for i, m := range Render(a) {
				checkMessageInert(t, string(a.Kind)+" "+strings.ToValidUTF8(p, "?")+" #"+string(rune('0'+i)), m)
			}
		}
	}
}

func TestMentionInjectionThroughEngine(t *testing.T) {
	e := testEngine(t)
	for _, p := range injectionCorpus() {
		for _, q := range []string{p, "search " + p, "gate " + p, "kep " + p, "1.29 " + p, "help " + p, "sig " + p, "upgrade 1.28 " + p} {
			for i, m := range Render(question.NewAsker(nil, e).Ask(context.Background(), q, knowledge.Origin{})) {
				checkMessageInert(t, q+" #"+string(rune('0'+i)), m)
			}
		}
	}
}

// hostileAnswers puts p in every text field of an answer of each kind.
func hostileAnswers(p string) []*knowledge.Answer {
	var out []*knowledge.Answer
	for _, k := range []knowledge.Kind{knowledge.KindKEP, knowledge.KindGate, knowledge.KindRelease, knowledge.KindList,
		knowledge.KindSearch, knowledge.KindDiff, knowledge.KindReleases, knowledge.KindSIG, knowledge.KindHelp, knowledge.KindError} {
		a := &knowledge.Answer{Kind: k, Title: p, Text: p, Query: p,
			Facts:   []knowledge.Fact{{Name: p, Value: p}},
			Items:   []knowledge.Item{{KEP: 1, Title: p, Text: p, SIG: p, Stage: knowledge.StageBeta}, {Title: p, Rank: 2}},
			Notices: []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Title: p, Text: p, FeatureGates: []string{p}, API: &knowledge.APIChange{GroupVersion: p, Kinds: []string{p}, ReplacedBy: p}}},
			Links:   []knowledge.Link{{Title: p, URL: "https://example.com/a"}, {Title: "x", URL: p}},
			Notes:   []string{p}, Sources: []knowledge.SourceRef{{Name: p, AsOf: p}}, Suggest: []string{p},
			Error: &knowledge.ErrorFacts{Code: knowledge.EBADINPUT, Message: p}}
		switch k {
		case knowledge.KindKEP, knowledge.KindGate:
			a.KEP = &knowledge.KEPFacts{Number: 1, Title: p, SIG: p, Status: p, Milestones: map[string]string{"alpha": p},
				Targets: map[string]string{"beta": p}, FeatureGates: []string{p}, Links: []knowledge.Link{{Title: p, URL: p}}}
		case knowledge.KindRelease:
			a.Release = &knowledge.ReleaseFacts{Version: p, Date: p, Theme: p}
		case knowledge.KindReleases:
			a.Releases = []knowledge.ReleaseFacts{{Version: p, Date: p, Theme: p}, {Version: "1.30", Theme: p, Enhancements: knowledge.Counts{Total: 1, Beta: 1}}}
		}
		out = append(out, a)
	}
	for _, a := range out {
		if a.Kind == knowledge.KindDiff { // the diff again, asked as an upgrade
			upgrade := *a
			upgrade.Query = "upgrade 1.29 " + p
			return append(out, &upgrade)
		}
	}
	return out
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words 1.29", "plain words 1.29"},
		{"**bold**", `\*\*bold\*\*`},
		{"a_b ~c~ |d| `e`", `a\_b \~c\~ \|d\| \` + "`e\\`"},
		{"<@&123>", `\<@&123\>`},
		{"[x](http://e)", `\[x\](http://e)`},
		{"@everyone", "@\u200beveryone"},
		{"@\u200beveryone", "@\u200beveryone"},
		{"# head", `\# head`},
		{"a # b - c", "a # b - c"},
		{"-# sub", `\-# sub`},
		{"line\nbreak\t\ttab", "line break tab"},
		{"rtl\u202eevil", "rtlevil"},
		{`back\slash`, `back\\slash`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSafeURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://kep.k8s.io/4639": true, "http://example.com/a?b=c": true,
		"javascript:alert(1)": false, "/relative": false, "https://a b": false, "https://x/)[y](z": false,
		"https://user:pw@example.com": false, "ftp://example.com": false, "": false,
	} {
		if got := safeURL(u) != ""; got != ok {
			t.Errorf("safeURL(%q) kept = %v, want %v", u, got, ok)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"0123456789", 5, "0123…"},
		{`abc\*def`, 5, "abc…"},
		{"𝔘𝔘𝔘𝔘", 5, "𝔘𝔘…"},
		{"稳定版本发布", 4, "稳定版…"},
	}
	for _, tt := range tests {
		got := truncate(tt.in, tt.max)
		if got != tt.want || length(got) > tt.max {
			t.Errorf("truncate(%q, %d) = %q (length %d), want %q", tt.in, tt.max, got, length(got), tt.want)
		}
	}
}
