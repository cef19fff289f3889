package releasenote

import "testing"

// BenchmarkParseSeeds parses all five seed notes per iteration. The target
// is the whole five-document ingest under 200 ms; parsing alone should take
// a few milliseconds.
func BenchmarkParseSeeds(b *testing.B) {
	docs := make(map[string][]byte, len(seedNames))
	size := 0
	for _, name := range seedNames {
		docs[name] = readSeed(b, name)
		size += len(docs[name])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for name, data := range docs {
			if _, err := Parse(name, data); err != nil {
				b.Fatal(err)
			}
		}
	}
}
