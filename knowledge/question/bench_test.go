package question

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

// benchReader is a reader with the names of ../shared's KEPs when it is
// beside the repository (as many KEPs as kepbot knows), else the synthetic
// vocabulary; its vocabulary is built before the clock starts.
func benchReader(b *testing.B) *Reader {
	b.Helper()
	keps := syntheticKEPs()
	if _, err := os.Stat("../../../shared/seeds"); err == nil {
		res, err := ingest.Load([]string{"../../../shared/seeds", "../../../shared/data/enhancements", "../../../shared/data/website"})
		if err != nil {
			b.Fatal(err)
		}
		k := knowledge.Compile(res.Corpus)
		keps = keps[:0]
		for i := range k.KEPs {
			keps = append(keps, &k.KEPs[i])
		}
	}
	r := NewReader(StaticKEPs(keps))
	if err := r.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Logf("vocabulary of %d KEPs", len(keps))
	return r
}

// benchCases are the questions the benchmarks read: of the grammar, typed
// in chat, and the longest lines.
var benchCases = []struct{ name, text string }{
	{"strict/kep", "kep 4639"},
	{"strict/stage", "1.30 ga"},
	{"strict/is", "is kep 753 ga"},
	{"free/english", "what went GA in 1.30?"},
	{"free/noise", "<@U024BE7LH> hey, what's new in v1.31 pls?"},
	{"free/chinese", "1.30 有哪些 GA 的特性"},
	{"free/feature", "is sidecar containers stable?"},
	{"free/typo", "is sidcar containers stable"},
	{"free/negative", "what's for lunch"},
	{"long/10KB", strings.Repeat("what went GA in 1.30 ", 512)},
	{"long/maxrunes", strings.Repeat("what went GA in 1.30 ", MaxRunes/21)},
}

// BenchmarkRead reads each case three ways: with Parse (the grammar, with
// "did you mean" on its errors), with grammarOnly (the strict path as Read
// takes it: the grammar, no suggestions yet) and with Reader.Read (the
// grammar first, then the free-text reader). For a question of the grammar
// read and parse must cost the same; for free text, read minus grammar is
// what the free-text reader costs on top of the strict path. A 10 KB line is refused before
// either reads it; the longest line read (MaxRunes) is read by the
// free-text reader up to its first maxTokens words.
func BenchmarkRead(b *testing.B) {
	r := benchReader(b)
	ctx := context.Background()
	for _, c := range benchCases {
		b.Run(c.name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Parse(c.text)
			}
		})
		b.Run(c.name+"/grammar", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				grammarOnly(c.text)
			}
		})
		b.Run(c.name+"/read", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Read(ctx, c.text)
			}
		})
	}
}

// grammarOnly is the strict path as Read takes it: the checks and the
// grammar, without the suggestions Parse adds to its errors.
func grammarOnly(text string) {
	if norm, err := check(text); err == nil {
		parseNormalized(norm)
	}
}

// TestLongLinesAreBounded: a 10 KB line is refused before it is read, with
// a handful of allocations; the longest line read costs a bounded number.
func TestLongLinesAreBounded(t *testing.T) {
	r := NewReader(StaticKEPs(syntheticKEPs()))
	ctx := context.Background()
	long := strings.Repeat("what went GA in 1.30 ", 512)
	if n := testing.AllocsPerRun(20, func() { r.Read(ctx, long) }); n > 5 {
		t.Errorf("a 10 KB line costs %v allocations", n)
	}
	// The longest line read: the free-text reader reads its first
	// maxTokens words, so it adds a bounded number of allocations to what
	// the grammar spends on the whole line.
	max := strings.Repeat("what went GA in 1.30 ", MaxRunes/21)
	strict := testing.AllocsPerRun(20, func() { Parse(max) })
	read := testing.AllocsPerRun(20, func() { r.Read(ctx, max) })
	if read-strict > 150 {
		t.Errorf("a line of %d runes costs %v allocations to read, %v of them past the grammar's %v", len([]rune(max)), read, read-strict, strict)
	}
}
