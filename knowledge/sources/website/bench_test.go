package website

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/releasenote"
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

// BenchmarkWholeIngest is the budget this parser is part of: every kep.yaml
// of the enhancements copy, the Chinese release notes and the website
// documents, joined by Compile. The whole must stay under 1.5 s.
func BenchmarkWholeIngest(b *testing.B) {
	root := sharedtest.Root(b)
	seeds, err := filepath.Glob(filepath.Join(root, "seeds", "*.txt"))
	if err != nil || len(seeds) == 0 {
		b.Fatalf("no seeds: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := kepyaml.ReadDir(filepath.Join(root, "data", "enhancements"))
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range seeds {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			rn, err := releasenote.Parse(filepath.Base(p), data)
			if err != nil {
				b.Fatal(err)
			}
			c.Add(rn)
		}
		w, err := ParseDir(filepath.Join(root, "data", "website"))
		if err != nil {
			b.Fatal(err)
		}
		c.Add(w)
		if k := knowledge.Compile(c); len(k.KEPs) < 600 {
			b.Fatalf("compiled %d KEPs, want the whole enhancements copy", len(k.KEPs))
		}
	}
}
