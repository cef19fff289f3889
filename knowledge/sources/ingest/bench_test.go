package ingest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
	"github.com/kepbot/kepbot/store"
)

// BenchmarkIngestSeeds is the whole `bot ingest ../shared/seeds`: read and
// parse the five notes, join them, and replace the knowledge in a bbolt file
// (both fsyncs included). Goal: under 200 ms.
func BenchmarkIngestSeeds(b *testing.B) {
	seeds := sharedtest.Path(b, "seeds")
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := ingest.Load([]string{seeds})
		if err != nil || res.Files != 5 {
			b.Fatalf("load: %v (%d files)", err, res.Files)
		}
		if err := db.Knowledge().ReplaceKnowledge(ctx, knowledge.Compile(res.Corpus)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIngestAll is `bot ingest` of everything in ../shared: the five
// notes, the kubernetes.io posts and guide, and all 656 kep.yaml, joined and
// written to bbolt with the corpus kept. Goal: under 1.5 s.
func BenchmarkIngestAll(b *testing.B) {
	root := sharedtest.Root(b)
	paths := []string{filepath.Join(root, "seeds"), filepath.Join(root, "data", "website"), filepath.Join(root, "data", "enhancements")}
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := ingest.Load(paths)
		if err != nil || len(res.Warnings) > 0 {
			b.Fatalf("load: %v %v", err, res.Warnings)
		}
		k := knowledge.Compile(res.Corpus)
		k.Corpus = res.Corpus
		if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
			b.Fatal(err)
		}
	}
}
