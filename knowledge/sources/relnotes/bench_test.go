package relnotes

import (
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// BenchmarkParseNotesAll parses the twelve release-notes-draft.json files
// of ../shared (3.3 MB, 3 300 entries), read once before the clock starts.
func BenchmarkParseNotesAll(b *testing.B) {
	files := map[knowledge.Version][]byte{}
	size := 0
	for _, v := range sharedReleases {
		files[v] = readShared(b, v, NotesFile)
		size += len(files[v])
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for v, data := range files {
			c, _, err := ParseNotes(v, "notes.json", data, provenance.Stamp{})
			if err != nil {
				b.Fatal(err)
			}
			n += len(c.Changes)
		}
		if n < 3000 {
			b.Fatalf("%d changes", n)
		}
	}
}
