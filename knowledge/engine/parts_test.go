package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
)

// coldAndWarm answers q twice: from an engine that has loaded nothing
// (kep and notices answers then read the store) and from one whose
// catalog, with its answer parts, is loaded.
func coldAndWarm(t *testing.T, kb knowledge.KnowledgeStore, warm *engine.Engine, q knowledge.Question) (cold, hot *knowledge.Answer, coldErr, hotErr error) {
	t.Helper()
	ctx := context.Background()
	cold, coldErr = engine.New(kb).Answer(ctx, q)
	hot, hotErr = warm.Answer(ctx, q)
	return cold, hot, coldErr, hotErr
}

// TestEngineColdEqualsWarm: every golden question gets the same answer, or
// the same error, before the catalog is loaded and after.
func TestEngineColdEqualsWarm(t *testing.T) {
	kb := openStore(t, synthetic(t))
	warm := engine.New(kb)
	if err := warm.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	extra := []string{"kep 9002", "kep 9003", "kep 9006", "kep 9007", "kep 9008", "1.43", "1.41 ga", "1.43 alpha",
		"1.41 notices", "1.43 upgrade notes", "1.40 deprecations", "1.99", "1.99 deprecations", "sig node 1.99", "gate quietprobes"}
	qs := append([]string(nil), extra...)
	for _, q := range goldenQuestions {
		qs = append(qs, q)
	}
	for _, text := range qs {
		q, err := question.Parse(text)
		if err != nil {
			continue // the golden test covers questions that do not parse
		}
		cold, hot, coldErr, hotErr := coldAndWarm(t, kb, warm, q)
		if diff := cmp.Diff(errorOf(coldErr), errorOf(hotErr)); diff != "" {
			t.Errorf("%s: error cold vs warm (-cold +warm):\n%s", text, diff)
		}
		if diff := cmp.Diff(cold, hot); diff != "" {
			t.Errorf("%s: answer cold vs warm (-cold +warm):\n%s", text, diff)
		}
	}
}

// errorOf is what an error shows: its code, message and suggestions.
func errorOf(err error) *knowledge.Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*knowledge.Error); ok {
		return e
	}
	return &knowledge.Error{Code: knowledge.ErrorCode(err), Message: err.Error()}
}

// TestEngineColdEqualsWarmCorpus: over the whole of ../shared, every KEP,
// every release, every release's alpha, beta and GA list and each kind of
// its notices, and the list of releases are answered the same from the
// answer parts the catalog builds as from the store.
func TestEngineColdEqualsWarmCorpus(t *testing.T) {
	k := fullKnowledge(t)
	kb := openStore(t, k)
	warm := engine.New(kb)
	if err := warm.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	ks := &catalogReads{KnowledgeStore: kb}
	cold := engine.New(ks) // kep and notice answers must not load the catalog
	defer func() {
		if ks.n > 0 {
			t.Errorf("the cold engine read the catalog %d times; it compared warm with warm", ks.n)
		}
	}()
	ctx := context.Background()
	for _, kp := range k.KEPs {
		q := knowledge.Question{Kind: knowledge.AskKEP, KEP: kp.Number}
		a, err := cold.Answer(ctx, q)
		if err != nil {
			t.Fatalf("kep %d cold: %v", kp.Number, err)
		}
		b, err := warm.Answer(ctx, q)
		if err != nil {
			t.Fatalf("kep %d warm: %v", kp.Number, err)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("kep %d cold vs warm (-cold +warm):\n%s", kp.Number, diff)
		}
	}
	// Notice lists and the releases answer do not load the catalog either.
	nq := []knowledge.Question{{Kind: knowledge.AskReleases}}
	for _, r := range k.Releases {
		for _, kind := range []knowledge.NoticeKind{"", knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade} {
			nq = append(nq, knowledge.Question{Kind: knowledge.AskNotices, Version: r.Version, Notice: kind})
		}
	}
	for _, q := range nq {
		a, err := cold.Answer(ctx, q)
		if err != nil {
			t.Fatalf("%s cold: %v", q.Canonical(), err)
		}
		b, err := warm.Answer(ctx, q)
		if err != nil {
			t.Fatalf("%s warm: %v", q.Canonical(), err)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s cold vs warm (-cold +warm):\n%s", q.Canonical(), diff)
		}
	}
	var qs []knowledge.Question
	for _, r := range k.Releases {
		qs = append(qs, knowledge.Question{Kind: knowledge.AskRelease, Version: r.Version})
		for _, s := range knowledge.GraduationStages {
			qs = append(qs, knowledge.Question{Kind: knowledge.AskReleaseStage, Version: r.Version, Stage: s})
		}
	}
	for _, q := range qs {
		a, err := engine.New(kb).Answer(ctx, q) // reads the release from the store
		if err != nil {
			t.Fatalf("%s cold: %v", q.Canonical(), err)
		}
		b, err := warm.Answer(ctx, q)
		if err != nil {
			t.Fatalf("%s warm: %v", q.Canonical(), err)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s cold vs warm (-cold +warm):\n%s", q.Canonical(), diff)
		}
	}
}

// TestEngineAnswersDoNotShareGrowth: answers built from the catalog's
// shared parts share no room to grow: what one caller appends to an
// answer's lists is neither seen nor overwritten by another's.
func TestEngineAnswersDoNotShareGrowth(t *testing.T) {
	e := engine.New(openStore(t, synthetic(t)))
	for _, q := range []string{"kep 9002", "kep 9003", "1.40", "1.41", "1.43 beta", "1.40 ga", "1.40 alpha", "gate widgetscheduling"} {
		for _, warm := range []bool{false, true} {
			if warm {
				if err := e.Warm(context.Background()); err != nil {
					t.Fatal(err)
				}
			} else {
				e.Invalidate()
			}
			want, err := json.Marshal(ask(t, e, q))
			if err != nil {
				t.Fatal(err)
			}
			grow := func(tag string) *knowledge.Answer {
				a := ask(t, e, q)
				a.Items = append(a.Items, knowledge.Item{Title: tag})
				a.Notes = append(a.Notes, tag)
				a.Sources = append(a.Sources, knowledge.SourceRef{Name: tag})
				a.Facts = append(a.Facts, knowledge.Fact{Name: tag})
				return a
			}
			a := grow("first")
			grow("second")
			for _, got := range []string{a.Items[len(a.Items)-1].Title, a.Notes[len(a.Notes)-1], a.Sources[len(a.Sources)-1].Name, a.Facts[len(a.Facts)-1].Name} {
				if got != "first" {
					t.Errorf("%s (warm %v): what one answer appended became %q after another appended", q, warm, got)
				}
			}
			got, err := json.Marshal(ask(t, e, q))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s (warm %v): appending to answers changed the next (-want +got):\n%s", q, warm, diff)
			}
		}
	}
}

// TestEngineInvalidateSources: before the catalog is loaded a kep answer
// names its sources from a list the engine keeps; Invalidate drops it, so
// a renamed source shows under its new name.
func TestEngineInvalidateSources(t *testing.T) {
	kb := openStore(t, synthetic(t))
	e := engine.New(kb)
	if got := sourceNames(ask(t, e, "kep 9002")); !contains(got, "a 1.40 blog post (en)") {
		t.Fatalf("kep 9002 sources = %q; want the blog post among them", got)
	}

	b, err := os.ReadFile(filepath.Join("testdata", "synthetic_corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	for i := range c.Sources {
		if c.Sources[i].ID == "blog-1.40" {
			c.Sources[i].Name = "a renamed blog post"
		}
	}
	if err := kb.ReplaceKnowledge(context.Background(), knowledge.Compile(&c)); err != nil {
		t.Fatal(err)
	}
	e.Invalidate()
	got := sourceNames(ask(t, e, "kep 9002"))
	if !contains(got, "a renamed blog post") || contains(got, "a 1.40 blog post (en)") {
		t.Errorf("after Invalidate, kep 9002 sources = %q; want the new name only", got)
	}
	if err := e.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	if warm := sourceNames(ask(t, e, "kep 9002")); !cmp.Equal(warm, got) {
		t.Errorf("warm kep 9002 sources = %q; cold gave %q", warm, got)
	}
}

func sourceNames(a *knowledge.Answer) []string {
	var out []string
	for _, s := range a.Sources {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// catalogReads is a real store that counts how often the catalog is read
// (it is the only reader of every KEP at once).
type catalogReads struct {
	knowledge.KnowledgeStore
	n int
}

func (s *catalogReads) ListKEPs(ctx context.Context) ([]*knowledge.KEP, error) {
	s.n++
	return s.KnowledgeStore.ListKEPs(ctx)
}
