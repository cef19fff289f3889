package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// now is the fixed clock of the HTTP tests.
var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// httpAdapter returns an adapter serving HTTP interactions only (no bot
// token), its signing key, and a mux with its routes mounted.
func httpAdapter(t *testing.T, ans knowledge.Answerer, cat Catalog, apiURL string, opts ...Option) (*Adapter, ed25519.PrivateKey, *http.ServeMux) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	logger, _ := testLogger(t)
	opts = append(opts, WithClock(func() time.Time { return now }))
	a, err := NewAdapter(Config{PublicKey: hex.EncodeToString(pub), APIURL: apiURL}, ans, cat, logger, opts...)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	for pattern, h := range a.Routes() {
		mux.Handle(pattern, h)
	}
	return a, priv, mux
}

// signed builds a request signed with key over ts and body.
func signed(key ed25519.PrivateKey, ts time.Time, body []byte) *http.Request {
	stamp := strconv.FormatInt(ts.Unix(), 10)
	sig := ed25519.Sign(key, append([]byte(stamp), body...))
	r := httptest.NewRequest(http.MethodPost, "/discord/interactions", bytes.NewReader(body))
	r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	r.Header.Set("X-Signature-Timestamp", stamp)
	return r
}

func interactionBody(t *testing.T, id string, typ discordgo.InteractionType, data discordgo.ApplicationCommandInteractionData) []byte {
	t.Helper()
	p := interactionPayload(id, typ, data)
	if typ == discordgo.InteractionPing {
		p = map[string]any{"id": id, "application_id": testAppID, "type": 1, "token": testInteractionToken, "version": 1}
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestInteractionSignatures is the table of signed, forged, stale, early,
// malformed, oversized and replayed requests. Nothing unverified reaches
// the answerer.
func TestInteractionSignatures(t *testing.T) {
	ans := &answerFunc{fn: func(context.Context, knowledge.Question) (*knowledge.Answer, error) {
		return &knowledge.Answer{Kind: knowledge.KindKEP, Title: "KEP-1: One", Text: "One."}, nil
	}}
	rec := newCountRecorder()
	_, key, mux := httpAdapter(t, ans, nil, "", WithRecorder(rec))
	_, otherKey, _ := ed25519.GenerateKey(nil)
	ping := interactionBody(t, "p1", discordgo.InteractionPing, discordgo.ApplicationCommandInteractionData{})
	cmd := func(id string) []byte {
		return interactionBody(t, id, discordgo.InteractionApplicationCommand, invocation("kep", "number", "1"))
	}
	big := append(cmd("big"), bytes.Repeat([]byte(" "), MaxInteractionBytes)...)
	tamper := func(r *http.Request, header, value string) *http.Request { r.Header.Set(header, value); return r }
	drop := func(r *http.Request, header string) *http.Request { r.Header.Del(header); return r }
	flipBody := func(r *http.Request) *http.Request {
		b, _ := io.ReadAll(r.Body)
		b[len(b)-2] ^= 1
		r.Body = io.NopCloser(bytes.NewReader(b))
		return r
	}
	tests := []struct {
		name   string
		req    *http.Request
		status int
		body   string // expected in the response
	}{
		{"valid ping", signed(key, now, ping), 200, `{"type":1}`},
		{"valid command", signed(key, now, cmd("c1")), 200, `"type":4`},
		{"valid 4m59s late", signed(key, now.Add(-299*time.Second), cmd("c2")), 200, `"type":4`},
		{"valid 4m59s early", signed(key, now.Add(299*time.Second), cmd("c3")), 200, `"type":4`},
		{"forged with another key", signed(otherKey, now, ping), 401, ""},
		{"body changed after signing", flipBody(signed(key, now, ping)), 401, ""},
		{"timestamp changed after signing", tamper(signed(key, now, ping), "X-Signature-Timestamp", strconv.FormatInt(now.Unix()+1, 10)), 401, ""},
		{"replayed 10 minutes late", signed(key, now.Add(-10*time.Minute), ping), 401, ""},
		{"10 minutes early", signed(key, now.Add(10*time.Minute), ping), 401, ""},
		{"missing signature", drop(signed(key, now, ping), "X-Signature-Ed25519"), 401, ""},
		{"missing timestamp", drop(signed(key, now, ping), "X-Signature-Timestamp"), 401, ""},
		{"missing both", drop(drop(signed(key, now, ping), "X-Signature-Timestamp"), "X-Signature-Ed25519"), 401, ""},
		{"signature not hex", tamper(signed(key, now, ping), "X-Signature-Ed25519", strings.Repeat("zz", 64)), 401, ""},
		{"signature short", tamper(signed(key, now, ping), "X-Signature-Ed25519", strings.Repeat("ab", 32)), 401, ""},
		{"timestamp not a number", tamper(signed(key, now, ping), "X-Signature-Timestamp", "garbage-ts"), 401, ""},
		{"oversized", signed(key, now, big), 413, ""},
		{"same command again", signed(key, now, cmd("c1")), 401, ""},
		{"signed but not json", signed(key, now, []byte("not json")), 400, ""},
		{"signed but no type", signed(key, now, []byte(`{"id":"x"}`)), 400, ""},
		{"GET", httptest.NewRequest(http.MethodGet, "/discord/interactions", nil), 405, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, tt.req)
			if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.body) {
				t.Errorf("status %d body %q, want %d with %q", w.Code, w.Body.String(), tt.status, tt.body)
			}
			if w.Code == 200 && !strings.Contains(w.Body.String(), `"type":1}`) {
				checkParseEmpty(t, tt.name, json.RawMessage(dataOf(t, w.Body.Bytes())))
			}
		})
	}
	if got := ans.calls.Load(); got != 3 {
		t.Errorf("answerer called %d times, want 3 (only the valid commands)", got)
	}
	answered, failed := rec.counts()
	if answered["discord/kep"] != 3 || failed["discord/bad_request"] != 15 || failed["discord/duplicate"] != 1 {
		t.Errorf("recorded answers %v and failures %v; want 3 kep answers, 15 bad requests (one a duplicate)", answered, failed)
	}
}

// dataOf returns the data object of an interaction response.
func dataOf(t *testing.T, b []byte) []byte {
	t.Helper()
	var c struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Data
}

// TestInteractionAutocompleteInline answers autocomplete in the HTTP
// response, from the catalog of the real store, with at most 25 choices.
func TestInteractionAutocompleteInline(t *testing.T) {
	kb := openKnowledge(t)
	a, key, mux := httpAdapter(t, engine.New(kb), testCatalog(t, kb), "")
	tests := []struct {
		sub, opt, typed string
		want            []string
	}{
		{"kep", "number", "910", []string{"9106", "9105", "9104", "9103", "9102", "9101"}},
		{"kep", "number", "gizmo", []string{"9102"}},
		{"kep", "number", "kep-9101", []string{"9101"}},
		{"release", "version", "v1.2", []string{"1.29", "1.28", "1.27"}},
		{"diff", "to", "1.3", []string{"1.30"}},
		{"gate", "name", "sidecar", []string{"GizmoSidecars"}},
		{"gate", "name", "nothing-like-it", []string{}},
		{"search", "words", "gizmo", []string{}},
	}
	for i, tt := range tests {
		d := invocation(tt.sub, tt.opt, tt.typed)
		d.Options[0].Options[0].Focused = true
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, signed(key, now, interactionBody(t, "a"+strconv.Itoa(i), discordgo.InteractionApplicationCommandAutocomplete, d)))
		var resp struct {
			Type int `json:"type"`
			Data struct {
				Choices *[]struct {
					Name  string `json:"name"`
					Value string `json:"value"`
				} `json:"choices"`
			} `json:"data"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || w.Code != 200 || resp.Type != 8 || resp.Data.Choices == nil {
			t.Fatalf("%s %s=%q: %d %s", tt.sub, tt.opt, tt.typed, w.Code, w.Body)
		}
		var got []string
		for _, c := range *resp.Data.Choices {
			got = append(got, c.Value)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s %s=%q: choices %v, want %v", tt.sub, tt.opt, tt.typed, got, tt.want)
		}
	}
	// A new catalog (after a sync) is used at once; none offers nothing.
	d := invocation("gate", "name", "new")
	d.Options[0].Options[0].Focused = true
	for i, tt := range []struct {
		cat  Catalog
		want string
	}{{NewStaticCatalog(nil, nil, []string{"NewGate"}), `"value":"NewGate"`}, {nil, `"choices":[]`}} {
		a.SetCatalog(tt.cat)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, signed(key, now, interactionBody(t, "swap"+strconv.Itoa(i), discordgo.InteractionApplicationCommandAutocomplete, d)))
		if !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("after SetCatalog: %s, want %s", w.Body, tt.want)
		}
	}
}

// TestInteractionDeferredFollowUp defers a slow answer (type 5) and then
// edits the original response and posts the rest through the webhook.
func TestInteractionDeferredFollowUp(t *testing.T) {
	f := newFakeDiscord(t)
	release := make(chan struct{})
	ans := &answerFunc{fn: func(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
		<-release
		a := &knowledge.Answer{Kind: knowledge.KindSearch, Title: "Search: widget", Text: "Many."}
		for i := 0; i < 200; i++ {
			a.Items = append(a.Items, knowledge.Item{KEP: i + 1, Title: strings.Repeat("widget ", 10), Text: strings.Repeat("quoted words ", 20)})
		}
		return a, nil
	}}
	a, key, mux := httpAdapter(t, ans, nil, f.srv.URL)
	a.inlineBudget = 20 * time.Millisecond
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, signed(key, now, interactionBody(t, "d1", discordgo.InteractionApplicationCommand, invocation("search", "words", "widget"))))
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), `{"type":5`) {
		t.Fatalf("slow answer: %d %s, want a type 5 deferral", w.Code, w.Body)
	}
	close(release)
	edit := f.next("PATCH", "/api/v9/webhooks/"+testAppID+"/"+testInteractionToken+"/messages/@original", 5*time.Second)
	if !strings.Contains(string(edit.Body), "Search: widget") {
		t.Errorf("edit of the original lacks the answer: %.200s", edit.Body)
	}
	for i := 0; i < MaxMessagesAnswer-1; i++ {
		fu := f.next("POST", "/api/v9/webhooks/"+testAppID+"/"+testInteractionToken, 5*time.Second)
		if i == MaxMessagesAnswer-2 && !strings.Contains(string(fu.Body), "more*") {
			t.Errorf("last follow-up does not say how many more: %.200s", fu.Body)
		}
	}
	a.wg.Wait()
	if n := f.checkAllMessagesMuted(t); n != MaxMessagesAnswer {
		t.Errorf("%d messages through the webhook, want %d", n, MaxMessagesAnswer)
	}
}

// TestInteractionErrorsAreEphemeral shows bad input only to the asker.
func TestInteractionErrorsAreEphemeral(t *testing.T) {
	_, key, mux := httpAdapter(t, testEngine(t), nil, "")
	for i, d := range []discordgo.ApplicationCommandInteractionData{
		invocation("kep", "number", "abc"), invocation("ask", "text", "@everyone"), invocation("nope"), invocation("help"),
	} {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, signed(key, now, interactionBody(t, "e"+strconv.Itoa(i), discordgo.InteractionApplicationCommand, d)))
		var resp struct {
			Type int `json:"type"`
			Data struct {
				Flags   int    `json:"flags"`
				Content string `json:"content"`
			} `json:"data"`
		}
		json.Unmarshal(w.Body.Bytes(), &resp)
		if w.Code != 200 || resp.Type != 4 || resp.Data.Flags&int(discordgo.MessageFlagsEphemeral) == 0 {
			t.Errorf("/%s: %d %s, want an ephemeral type 4", d.Options[0].Name, w.Code, w.Body)
		}
		checkInert(t, d.Options[0].Name, resp.Data.Content)
	}
}

// TestRunHTTPOnly runs an adapter without a bot token: no gateway, no
// registration, no request to Discord, and Run returns when told to stop.
func TestRunHTTPOnly(t *testing.T) {
	f := newFakeDiscord(t)
	a, _, _ := httpAdapter(t, &answerFunc{}, nil, f.srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if n := len(f.all()); n != 0 {
		t.Errorf("%d requests to Discord without a bot token", n)
	}
}

// BenchmarkInteractionRefusal measures refusing a forged request (Discord
// probes with them) and answering a valid PING.
func BenchmarkInteractionRefusal(b *testing.B) {
	pub, key, _ := ed25519.GenerateKey(nil)
	_, other, _ := ed25519.GenerateKey(nil)
	logger, _ := testLogger(b)
	a, err := NewAdapter(Config{PublicKey: hex.EncodeToString(pub)}, &answerFunc{}, nil, logger.Level(zerolog.InfoLevel),
		WithClock(func() time.Time { return now }))
	if err != nil {
		b.Fatal(err)
	}
	h := a.InteractionsHandler()
	body := []byte(`{"id":"p","application_id":"1","type":1,"token":"t","version":1}`)
	for _, tt := range []struct {
		name   string
		key    ed25519.PrivateKey
		status int
	}{{"forged", other, 401}, {"ping", key, 200}} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, signed(tt.key, now, body))
				if w.Code != tt.status {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
}

// TestInteractionDeferredOneMessage: a slow answer that fits one message
// is edited into the deferred response and nothing follows (there once
// was a call of the nil "nothing follows" function here).
func TestInteractionDeferredOneMessage(t *testing.T) {
	f := newFakeDiscord(t)
	release := make(chan struct{})
	ans := &answerFunc{fn: func(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
		<-release
		return &knowledge.Answer{Kind: knowledge.KindSearch, Title: "Search: widget", Text: "One."}, nil
	}}
	a, key, mux := httpAdapter(t, ans, nil, f.srv.URL)
	a.inlineBudget = 20 * time.Millisecond
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, signed(key, now, interactionBody(t, "d2", discordgo.InteractionApplicationCommand, invocation("search", "words", "widget"))))
	if !strings.HasPrefix(w.Body.String(), `{"type":5`) {
		t.Fatalf("slow answer: %s, want a type 5 deferral", w.Body)
	}
	close(release)
	edit := f.next("PATCH", "/api/v9/webhooks/"+testAppID+"/"+testInteractionToken+"/messages/@original", 5*time.Second)
	if !strings.Contains(string(edit.Body), "Search: widget") {
		t.Errorf("edit of the original lacks the answer: %.200s", edit.Body)
	}
	a.wg.Wait()
	if n := f.checkAllMessagesMuted(t); n != 1 {
		t.Errorf("%d messages through the webhook, want 1", n)
	}
}
