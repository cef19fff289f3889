package discord

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// TestRenderMemo: behind a CachedAnswerer, an interaction asked again is
// answered from the memo with the very bytes rendered the first time, the
// same bytes an adapter without a memo sends; a new generation renders
// afresh.
func TestRenderMemo(t *testing.T) {
	eng := testEngine(t)
	cached := engine.NewCachedAnswerer(eng, 64)
	pub, key, _ := ed25519.GenerateKey(nil)
	logger, _ := testLogger(t)
	adapter := func(ans knowledge.Answerer) *Adapter {
		a, err := NewAdapter(Config{PublicKey: hex.EncodeToString(pub)}, ans, nil, logger, WithClock(func() time.Time { return now }))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	withMemo, without := adapter(cached), adapter(eng)
	if withMemo.memo == nil || without.memo != nil {
		t.Fatalf("memo %v behind the cache and %v behind the engine; want one and none", withMemo.memo, without.memo)
	}
	n := 0
	ask := func(a *Adapter, text string) []byte {
		t.Helper()
		n++
		p := interactionPayload("7"+strconv.Itoa(n), discordgo.InteractionApplicationCommand, invocation("release", "version", text))
		body, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		a.InteractionsHandler().ServeHTTP(w, signed(key, now, body))
		if w.Code != 200 || w.Header().Get("Content-Length") != strconv.Itoa(w.Body.Len()) {
			t.Fatalf("status %d, Content-Length %q for %d bytes: %s", w.Code, w.Header().Get("Content-Length"), w.Body.Len(), w.Body)
		}
		return w.Body.Bytes()
	}
	first := ask(withMemo, "1.29")
	if len(withMemo.memo.m) != 1 {
		t.Fatalf("%d renderings kept after one answer, want 1", len(withMemo.memo.m))
	}
	var kept *rendering
	for _, r := range withMemo.memo.m {
		kept = r
	}
	again := ask(withMemo, "1.29")
	if !bytes.Equal(first, again) || !bytes.Equal(again, kept.first.raw) {
		t.Fatalf("asked again, got other bytes than the kept rendering:\n%s\n%s", first, again)
	}
	if plain := ask(without, "1.29"); !bytes.Equal(plain, first) {
		t.Errorf("the memo changed the answer:\nwith    %s\nwithout %s", first, plain)
	}
	if other := ask(withMemo, "1.30"); bytes.Equal(other, first) || len(withMemo.memo.m) != 2 {
		t.Errorf("another question got the kept answer, or was not kept (%d kept)", len(withMemo.memo.m))
	}
	if miss := ask(withMemo, "1.99"); !bytes.Contains(miss, []byte("1.99")) || len(withMemo.memo.m) != 2 {
		t.Errorf("an error answer was kept (%d kept); made anew each time, it is never found again", len(withMemo.memo.m))
	}
	cached.Invalidate() // the knowledge changed
	if after := ask(withMemo, "1.29"); !bytes.Equal(after, first) || len(withMemo.memo.m) != 1 || withMemo.memo.at != cached.Generation() {
		t.Errorf("after a new generation: %d kept at generation %d (answerer at %d), want the one rendered afresh",
			len(withMemo.memo.m), withMemo.memo.at, cached.Generation())
	}
}
