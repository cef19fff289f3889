package markdown

import (
	"bytes"
	"testing"
)

// FuzzParse feeds Parse arbitrary bytes: it must not panic, and every block
// must have a kind, a line within the document and a level where it is a
// heading.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: x\n---\n# H\n\n- a\n  - b\n\n> q\n\n| a |\n|---|\n| b |\n",
		"```\n# not a heading\n",
		"Title\r\n=====\r\n\r\n    code\r\n<div>\r\n",
		"\uFEFF---\nk:\n  c: v\n---\n",
		"> > > - 1. - x\n" + "  \t- y\n",
		"- a\n\n  b\n---\n~~~\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Parse(data)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, b := range d.Blocks {
			if b.Kind < Paragraph || b.Kind > Break {
				t.Fatalf("block of kind %d: %+v", b.Kind, b)
			}
			if b.Line < 1 || b.Line > lines {
				t.Fatalf("block on line %d of a %d-line document: %+v", b.Line, lines, b)
			}
			if (b.Kind == Heading) != (b.Level >= 1 && b.Level <= 6) {
				t.Fatalf("level %d of a %s", b.Level, b.Kind)
			}
			if b.Depth < 0 || b.Quote < 0 || b.Depth+b.Quote > maxDepth {
				t.Fatalf("depth %d quote %d", b.Depth, b.Quote)
			}
		}
	})
}
