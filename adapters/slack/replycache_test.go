package slack

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// generationAnswerer is the fake answerer with a generation, as a
// engine.CachedAnswerer has: the adapter may keep its replies.
type generationAnswerer struct {
	fakeAnswerer
	gen atomic.Uint64
}

func (g *generationAnswerer) Generation() uint64 { return g.gen.Load() }

// countingRecorder counts answers by kind.
type countingRecorder struct {
	mu       sync.Mutex
	answered map[string]int
}

func (r *countingRecorder) Answered(_, kind string, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answered == nil {
		r.answered = map[string]int{}
	}
	r.answered[kind]++
}

func (r *countingRecorder) Failed(string, string) {}

func (r *countingRecorder) count(kind string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answered[kind]
}

// slashRequest is a new invocation of /k8s text, signed now.
func slashRequest(text string) *http.Request {
	return signedRequest(PathCommands, formType, testSecret, time.Now(), freshSlashBody(text, testHooksURL))
}

// TestRepliesKept asks through the HTTP handler and checks when the
// answerer is asked again: never for a question kept in this generation,
// in any spelling; again for a new generation, an internal error, a
// subscription question or an answerer without generations.
func TestRepliesKept(t *testing.T) {
	ans := &generationAnswerer{}
	rec := &countingRecorder{}
	a, _ := newHTTPAdapter(t, ans, WithRecorder(rec))
	asked := func() int { return len(ans.questions()) }
	send := func(text string) *httptest.ResponseRecorder {
		t.Helper()
		w := serve(a, slashRequest(text))
		if w.Code != 200 {
			t.Fatalf("%q: status %d", text, w.Code)
		}
		if got, want := w.Header().Get("Content-Length"), strconv.Itoa(w.Body.Len()); got != want {
			t.Errorf("%q: Content-Length %q for %s bytes", text, got, want)
		}
		return w
	}

	first := send("kep 4639").Body.String()
	for _, text := range []string{"kep 4639", "  kep   4639 ", "KEP-4639", "kep 4639"} {
		if got := send(text).Body.String(); got != first {
			t.Errorf("%q: reply differs from the first:\n%s", text, cmp.Diff(first, got))
		}
	}
	if n := asked(); n != 2 {
		t.Errorf("asked %d times for one question in three spellings, want 2 (the new spelling parses once)", n)
	}
	if n := rec.count(string(knowledge.KindKEP)); n != 5 {
		t.Errorf("%d KEP answers recorded for 5 requests", n)
	}

	public := send("kep 4639 --public").Body.String()
	if !strings.Contains(public, `"response_type":"in_channel"`) || strings.Contains(first, `"response_type":"in_channel"`) {
		t.Errorf("--public and not share a reply:\n%s\n%s", first, public)
	}
	if send("kep 4639 --PUBLIC").Body.String() != public || asked() != 3 {
		t.Errorf("--PUBLIC is not --public kept (asked %d)", asked())
	}

	send("kep 1")
	send("kep 1") // a miss, kept
	if n := asked(); n != 4 {
		t.Errorf("asked %d times, want 4: a miss is kept", n)
	}

	ans.gen.Add(1)
	send("kep 4639")
	send("kep 4639")
	if n := asked(); n != 5 {
		t.Errorf("asked %d times, want 5: a new generation asks once again", n)
	}

	for _, text := range []string{"subscriptions", "subscriptions", "what is this", "what is this"} {
		send(text)
	}
	if n := asked(); n != 7 {
		t.Errorf("asked %d times, want 7: subscriptions are asked each time (and bad input never reaches the answerer)", n)
	}

	ans.mu.Lock()
	ans.err = errors.New("bbolt: page 42 corrupt")
	ans.mu.Unlock()
	for range 2 {
		if body := send("1.29 ga").Body.String(); !strings.Contains(body, "something went wrong") {
			t.Errorf("internal error answer = %s", body)
		}
	}
	if n := asked(); n != 9 {
		t.Errorf("asked %d times, want 9: an internal error is not kept", n)
	}
}

func TestNoRepliesKeptWithoutGenerations(t *testing.T) {
	ans := &fakeAnswerer{}
	a, _ := newHTTPAdapter(t, ans)
	if a.replies != nil {
		t.Fatal("replies kept for an answerer that never says its answers changed")
	}
	for range 3 {
		serve(a, slashRequest("kep 4639"))
	}
	if n := len(ans.questions()); n != 3 {
		t.Errorf("asked %d times for 3 requests, want 3", n)
	}
}

// TestKeptRepliesNeedASignature primes the reply cache, then sends the
// same command in every way the verifier refuses: each gets 401 and none
// of the kept reply.
func TestKeptRepliesNeedASignature(t *testing.T) {
	ans := &generationAnswerer{}
	rec := &countingRecorder{}
	a, _ := newHTTPAdapter(t, ans, WithRecorder(rec))
	if w := serve(a, slashRequest("kep 4639")); w.Code != 200 {
		t.Fatalf("priming: status %d", w.Code)
	}
	body := slashBody("kep 4639", testHooksURL)
	now := time.Now()
	for name, r := range map[string]*http.Request{
		"tampered body": func() *http.Request {
			r := signedRequest(PathCommands, formType, testSecret, now, body)
			r.Body = httpBody(bytes.Replace(body, []byte("general"), []byte("generaL"), 1))
			return r
		}(),
		"signed 6 minutes ago":   signedRequest(PathCommands, formType, testSecret, now.Add(-6*time.Minute), body),
		"signed 6 minutes ahead": signedRequest(PathCommands, formType, testSecret, now.Add(6*time.Minute), body),
		"unknown secret":         signedRequest(PathCommands, formType, "another-secret", now, body),
		"wrong content type":     signedRequest(PathCommands, "text/plain", testSecret, now, body),
		"missing signature": func() *http.Request {
			r := signedRequest(PathCommands, formType, testSecret, now, body)
			r.Header.Del(headerSignature)
			return r
		}(),
		"2 MB body": signedRequest(PathCommands, formType, testSecret, now, slashBody("kep 4639 "+strings.Repeat("x", 2<<20), testHooksURL)),
	} {
		w := serve(a, r)
		if w.Code != 401 || strings.Contains(w.Body.String(), "4639") || strings.Contains(w.Body.String(), "blocks") {
			t.Errorf("%s: %d %q, want 401 without the answer", name, w.Code, w.Body.String())
		}
	}
	if n := rec.count(string(knowledge.KindKEP)); n != 1 {
		t.Errorf("%d answers recorded, want only the priming one", n)
	}
}

// TestKeptRepliesAreTheRenderedOnes asks the real engine over bbolt twice
// through a engine.CachedAnswerer (the second time from the kept reply)
// and once without any cache: all three replies are the same bytes.
func TestKeptRepliesAreTheRenderedOnes(t *testing.T) {
	eng, _ := realEngine(t)
	cached, _ := newHTTPAdapter(t, engine.NewCachedAnswerer(eng, 64))
	plain, _ := newHTTPAdapter(t, eng)
	for _, text := range []string{"kep 4639", "kep 4639 --public", "1.29 ga", "1.29 ga --public", "releases", "help",
		"kep 99999999", "search image volume", "1.32 deprecations", "diff 1.29 1.32", "sig node 1.30", "", "gate ImageVolume"} {
		want := serve(plain, slashRequest(text)).Body.String()
		for i := range 2 {
			if got := serve(cached, slashRequest(text)).Body.String(); got != want {
				t.Errorf("%q, request %d (-plain +cached):\n%s", text, i+1, cmp.Diff(want, got))
			}
		}
	}
	if n, _ := cached.replies.len(); n < 10 {
		t.Errorf("%d replies kept", n)
	}
}

func TestReplyCacheBounds(t *testing.T) {
	c := newReplyCache(&generationAnswerer{})
	ans := &knowledge.Answer{Kind: knowledge.KindKEP, Query: "kep 1"}
	small := []byte(`{"text":"x"}`)
	for n := range 3 * replyCacheEntries {
		text := "kep " + strconv.Itoa(n)
		c.keep(text, engine.AnswerKey{Kind: knowledge.AskKEP, KEP: n}, false, 0, ans, small)
	}
	if r, al := c.len(); r > replyCacheEntries || al > replyCacheAliases {
		t.Errorf("%d replies and %d aliases kept, bounds %d and %d", r, al, replyCacheEntries, replyCacheAliases)
	}
	for n := range 2 * replyCacheAliases {
		c.keep("kep  "+strconv.Itoa(n), engine.AnswerKey{Kind: knowledge.AskKEP, KEP: 1}, false, 0, ans, small)
	}
	if _, al := c.len(); al > replyCacheAliases {
		t.Errorf("%d aliases kept, bound %d", al, replyCacheAliases)
	}

	c = newReplyCache(&generationAnswerer{})
	big := bytes.Repeat([]byte("x"), replyCacheMaxReply)
	for n := range 2 * replyCacheBytes / replyCacheMaxReply {
		c.keep("kep "+strconv.Itoa(n), engine.AnswerKey{Kind: knowledge.AskKEP, KEP: n}, false, 0, ans, big)
		if c.bytes > replyCacheBytes {
			t.Fatalf("%d bytes kept, bound %d", c.bytes, replyCacheBytes)
		}
	}
	c.keep("kep huge", engine.AnswerKey{Kind: knowledge.AskKEP, KEP: -1}, false, 0, ans, append(big, 'x'))
	if c.lookup([]byte("kep huge"), false) != nil {
		t.Error("a reply over the size cap was kept")
	}
	if c.lookup([]byte("kep 1"), true) != nil {
		t.Error("a reply kept for ephemeral is served for --public")
	}
}

func httpBody(b []byte) *readCloser { return &readCloser{bytes.NewReader(b)} }

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// TestReplyKeptRace asks and bumps the generation from many goroutines;
// under -race it proves the reply cache's locking, and every reply must
// be to its own question.
func TestReplyKeptRace(t *testing.T) {
	ans := &generationAnswerer{}
	a, _ := newHTTPAdapter(t, ans)
	h := a.Handler()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for i := range 60 {
				if g == 0 && i%10 == 0 {
					ans.gen.Add(1)
				}
				text := []string{"kep 4639", "1.29 ga", "1.30 ga", "kep 1"}[(i+g)%4]
				w := httptest.NewRecorder()
				h.ServeHTTP(w, slashRequest(text))
				want := map[string]string{"kep 4639": "KEP-4639", "1.29 ga": "1.29", "1.30 ga": "1.30", "kep 1": "KEP-1"}[text]
				if w.Code != 200 || !strings.Contains(w.Body.String(), want) {
					t.Errorf("%q: %d %s", text, w.Code, w.Body.String())
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestSlashQuestionIsSlashText: the allocation-free reading of ASCII text
// agrees with slashText, and leaves other text to it.
func TestSlashQuestionIsSlashText(t *testing.T) {
	for _, in := range []string{"kep 4639", "kep 4639 --public", "  kep\t4639\n", "--public", "--PUBLIC", "", "   ",
		"search public", "1.29 ga --Public ", "a  b   c", "kep --public 4639", "x--public", "\v\f\r"} {
		checkSlashQuestion(t, in)
	}
	if _, _, ok := slashQuestion([]byte("1.29 ga —public")); ok {
		t.Error("slashQuestion read non-ASCII text")
	}
}

func checkSlashQuestion(t *testing.T, in string) {
	t.Helper()
	wantQ, wantPublic := slashText(in)
	q, public, ok := slashQuestion([]byte(in))
	if !ok {
		t.Fatalf("slashQuestion(%q) refused ASCII text", in)
	}
	if string(q) != wantQ || public != wantPublic {
		t.Errorf("slashQuestion(%q) = %q %v, slashText says %q %v", in, q, public, wantQ, wantPublic)
	}
}

// FuzzSlashQuestion compares slashQuestion with slashText on any ASCII:
//
//	go test -run '^$' -fuzz FuzzSlashQuestion -fuzztime 30s ./adapters/slack/
func FuzzSlashQuestion(f *testing.F) {
	for _, s := range []string{"kep 4639 --public", " --PuBlIc", "a\tb", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for i := 0; i < len(in); i++ {
			if in[i] >= 0x80 {
				return
			}
		}
		checkSlashQuestion(t, in)
	})
}

// TestKeptReplyAllocatesNothing guards the hot path: verifying, reading the
// form and serving a kept reply allocate nothing of their own.
func TestKeptReplyAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	a, _ := newHTTPAdapter(t, &generationAnswerer{})
	a.log = a.log.Level(zerolog.InfoLevel) // production's; debug logs the question
	body := slashBody("kep 4639", testHooksURL)
	form, err := scanSlashForm(body)
	if err != nil {
		t.Fatal(err)
	}
	w := &discardWriter{h: http.Header{}}
	serve(a, slashRequest("kep 4639")) // keeps the reply
	if !a.replyKept(w, &form, time.Now()) {
		t.Fatal("the reply was not kept")
	}
	if n := testing.AllocsPerRun(100, func() {
		f, _ := scanSlashForm(body)
		a.replyKept(w, &f, time.Time{})
	}); n > 0 {
		t.Errorf("scanning the form and serving the kept reply allocate %.1f times, want 0", n)
	}
	escaped := []byte("text=%E2%80%94public+kep&user_id=U%31")
	if n := testing.AllocsPerRun(100, func() { _, _ = scanSlashForm(escaped) }); n > 0 {
		t.Errorf("scanning escaped values allocates %.1f times, want 0", n)
	}
}

// sharedAnswerer hands everyone the same Answer, without Query, as a
// cache may.
type sharedAnswerer struct{ a *knowledge.Answer }

func (s sharedAnswerer) Answer(context.Context, knowledge.Question) (*knowledge.Answer, error) {
	return s.a, nil
}

// TestSharedAnswersUnchanged: the adapter fills in an answer's Query on a
// copy, never on the Answer it was given.
func TestSharedAnswersUnchanged(t *testing.T) {
	shared := &knowledge.Answer{Kind: knowledge.KindKEP, Title: "KEP-4639: OCI VolumeSource", Text: "beta"}
	a, _ := newHTTPAdapter(t, sharedAnswerer{shared})
	if w := serve(a, slashRequest("kep 4639")); w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	if got := a.ask(context.Background(), "kep 4639", "test", knowledge.Origin{}, time.Now()); got.Query != "kep 4639" {
		t.Errorf("Query = %q", got.Query)
	}
	if shared.Query != "" {
		t.Errorf("the shared answer was changed: Query = %q", shared.Query)
	}
}
