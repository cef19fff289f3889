package website

import (
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

// BenchmarkParseDir reads every document of the website folder, as an
// ingest does. It is a small part of the whole ingest's 1.5 s budget.
func BenchmarkParseDir(b *testing.B) {
	dir := sharedtest.Path(b, "data", "website")
	b.ReportAllocs()
	for b.Loop() {
		c, err := ParseDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Sources) == 0 {
			b.Fatal("no sources")
		}
	}
}

// BenchmarkParse reads the longest announcement alone.
func BenchmarkParse(b *testing.B) {
	data := readDoc(b, ann131)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(ann131, data); err != nil {
			b.Fatal(err)
		}
	}
}
