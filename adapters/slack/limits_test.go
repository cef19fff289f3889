package slack

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
)

// long returns n runes of mixed text: ASCII, CJK, emoji and the characters
// Slack escapes, so both counting and escaping are exercised.
func long(n int) string {
	unit := []rune("KEP <&> 稳定 🚀 text ")
	out := make([]rune, n)
	for i := range out {
		out[i] = unit[i%len(unit)]
	}
	return string(out)
}

// hugeAnswer fills every field of an answer of kind with 200 entries of
// 3000-rune texts: far more than the engine ever returns.
func hugeAnswer(kind knowledge.Kind) *knowledge.Answer {
	const n, size = 200, 3000
	a := &knowledge.Answer{Kind: kind, Title: long(size), Text: long(size), Query: "search " + long(200)}
	for i := range n {
		a.Facts = append(a.Facts, knowledge.Fact{Name: long(size), Value: long(size)})
		a.Items = append(a.Items, knowledge.Item{KEP: i + 1, Title: long(size), Stage: knowledge.StageBeta,
			Release: knowledge.MustVersion("1.29"), Text: long(size), SIG: long(100)})
		a.Notices = append(a.Notices, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.29"),
			Title: long(size), Text: long(size), API: &knowledge.APIChange{GroupVersion: long(300), ReplacedBy: long(300)}})
		a.Links = append(a.Links, knowledge.Link{Title: long(size), URL: "https://example.com/" + strconv.Itoa(i) + "/" + strings.Repeat("p", 400)})
		a.Notes = append(a.Notes, long(size))
		a.Sources = append(a.Sources, knowledge.SourceRef{Name: long(size), AsOf: "2030-01-02"})
		a.Suggest = append(a.Suggest, long(300))
	}
	switch kind {
	case knowledge.KindKEP, knowledge.KindGate:
		k := &knowledge.KEPFacts{Number: 1, Title: long(size), SIG: long(size), Status: long(size), Stage: knowledge.StageStable,
			Milestones: map[string]string{"alpha": long(size), "beta": "1.2", "stable": "1.3"}, Targets: map[string]string{"stable": long(size)}}
		for i := range n {
			k.FeatureGates = append(k.FeatureGates, long(100))
			k.Links = append(k.Links, knowledge.Link{Title: long(size), URL: "https://kep.k8s.io/" + strconv.Itoa(i)})
			k.Timeline = append(k.Timeline, knowledge.Step{Stage: knowledge.StageBeta, Release: knowledge.MustVersion("1." + strconv.Itoa(i+1)), Source: long(size), Back: i%2 == 0})
		}
		a.KEP = k
	case knowledge.KindReleases:
		for i := range n {
			a.Releases = append(a.Releases, knowledge.ReleaseFacts{Version: long(size), Date: long(size), Theme: long(size),
				Enhancements: knowledge.Counts{Total: i, Stable: 1 << 30}})
		}
	case knowledge.KindRelease:
		a.Release = &knowledge.ReleaseFacts{Version: "1.29", Date: long(size), Theme: long(size), Enhancements: knowledge.Counts{Total: 1 << 30}}
	case knowledge.KindError:
		a.Error = &knowledge.ErrorFacts{Code: knowledge.EBADINPUT, Message: long(size)}
	}
	return a
}

var allKinds = []knowledge.Kind{knowledge.KindKEP, knowledge.KindRelease, knowledge.KindList, knowledge.KindReleases,
	knowledge.KindSearch, knowledge.KindGate, knowledge.KindDiff, knowledge.KindSIG, knowledge.KindHelp, knowledge.KindSubscription, knowledge.KindError}

// TestLargestAnswersPostedWholeStayWithinLimits renders the huge answer of
// every kind as a digest post draws it (every line that fits, no pages)
// and checks every limit, and that it says it left lines out.
func TestLargestAnswersPostedWholeStayWithinLimits(t *testing.T) {
	p := &Poster{}
	for _, kind := range allKinds {
		a := hugeAnswer(kind)
		m, cut := render(a, RenderOptions{Whole: true})
		if lim := CheckLimits(m); lim != nil {
			t.Errorf("%s: %s", kind, strings.Join(lim, "; "))
		}
		if kind != knowledge.KindHelp && kind != knowledge.KindError && (!cut || p.Fits(a)) {
			t.Errorf("%s: a 600-line answer drawn whole says it fits", kind)
		}
		for _, b := range m.Blocks {
			if _, ok := b.(*Actions); ok {
				t.Errorf("%s: a posted message has page buttons", kind)
			}
		}
	}
}

// TestLargestAnswersStayWithinLimits renders the huge answer of every kind,
// every page of it, both public and not, and checks every Slack limit.
func TestLargestAnswersStayWithinLimits(t *testing.T) {
	for _, kind := range allKinds {
		a := hugeAnswer(kind)
		pages := 1
		for page := 0; page < pages; page++ {
			m := Render(a, RenderOptions{Slash: true, Page: page, Public: page%2 == 1})
			if p := CheckLimits(m); p != nil {
				t.Errorf("%s page %d: %s", kind, page, strings.Join(p, "; "))
			}
			if n := len(m.AppendJSON(nil)); n > MaxSocketAckBytes {
				t.Logf("%s page %d: %d bytes, so Socket Mode sends it by response_url", kind, page, n)
			}
			for _, b := range m.Blocks {
				if c, ok := b.(*Context); ok && strings.HasPrefix(c.Elements[0], "Page 1 of ") {
					pages, _ = strconv.Atoi(strings.Fields(c.Elements[0])[3])
				}
			}
		}
		if kind != knowledge.KindHelp && kind != knowledge.KindError && pages < 2 {
			t.Errorf("%s: a 600-line answer should page, got %d page", kind, pages)
		}
	}
}

func TestCheckLimitsCatchesEachLimit(t *testing.T) {
	fields := make([]string, 11)
	for i := range fields {
		fields[i] = "f"
	}
	tests := map[string]*Message{
		"no fallback":       {Blocks: []Block{&Section{Text: "x"}}},
		"too many blocks":   {Text: "x", Blocks: repeatBlocks(51)},
		"long section":      {Text: "x", Blocks: []Block{&Section{Text: strings.Repeat("a", 3001)}}},
		"long header":       {Text: "x", Blocks: []Block{&Header{Text: strings.Repeat("a", 151)}}},
		"too many fields":   {Text: "x", Blocks: []Block{&Section{Fields: fields}}},
		"long field":        {Text: "x", Blocks: []Block{&Section{Fields: []string{strings.Repeat("a", 2001)}}}},
		"long block id":     {Text: "x", Blocks: []Block{&Section{ID: strings.Repeat("a", 256), Text: "x"}}},
		"long button value": {Text: "x", Blocks: []Block{&Actions{Buttons: []Button{{ActionID: "a", Text: "t", Value: strings.Repeat("v", 2001)}}}}},
		"empty context":     {Text: "x", Blocks: []Block{&Context{}}},
		"message too long":  {Text: "x", Blocks: []Block{&Section{Text: strings.Repeat("a", 3000)}, &Section{Text: strings.Repeat("a", 3000)}, &Section{Text: strings.Repeat("a", 3000)}, &Section{Text: strings.Repeat("a", 3000)}}},
	}
	for name, m := range tests {
		if CheckLimits(m) == nil {
			t.Errorf("%s: CheckLimits found nothing", name)
		}
	}
}

func repeatBlocks(n int) []Block {
	out := make([]Block, n)
	for i := range out {
		out[i] = Divider{}
	}
	return out
}

// injections are texts that would notify people or disguise links if they
// reached Slack unescaped.
var injections = []string{
	"<!channel>", "<!here>", "<!here|here>", "<!everyone>", "<@U0123ABC>", "<@U0123ABC|boss>", "<#C0123|general>",
	"<!subteam^S0123|@oncall>", "<https://evil.example|innocent>", "<mailto:x@evil.example|mail>", "&lt;!channel&gt;",
	"&amp;lt;!here&amp;gt;", "@channel", "@here", "@everyone", "<!channel|channel>", "<!date^1392734382^{date}|x>",
	"\u200b<!channel>", "<\u200b!channel>", "a > b < c & d", "</blocks>\"}]}", "`<!here>`", "*<!here>*",
}

// TestUserTextNeverMentions echoes every injection through every text an
// answer carries and checks that no <…> control sequence reaches Slack
// except the links the renderer built from http(s) URLs.
func TestUserTextNeverMentions(t *testing.T) {
	for _, inj := range injections {
		for _, kind := range allKinds {
			a := &knowledge.Answer{Kind: kind, Title: inj, Text: inj, Query: inj,
				Facts:   []knowledge.Fact{{Name: inj, Value: inj}},
				Items:   []knowledge.Item{{KEP: 1, Title: inj, Text: inj, SIG: inj}},
				Notices: []knowledge.Notice{{Kind: knowledge.NoticeKind(inj), Title: inj, Text: inj, API: &knowledge.APIChange{GroupVersion: inj, ReplacedBy: inj}}},
				Links:   []knowledge.Link{{Title: inj, URL: inj}, {Title: inj, URL: "javascript:alert(1)"}, {Title: inj, URL: "https://kep.k8s.io/1?x=" + inj}},
				Notes:   []string{inj}, Sources: []knowledge.SourceRef{{Name: inj, AsOf: inj}}, Suggest: []string{inj},
				Error: &knowledge.ErrorFacts{Message: inj},
				KEP: &knowledge.KEPFacts{Title: inj, SIG: inj, Status: inj, FeatureGates: []string{inj}, Milestones: map[string]string{"beta": inj},
					Links: []knowledge.Link{{Title: inj, URL: inj}}, Timeline: []knowledge.Step{{Source: inj}}},
				Release: &knowledge.ReleaseFacts{Date: inj, Theme: inj},
			}
			m := Render(a, RenderOptions{Slash: true, Public: true})
			for _, s := range messageTexts(t, m) {
				if bad := controlSequence(s); bad != "" {
					t.Errorf("%s with %q: text %q holds %q", kind, inj, s, bad)
				}
			}
		}
	}
}

// angle finds <…> sequences; safeLink is the only one allowed.
var (
	angle    = regexp.MustCompile(`<[^>]*>?`)
	safeLink = regexp.MustCompile(`^<https://kep\.k8s\.io/1\?x=[^<>| ]*\|[^<>]*>$`)
)

func controlSequence(s string) string {
	for _, m := range angle.FindAllString(s, -1) {
		if !safeLink.MatchString(m) {
			return m
		}
	}
	return ""
}

// messageTexts decodes the JSON Slack would receive and returns every
// string in it, so the check sees exactly what Slack sees.
func messageTexts(t *testing.T, m *Message) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(m.AppendJSON(nil), &v); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

func TestEscapeAndTruncate(t *testing.T) {
	if got := esc("<!channel> & <@U1>"); got != "&lt;!channel&gt; &amp; &lt;@U1&gt;" {
		t.Errorf("esc = %q", got)
	}
	if got := truncate("abc &amp; def", 6); got != "abc …" {
		t.Errorf("truncate inside an entity = %q, want the entity dropped whole", got)
	}
	if got := truncate("稳定稳定稳定", 4); got != "稳定稳…" || runes(got) != 4 {
		t.Errorf("truncate of CJK = %q", got)
	}
	if got := truncate("short", 10); got != "short" {
		t.Errorf("truncate of short text = %q", got)
	}
	for _, bad := range []string{"javascript:alert(1)", "ftp://x", "//evil", "https://user:pw@evil.example/", "https://", "<!here>"} {
		if got := link(bad, "t"); got != "t" {
			t.Errorf("link(%q) = %q, want plain text", bad, got)
		}
	}
	if got := link("https://example.com/a|b>c", "x"); got != "<https://example.com/a%7Cb%3Ec|x>" {
		t.Errorf("link with | and > = %q", got)
	}
}
