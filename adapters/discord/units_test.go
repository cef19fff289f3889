package discord

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/question"
)

func TestMessageText(t *testing.T) {
	const bot = "42"
	tests := []struct {
		content string
		dm      bool
		text    string
		ok      bool
	}{
		{"!k8s 1.29 ga", false, "1.29 ga", true},
		{"  !K8S   kep 4639  ", false, "kep 4639", true},
		{"!k8s", false, "help", true},
		{"!k8s\n1.29", false, "1.29", true},
		{"!k8sfoo 1.29", false, "", false},
		{"hello !k8s 1.29", false, "", false},
		{"<@42> 1.29", false, "1.29", true},
		{"<@!42> kep 1", false, "kep 1", true},
		{"<@42> !k8s 1.29", false, "1.29", true},
		{"<@42>", false, "help", true},
		{"<@43> 1.29", false, "", false},
		{"<@420> 1.29", false, "", false},
		{"1.29", false, "", false},
		{"1.29", true, "1.29", true},
		{"!k8s 1.29", true, "1.29", true},
		{"   ", true, "", false},
		{"", false, "", false},
	}
	for _, tt := range tests {
		text, ok := messageText(tt.content, DefaultPrefix, bot, tt.dm)
		if text != tt.text || ok != tt.ok {
			t.Errorf("messageText(%q, dm=%v) = %q, %v; want %q, %v", tt.content, tt.dm, text, ok, tt.text, tt.ok)
		}
	}
}

// FuzzPrefixCommand drives the prefix path (message text, the grammar,
// the real engine, Render) with arbitrary messages: no panic, every
// message within Discord's limits, and nothing mentionable left.
func FuzzPrefixCommand(f *testing.F) {
	for _, s := range []string{"!k8s 1.29 ga", "!k8s kep 9101", "<@42> search gizmo", "!k8s gate @everyone",
		"!k8s diff 1.28 1.30", "!k8s upgrade 1.28 1.30", "!k8s releases", "!k8s sig node 1.30", "!k8s help", "!k8s \u200b@here", "!k8s [x](http://e)", "!K8S 1.29 弃用", "!k8s " + strings.Repeat("9", 2000)} {
		f.Add(s, false)
	}
	e := testEngine(f)
	f.Fuzz(func(t *testing.T, content string, dm bool) {
		text, ok := messageText(content, DefaultPrefix, "42", dm)
		if !ok {
			return
		}
		if text == "" {
			t.Fatalf("addressed message %q gave no text", content)
		}
		for i, m := range Render(question.NewAsker(nil, e).Ask(context.Background(), text, knowledge.Origin{Platform: "discord"})) {
			checkMessageInert(t, "message "+strconv.Itoa(i), m)
		}
	})
}

func TestUserLimiter(t *testing.T) {
	u := newUserLimiter(6, 2) // one every 10 s, two at once
	at := time.Unix(1_000_000, 0)
	step := func(user string, d time.Duration) (bool, bool) { at = at.Add(d); return u.allow(user, at) }
	type r struct{ ok, warn bool }
	got := []r{}
	for _, d := range []time.Duration{0, 0, 0, 0, time.Second, 10 * time.Second, 0, 0} {
		ok, warn := step("a", d)
		got = append(got, r{ok, warn})
	}
	want := []r{{true, false}, {true, false}, {false, true}, {false, false}, {false, false}, {true, false}, {false, true}, {false, false}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("allow sequence = %v, want %v", got, want)
	}
	if ok, _ := u.allow("b", at); !ok {
		t.Error("another user was limited")
	}
	for i := 0; i < 2*maxTrackedUsers; i++ {
		at = at.Add(time.Second)
		u.allow("u"+strconv.Itoa(i), at)
	}
	if n := len(u.users); n > maxTrackedUsers {
		t.Errorf("limiter tracks %d users, over %d", n, maxTrackedUsers)
	}
}

func TestInvalidCounterWindow(t *testing.T) {
	var c invalidCounter
	t0 := time.Unix(6000, 0) // a minute boundary
	for i := 0; i < 10; i++ {
		c.add(t0.Add(time.Duration(i) * time.Minute))
	}
	if got := c.count(t0.Add(9 * time.Minute)); got != 10 {
		t.Errorf("count over the 10 minutes = %d, want 10", got)
	}
	if got := c.count(t0.Add(10 * time.Minute)); got != 9 {
		t.Errorf("count a minute later = %d, want 9", got)
	}
	if got := c.count(t0.Add(time.Hour)); got != 0 {
		t.Errorf("count an hour later = %d, want 0", got)
	}
	c.add(t0.Add(time.Hour))
	if got := c.count(t0.Add(time.Hour)); got != 1 {
		t.Errorf("a slot reused after an hour counts %d, want 1", got)
	}
}

func TestAutocompleteChoices(t *testing.T) {
	var keps []KEPName
	var gates []string
	var versions []knowledge.Version
	for i := 1; i <= 2000; i++ {
		keps = append(keps, KEPName{Number: i, Title: fmt.Sprintf("Feature %d of sig-%d", i, i%7)})
		gates = append(gates, fmt.Sprintf("Gate%dEnabled", i))
	}
	for m := 0; m <= 40; m++ {
		versions = append(versions, knowledge.Version{Major: 1, Minor: m})
	}
	keps = append(keps, KEPName{Number: 5000, Title: strings.Repeat("very long title ", 20)})
	cat := NewStaticCatalog(keps, versions, append(gates, strings.Repeat("G", 150)))
	for _, tt := range []struct{ sub, opt, typed, first string }{
		{"kep", "number", "", "KEP-5000: very long title"},
		{"kep", "number", "19", "KEP-19: Feature 19 of sig-5"},
		{"kep", "number", "199", "KEP-199: Feature 199 of sig-3"},
		{"kep", "number", "feature 12 of", "KEP-12: Feature 12 of sig-5"},
		{"kep", "number", "#500", "KEP-500: Feature 500 of sig-3"},
		{"kep", "number", "50", "KEP-50: Feature 50 of sig-1"},
		{"release", "version", "", "1.40"},
		{"diff", "from", "V1.3", "1.39"},
		{"subscribe", "from", "1.2", "1.29"},
		{"gate", "name", "gate1", "Gate1Enabled"},
		{"gate", "name", "enabled", "Gate1Enabled"},
	} {
		d := invocation(tt.sub, tt.opt, tt.typed)
		d.Options[0].Options[0].Focused = true
		got := choices(cat, d)
		if len(got) == 0 || len(got) > MaxChoices {
			t.Errorf("%s %s=%q: %d choices", tt.sub, tt.opt, tt.typed, len(got))
			continue
		}
		if !strings.HasPrefix(got[0].Name, tt.first) {
			t.Errorf("%s %s=%q: first choice %q, want %q", tt.sub, tt.opt, tt.typed, got[0].Name, tt.first)
		}
		for _, c := range got {
			v, _ := c.Value.(string)
			if c.Name == "" || length(c.Name) > MaxChoiceName || v == "" || length(v) > MaxChoiceValue {
				t.Errorf("choice %q=%q out of limits", c.Name, v)
			}
		}
	}
	if got := choices(nil, invocation("kep", "number", "1")); got == nil || len(got) != 0 {
		t.Errorf("nil catalog: %v", got)
	}
}

// BenchmarkAutocomplete measures one autocomplete answer over a catalog
// the size of kubernetes/enhancements and more.
func BenchmarkAutocomplete(b *testing.B) {
	var keps []KEPName
	var gates []string
	for i := 1; i <= 5000; i++ {
		keps = append(keps, KEPName{Number: i, Title: fmt.Sprintf("Feature number %d for nodes and pods", i)})
		gates = append(gates, fmt.Sprintf("Gate%dEnabled", i))
	}
	cat := NewStaticCatalog(keps, nil, gates)
	for _, tt := range []struct{ name, sub, opt, typed string }{
		{"kep_words", "kep", "number", "nodes and pods 49"}, {"kep_digits", "kep", "number", "49"}, {"gate", "gate", "name", "enabled"},
	} {
		d := invocation(tt.sub, tt.opt, tt.typed)
		d.Options[0].Options[0].Focused = true
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				choices(cat, d)
			}
		})
	}
}

// BenchmarkRenderLargest measures rendering a 200-item answer.
func BenchmarkRenderLargest(b *testing.B) {
	a := largest()["list"]
	for b.Loop() {
		Render(a)
	}
}

// TestRewriteTransport sends discordgo's requests to the configured base
// (a trailing /api/v9 allowed), answers GET /gateway with the configured
// gateway, and leaves other hosts alone.
func TestRewriteTransport(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.Path)
		w.WriteHeader(http.StatusForbidden)
	}))
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/api/v9", srv.URL + "/proxy"} {
		var statuses []int
		rt, err := newRewrite(base, "ws://gw.example/gw", http.DefaultTransport, func(s int) { statuses = append(statuses, s) })
		if err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Transport: rt}
		seen = nil
		resp, err := c.Get(discordgo.EndpointGateway)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(body), `"url":"ws://gw.example/gw"`) || len(seen) != 0 {
			t.Errorf("%s: GET /gateway = %s (server saw %v)", base, body, seen)
		}
		resp, err = c.Post(discordgo.EndpointChannelMessages("1"), "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := "POST /api/v9/channels/1/messages"
		if strings.HasSuffix(base, "/proxy") {
			want = "POST /proxy/api/v9/channels/1/messages"
		}
		if len(seen) != 1 || seen[0] != want || len(statuses) != 1 || statuses[0] != 403 {
			t.Errorf("%s: server saw %v, statuses %v; want %q and [403]", base, seen, statuses, want)
		}
	}
}
