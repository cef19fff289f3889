package ingest_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/ingest"
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
