package engine_test

import (
	"context"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// BenchmarkCachedAnswerer times a kept answer handed out from many
// goroutines at once (hit), and a question it must pass on and keep,
// evicting another (miss, over an Answerer that only builds an Answer):
//
//	go test ./knowledge -run '^$' -bench CachedAnswerer -cpu 1,2
func BenchmarkCachedAnswerer(b *testing.B) {
	ctx := context.Background()
	b.Run("hit", func(b *testing.B) {
		c := engine.NewCachedAnswerer(&countingAnswerer{}, 4096)
		qs := make([]knowledge.Question, 64)
		for i := range qs {
			qs[i] = knowledge.Question{Kind: knowledge.AskKEP, KEP: 4600 + i}
			_, _ = c.Answer(ctx, qs[i])
		}
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := c.Answer(ctx, qs[i%len(qs)]); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
	b.Run("miss", func(b *testing.B) {
		c := engine.NewCachedAnswerer(&countingAnswerer{}, 4096)
		n := 0
		b.ReportAllocs()
		for b.Loop() {
			n++
			if _, err := c.Answer(ctx, knowledge.Question{Kind: knowledge.AskKEP, KEP: n%80000 + 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
