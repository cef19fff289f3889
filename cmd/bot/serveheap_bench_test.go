package main

import (
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/question"
)

// BenchmarkServeLiveHeap measures what serve keeps in memory for as long
// as it runs, built as serve builds it over a new database (the built-in
// snapshot): the engine's catalog and the question reader's vocabulary,
// beside everything the program's packages keep. Every garbage collection
// marks all of it; under load on one core that marking is what lengthens
// the tail of the answers (issue 15), so it reports, besides the time of a
// whole collection (ns/op), the marking CPU of one (mark-ns/gc), the live
// heap, its objects and the part of it that holds pointers. Run
//
//	go test ./cmd/bot -run '^$' -bench ServeLiveHeap
//
// The test binary links packages serve does not (the test helpers, an
// embedded etcd), so the figures are serve's plus about 2.3 MB and 7,800
// objects.
func BenchmarkServeLiveHeap(b *testing.B) {
	ctx := b.Context()
	db, err := openKnowledge(ctx, filepath.Join(b.TempDir(), "bot.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	eng := engine.New(db.Knowledge())
	if err := eng.Warm(ctx); err != nil {
		b.Fatal(err)
	}
	reader := question.NewReader(eng)
	if err := reader.Warm(ctx); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	heap := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/objects:objects"}, {Name: "/gc/scan/heap:bytes"}}
	metrics.Read(heap)
	mark := []metrics.Sample{{Name: "/cpu/classes/gc/mark/assist:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/dedicated:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}}
	markCPU := func() float64 {
		metrics.Read(mark)
		var s float64
		for _, m := range mark {
			s += m.Value.Float64()
		}
		return s
	}
	before := markCPU()
	for b.Loop() {
		runtime.GC()
	}
	b.ReportMetric((markCPU()-before)*1e9/float64(b.N), "mark-ns/gc")
	b.ReportMetric(float64(heap[0].Value.Uint64())/(1<<20), "live-MB")
	b.ReportMetric(float64(heap[1].Value.Uint64()), "objects")
	b.ReportMetric(float64(heap[2].Value.Uint64())/(1<<20), "scan-MB")
	runtime.KeepAlive(eng)
	runtime.KeepAlive(reader)
}
