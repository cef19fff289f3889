package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
)

// TestEngineInvalidate: an engine keeps its catalog and search index until
// Invalidate, and after it answers from what the store holds now.
func TestEngineInvalidate(t *testing.T) {
	kb := openStore(t, synthetic(t))
	e := engine.New(kb)
	if a := ask(t, e, "search harbourprobes"); len(a.Items) != 1 || a.Items[0].KEP != 9007 {
		t.Fatalf("search harbourprobes = %q %+v", a.Text, a.Items)
	}

	// Replace the knowledge with the synthetic corpus less KEP-9007.
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	var keps []knowledge.KEP
	for _, k := range c.KEPs {
		if k.Number != 9007 {
			keps = append(keps, k)
		}
	}
	var ms []knowledge.Mention
	for _, m := range c.Mentions {
		if m.KEP != 9007 {
			ms = append(ms, m)
		}
	}
	c.KEPs, c.Mentions = keps, ms
	if err := kb.ReplaceKnowledge(context.Background(), knowledge.Compile(&c)); err != nil {
		t.Fatal(err)
	}

	if a := ask(t, e, "search harbourprobes"); len(a.Items) != 1 {
		t.Errorf("before Invalidate, search answers from the catalog it keeps; got %q", a.Text)
	}
	e.Invalidate()
	if a := ask(t, e, "search harbourprobes"); a.Error == nil || a.Error.Code != knowledge.ENOTFOUND {
		t.Errorf("after Invalidate, search harbourprobes = %s %q; want not found", a.Kind, a.Text)
	}
	if a := ask(t, e, "sig node"); len(a.Items) != 2 {
		t.Errorf("after Invalidate, sig node lists %d KEPs, want 2", len(a.Items))
	}
}

// TestEngineConcurrentInvalidate asks from several goroutines while the
// catalog is dropped again and again; run with -race.
func TestEngineConcurrentInvalidate(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				q := []string{"search widget", "1.40 ga", "diff 1.40 1.43", "sig node", "gate QuietProbes", "1.40"}[(g+i)%6]
				if a := question.NewAsker(nil, e).Ask(context.Background(), q, knowledge.Origin{}); a.Kind == knowledge.KindError {
					t.Errorf("%s: %s", q, a.Text)
				}
			}
		}()
	}
	for range 20 {
		e.Invalidate()
	}
	wg.Wait()
}

// TestEngineWarm: Warm reads the catalog, and fails as the store fails.
func TestEngineWarm(t *testing.T) {
	if err := engine.New(openStore(t, synthetic(t))).Warm(context.Background()); err != nil {
		t.Errorf("Warm: %v", err)
	}
	err := engine.New(failingStore{openStore(t, synthetic(t))}).Warm(context.Background())
	if err == nil || knowledge.ErrorCode(err) != knowledge.EINTERNAL || !strings.Contains(err.Error(), "list KEPs") {
		t.Errorf("Warm over a failing store: %v; want the wrapped store error", err)
	}
}

// TestEngineSwap: answers asked while a swap writes and builds the new
// catalog come from the old knowledge, whole; those after it from the new;
// a failed write keeps the old catalog.
func TestEngineSwap(t *testing.T) {
	kb := openStore(t, synthetic(t))
	e := engine.New(kb)
	if err := e.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	c.Releases = append(c.Releases, knowledge.Release{Version: knowledge.MustVersion("1.45"), Date: "2031-08-20", Theme: "Driftwood", Sources: []string{"notes-1.43-en"}})
	during := make(chan *knowledge.Answer, 1)
	err = e.Swap(context.Background(), func() error {
		if err := kb.ReplaceKnowledge(context.Background(), knowledge.Compile(&c)); err != nil {
			return err
		}
		during <- ask(t, e, "1.45") // the new knowledge is written, the catalog not yet swapped
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if a := <-during; a.Error == nil {
		t.Errorf("during the swap, 1.45 = %q; want the old knowledge, which does not know it", a.Text)
	}
	if a := ask(t, e, "1.45"); a.Error != nil || !strings.Contains(a.Text, "Driftwood") {
		t.Errorf("after the swap, 1.45 = %q", a.Text)
	}
	boom := errors.New("disk full")
	if err := e.Swap(context.Background(), func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Swap with a failing write = %v", err)
	}
	if a := ask(t, e, "1.45"); a.Error != nil {
		t.Errorf("after a failed swap, 1.45 = %q; want the catalog kept", a.Text)
	}
}
