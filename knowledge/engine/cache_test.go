package engine_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
)

// countingAnswerer answers every question with a fresh Answer naming it,
// counts how often it was asked, and records whether it was invalidated.
// KEPs 90000 to 98999 are misses; KEP 99500 fails inside, KEP 99501 with a
// cancelled context; KEP 99777 waits for block before answering.
type countingAnswerer struct {
	asked       atomic.Int64
	invalidated atomic.Int64
	noQuery     bool // leave Query empty, as an Answerer may
	block       chan struct{}
	started     chan struct{}
}

func (f *countingAnswerer) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	f.asked.Add(1)
	gen := f.invalidated.Load()
	if q.KEP == 99777 && f.block != nil {
		f.started <- struct{}{}
		<-f.block
	}
	switch {
	case q.KEP == 99500:
		return nil, errors.New("bbolt: read page 9: input/output error")
	case q.KEP == 99501:
		return nil, fmt.Errorf("find KEP-99501: %w", context.Canceled)
	case q.KEP >= 90000 && q.KEP < 99000:
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I don't know KEP-%d.", q.KEP)
	}
	a := &knowledge.Answer{Kind: knowledge.KindKEP, Title: q.Canonical() + " from " + q.From.Channel,
		Text: "generation " + strconv.FormatInt(gen, 10)}
	if !f.noQuery {
		a.Query = q.Canonical()
	}
	return a, nil
}

func (f *countingAnswerer) Invalidate() { f.invalidated.Add(1) }

func mustParse(t testing.TB, text string) knowledge.Question {
	t.Helper()
	q, err := question.Parse(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return q
}

func TestCachedAnswererHitsAndMisses(t *testing.T) {
	inner := &countingAnswerer{}
	c := engine.NewCachedAnswerer(inner, 16)
	ctx := context.Background()
	first, err := c.Answer(ctx, mustParse(t, "kep 4639"))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"kep 4639", "KEP-4639", "4639", "kep ４６３９"} {
		a, err := c.Answer(ctx, mustParse(t, text))
		if err != nil || a != first {
			t.Errorf("%q: got %p (%v), want the kept answer %p", text, a, err, first)
		}
	}
	if n := inner.asked.Load(); n != 1 {
		t.Errorf("asked %d times for one question in four spellings, want 1", n)
	}
	for _, text := range []string{"kep 4640", "1.29 ga", "1.29 beta", "1.30 ga", "diff 1.29 1.32", "upgrade 1.29 1.32", "search image volume"} {
		if _, err := c.Answer(ctx, mustParse(t, text)); err != nil {
			t.Fatal(err)
		}
	}
	if n := inner.asked.Load(); n != 8 {
		t.Errorf("asked %d times for 8 different questions, want 8", n)
	}
	if n := c.Len(); n != 8 {
		t.Errorf("Len = %d, want 8", n)
	}
}

// TestCacheKeyFollowsTheCanonicalForm parses questions of every kind that
// may be kept and checks that two of them share a key exactly when they
// share a canonical form: the key leaves out nothing that changes it.
func TestCacheKeyFollowsTheCanonicalForm(t *testing.T) {
	texts := []string{
		"kep 4639", "kep 4640", "KEP-4639", "1.29", "1.30", "v1.29", "1.29 ga", "1.29 beta", "1.29 alpha", "1.30 ga",
		"ga 1.29", "1.29 deprecations", "1.29 removals", "1.29 notices", "1.30 deprecations", "releases", "help",
		"help subscribe", "help kep", "gate NFTablesProxyMode", "gate ImageVolume", "search image volume",
		"search image", "diff 1.29 1.32", "diff 1.29 1.31", "diff 1.30 1.32", "upgrade 1.29 1.32", "sig node",
		"sig node 1.30", "sig network", "sig network 1.30", "upgrade 1.29 1.32 sig-node", "upgrade 1.29 1.32 sig-network",
	}
	qs := make([]knowledge.Question, len(texts))
	for i, text := range texts {
		qs[i] = mustParse(t, text)
		if _, ok := engine.CacheKey(qs[i]); !ok {
			t.Fatalf("%q (%s) may not be kept", text, qs[i].Kind)
		}
	}
	for i := range qs {
		for j := range qs {
			ki, _ := engine.CacheKey(qs[i])
			kj, _ := engine.CacheKey(qs[j])
			if sameKey, sameForm := ki == kj, qs[i].Canonical() == qs[j].Canonical(); sameKey != sameForm {
				t.Errorf("%q and %q: same key %v, same canonical form %v (%q, %q)",
					texts[i], texts[j], sameKey, sameForm, qs[i].Canonical(), qs[j].Canonical())
			}
		}
	}
}

func TestCachedAnswererNeverKeepsSubscriptions(t *testing.T) {
	inner := &countingAnswerer{}
	c := engine.NewCachedAnswerer(inner, 16)
	for _, text := range []string{"subscribe deprecations", "subscribe deprecations sig:node", "unsubscribe deprecations", "subscriptions"} {
		q := mustParse(t, text)
		if _, ok := engine.CacheKey(q); ok {
			t.Errorf("%q may be kept", text)
		}
		before := inner.asked.Load()
		for _, ch := range []string{"C1", "C2", "C1"} {
			q.From = knowledge.Origin{Platform: "slack", Channel: ch}
			a, err := c.Answer(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if want := q.Canonical() + " from " + ch; a.Title != want {
				t.Errorf("%q from %s: answer %q, want %q", text, ch, a.Title, want)
			}
		}
		if n := inner.asked.Load() - before; n != 3 {
			t.Errorf("%q: asked %d times for 3 questions, want 3", text, n)
		}
	}
	if n := c.Len(); n != 0 {
		t.Errorf("Len = %d after only subscription questions, want 0", n)
	}
	if _, ok := engine.CacheKey(knowledge.Question{Kind: "something new"}); ok {
		t.Error("a kind CacheKey does not know may be kept")
	}
}

func TestCachedAnswererKeepsOnlyDomainErrors(t *testing.T) {
	tests := []struct {
		kep      int
		wantCode string
		wantKept bool
	}{
		{90001, knowledge.ENOTFOUND, true},
		{99500, knowledge.EINTERNAL, false},
		{99501, knowledge.EINTERNAL, false}, // a cancelled context
	}
	for _, tt := range tests {
		inner := &countingAnswerer{}
		c := engine.NewCachedAnswerer(inner, 16)
		q := knowledge.Question{Kind: knowledge.AskKEP, KEP: tt.kep}
		for range 2 {
			a, err := c.Answer(context.Background(), q)
			if a != nil || knowledge.ErrorCode(err) != tt.wantCode {
				t.Errorf("KEP-%d: %v, %v; want an error of code %s", tt.kep, a, err, tt.wantCode)
			}
		}
		if kept := inner.asked.Load() == 1; kept != tt.wantKept {
			t.Errorf("KEP-%d: asked %d times for 2 questions; kept = %v, want %v", tt.kep, inner.asked.Load(), kept, tt.wantKept)
		}
	}
	bad := badInputAnswerer{}
	c := engine.NewCachedAnswerer(&bad, 4)
	for range 3 {
		if _, err := c.Answer(context.Background(), knowledge.Question{Kind: knowledge.AskRelease, Version: knowledge.MustVersion("1.99")}); knowledge.ErrorCode(err) != knowledge.EBADINPUT {
			t.Fatalf("err = %v", err)
		}
	}
	if bad.asked.Load() != 1 {
		t.Errorf("asked %d times; a bad-input error is not kept", bad.asked.Load())
	}
}

type badInputAnswerer struct{ asked atomic.Int64 }

func (b *badInputAnswerer) Answer(context.Context, knowledge.Question) (*knowledge.Answer, error) {
	b.asked.Add(1)
	return nil, knowledge.Errorf(knowledge.EBADINPUT, "I cannot answer that yet.")
}

func TestCachedAnswererFillsQueryOnACopy(t *testing.T) {
	inner := &countingAnswerer{noQuery: true}
	c := engine.NewCachedAnswerer(inner, 4)
	a, err := c.Answer(context.Background(), mustParse(t, "1.29 ga"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Query != "1.29 ga" {
		t.Errorf("Query = %q, want the canonical form", a.Query)
	}
}

func TestCachedAnswererInvalidate(t *testing.T) {
	inner := &countingAnswerer{}
	c := engine.NewCachedAnswerer(inner, 16)
	ctx := context.Background()
	q := mustParse(t, "kep 4639")
	old, _ := c.Answer(ctx, q)
	g := c.Generation()
	c.Invalidate()
	if c.Generation() != g+1 {
		t.Errorf("Generation = %d after Invalidate, want %d", c.Generation(), g+1)
	}
	if inner.invalidated.Load() != 1 {
		t.Error("Invalidate did not invalidate the wrapped Answerer")
	}
	if c.Len() != 0 {
		t.Errorf("Len = %d after Invalidate, want 0", c.Len())
	}
	fresh, _ := c.Answer(ctx, q)
	if fresh == old || fresh.Text != "generation 1" || inner.asked.Load() != 2 {
		t.Errorf("after Invalidate: %q (asked %d times), want a new answer", fresh.Text, inner.asked.Load())
	}
}

// TestCachedAnswererDropsAnswersOfAnOldGeneration: an answer that was being
// computed while Invalidate ran is given to its asker but not kept.
func TestCachedAnswererDropsAnswersOfAnOldGeneration(t *testing.T) {
	inner := &countingAnswerer{block: make(chan struct{}), started: make(chan struct{})}
	c := engine.NewCachedAnswerer(inner, 16)
	q := knowledge.Question{Kind: knowledge.AskKEP, KEP: 99777}
	done := make(chan *knowledge.Answer)
	go func() {
		a, _ := c.Answer(context.Background(), q)
		done <- a
	}()
	<-inner.started
	c.Invalidate()
	close(inner.block)
	if a := <-done; a == nil || a.Text != "generation 0" {
		t.Fatalf("the answer in flight = %+v", a)
	}
	if n := c.Len(); n != 0 {
		t.Errorf("Len = %d: the answer of the old generation was kept", n)
	}
	go func() { <-inner.started }()
	a, _ := c.Answer(context.Background(), q)
	if a.Text != "generation 1" || inner.asked.Load() != 2 {
		t.Errorf("got %q after %d asks: the old generation's answer was kept", a.Text, inner.asked.Load())
	}
}

// TestCachedAnswererBound asks many more questions than it may keep: it
// never holds more, and an answer asked for again since the clock's hand
// last passed outlives those that were not.
func TestCachedAnswererBound(t *testing.T) {
	for _, size := range []int{1, 8, 100, 2048} {
		inner := &countingAnswerer{}
		c := engine.NewCachedAnswerer(inner, size)
		ctx := context.Background()
		for n := range 3 * size {
			if _, err := c.Answer(ctx, knowledge.Question{Kind: knowledge.AskKEP, KEP: n + 1}); err != nil {
				t.Fatal(err)
			}
			if c.Len() > size {
				t.Fatalf("size %d: Len = %d", size, c.Len())
			}
		}
		if c.Len() != size {
			t.Errorf("size %d: Len = %d, want it full", size, c.Len())
		}
	}

	inner := &countingAnswerer{}
	c := engine.NewCachedAnswerer(inner, 8)
	ctx := context.Background()
	kep := func(n int) knowledge.Question { return knowledge.Question{Kind: knowledge.AskKEP, KEP: n} }
	for n := 1; n <= 8; n++ {
		_, _ = c.Answer(ctx, kep(n))
	}
	_, _ = c.Answer(ctx, kep(1)) // the oldest, used again
	_, _ = c.Answer(ctx, kep(9)) // evicts one that was not
	before := inner.asked.Load()
	_, _ = c.Answer(ctx, kep(1))
	if inner.asked.Load() != before {
		t.Error("the answer used again was evicted before those that were not")
	}
	kept := 0
	for n := 1; n <= 9; n++ {
		b := inner.asked.Load()
		_, _ = c.Answer(ctx, kep(n))
		if inner.asked.Load() == b {
			kept++
		}
	}
	if kept > 8 {
		t.Errorf("%d of 9 answers kept with room for 8", kept)
	}
}

// TestCachedAnswererConcurrent asks overlapping questions from many
// goroutines while others invalidate; under -race it proves the locking,
// and every answer must be the one to its own question.
func TestCachedAnswererConcurrent(t *testing.T) {
	inner := &countingAnswerer{}
	c := engine.NewCachedAnswerer(inner, 64*16) // sharded
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				n := (i*7+g)%300 + 1
				if g == 0 && i%250 == 0 {
					c.Invalidate()
				}
				q := knowledge.Question{Kind: knowledge.AskKEP, KEP: n}
				a, err := c.Answer(context.Background(), q)
				if err != nil {
					t.Error(err)
					return
				}
				if a.Query != q.Canonical() {
					t.Errorf("asked %q, got the answer to %q", q.Canonical(), a.Query)
					return
				}
			}
		})
	}
	wg.Wait()
	if c.Len() > 64*16 {
		t.Errorf("Len = %d", c.Len())
	}
}

// TestCachedAnswererOverTheEngine keeps the engine's answers over a real
// bbolt file, replaces the knowledge, invalidates, and sees the new.
func TestCachedAnswererOverTheEngine(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	kb := db.Knowledge()
	ctx := context.Background()
	know := func(title string) *knowledge.Knowledge {
		return &knowledge.Knowledge{
			Sources: []knowledge.Source{{ID: "kep.yaml", Name: "kep.yaml", Kind: knowledge.SourceKEPYAML, AsOf: "2025-01-01"}},
			KEPs:    []knowledge.KEP{{Number: 4639, Title: title, SIG: "sig-node", Stage: knowledge.StageAlpha, Source: "kep.yaml"}},
		}
	}
	if err := kb.ReplaceKnowledge(ctx, know("Before")); err != nil {
		t.Fatal(err)
	}
	c := engine.NewCachedAnswerer(engine.New(kb), 16)
	q := mustParse(t, "kep 4639")
	title := func() string {
		a, err := c.Answer(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return a.KEP.Title
	}
	if got := title(); got != "Before" {
		t.Fatalf("title %q", got)
	}
	if err := kb.ReplaceKnowledge(ctx, know("After")); err != nil {
		t.Fatal(err)
	}
	if got := title(); got != "Before" {
		t.Errorf("before Invalidate: %q, want the kept answer", got)
	}
	c.Invalidate()
	if diff := cmp.Diff("After", title()); diff != "" {
		t.Errorf("after Invalidate (-want +got):\n%s", diff)
	}
	if _, err := c.Answer(ctx, mustParse(t, "kep 4640")); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("a KEP the knowledge lacks: %v", err)
	}
}
