package engine_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
	"github.com/kepbot/kepbot/store"
)

// BenchmarkAnswerDuringRefresh is the latency of answers while serve
// refreshes: "idle" answers a mix of questions over the whole corpus;
// "refreshing" answers the same while another goroutine writes the whole
// knowledge again and swaps the engine to it, back to back (far more often
// than serve's hourly pass). It reports p50 and p99 in nanoseconds. Goal:
// p99 while refreshing within 1.5x of idle.
//
//	go test ./knowledge -run '^$' -bench AnswerDuringRefresh -count 5
func BenchmarkAnswerDuringRefresh(b *testing.B) {
	k := fullKnowledge(b)
	db, err := store.Open(filepath.Join(b.TempDir(), "kb.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	kb := db.Knowledge()
	ctx := context.Background()
	if err := kb.ReplaceKnowledge(ctx, k); err != nil {
		b.Fatal(err)
	}
	e := engine.New(kb)
	if err := e.Warm(ctx); err != nil {
		b.Fatal(err)
	}
	questions := []string{"kep 4639", "1.29 ga", "1.31", "1.30 deprecations", "kep 3866", "sig node 1.31", "upgrade 1.29 1.32"}
	parsed := make([]knowledge.Question, len(questions))
	for i, q := range questions {
		if parsed[i], err = question.Parse(q); err != nil {
			b.Fatal(err)
		}
	}
	run := func(b *testing.B, refreshing bool) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		swaps := 0
		if refreshing {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := e.Swap(ctx, func() error { return kb.ReplaceKnowledge(ctx, k) }); err != nil {
						b.Error(err)
						return
					}
					swaps++
				}
			})
		}
		var took []time.Duration
		i := 0
		for b.Loop() {
			q := parsed[i%len(parsed)]
			i++
			start := time.Now()
			if _, err := e.Answer(ctx, q); err != nil {
				b.Fatalf("%s: %v", q.Text, err)
			}
			took = append(took, time.Since(start))
		}
		close(stop)
		wg.Wait()
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(took[min(len(took)-1, len(took)*99/100)].Nanoseconds()), "p99-ns")
		if refreshing {
			b.ReportMetric(float64(swaps), "swaps")
		}
	}
	b.Run("idle", func(b *testing.B) { run(b, false) })
	b.Run("refreshing", func(b *testing.B) { run(b, true) })
}
