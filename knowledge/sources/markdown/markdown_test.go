package markdown

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// row is the part of a Block the table tests compare.
type row struct {
	Kind  Kind
	Line  int
	Level int
	Depth int
	Quote int
	Text  string
}

func rows(d *Document) []row {
	var out []row
	for i := range d.Blocks {
		b := &d.Blocks[i]
		out = append(out, row{b.Kind, b.Line, b.Level, b.Depth, b.Quote, b.Text()})
	}
	return out
}

// The documents below are written for these tests.
func TestParseBlocks(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []row
	}{
		{"ATX headings, closing hashes gone",
			"# One\n\n## Two ##\n### Three #\n#NotAHeading\n",
			[]row{{Heading, 1, 1, 0, 0, "One"}, {Heading, 3, 2, 0, 0, "Two"}, {Heading, 4, 3, 0, 0, "Three"}, {Paragraph, 5, 0, 0, 0, "#NotAHeading"}}},
		{"a heading in a fence is code",
			"```sh\n# not a heading\n- not an item\n```\n# Heading\n",
			[]row{{Code, 1, 0, 0, 0, "# not a heading\n- not an item"}, {Heading, 5, 1, 0, 0, "Heading"}}},
		{"tilde fence and longer closing fence",
			"~~~~\n```\n# still code\n~~~~~\nafter\n",
			[]row{{Code, 1, 0, 0, 0, "```\n# still code"}, {Paragraph, 5, 0, 0, 0, "after"}}},
		{"setext headings start on their first text line",
			"Title\n=====\n\nSub title\nover two lines\n---\n\ntext\n",
			[]row{{Heading, 1, 1, 0, 0, "Title"}, {Heading, 4, 2, 0, 0, "Sub title over two lines"}, {Paragraph, 8, 0, 0, 0, "text"}}},
		{"a thematic break after a blank line is no heading",
			"para\n\n---\n\n* * *\n",
			[]row{{Paragraph, 1, 0, 0, 0, "para"}, {Break, 3, 0, 0, 0, ""}, {Break, 5, 0, 0, 0, ""}}},
		{"nested lists with continuation lines",
			"- one\n  continued\nlazy line\n- two\n  - two.a\n    more of two.a\n  - two.b\n\n    a second paragraph of two.b\n- three\n",
			[]row{
				{Item, 1, 0, 1, 0, "one continued lazy line"},
				{Item, 4, 0, 1, 0, "two"},
				{Item, 5, 0, 2, 0, "two.a more of two.a"},
				{Item, 7, 0, 2, 0, "two.b"},
				{Paragraph, 9, 0, 2, 0, "a second paragraph of two.b"},
				{Item, 10, 0, 1, 0, "three"},
			}},
		{"ordered lists and an item opening with code",
			"1. first\n2) other list\n\n-\n  ```\n  x\n  ```\n",
			[]row{{Item, 1, 0, 1, 0, "first"}, {Item, 2, 0, 1, 0, "other list"}, {Item, 4, 0, 1, 0, ""}, {Code, 5, 0, 1, 0, "x"}}},
		{"blockquotes",
			"> quoted\n> more\n>\n> - in a list\n\nafter\n",
			[]row{{Paragraph, 1, 0, 0, 1, "quoted more"}, {Item, 4, 0, 1, 1, "in a list"}, {Paragraph, 6, 0, 0, 0, "after"}}},
		{"a table, with the paragraph above it apart",
			"Intro line\n| a | b |\n|---|:-:|\n| `c` | [d](https://x) |\n\nafter\n",
			[]row{{Paragraph, 1, 0, 0, 0, "Intro line"}, {Table, 2, 0, 0, 0, "| a | b | |---|:-:| | `c` | [d](https://x) |"}, {Paragraph, 6, 0, 0, 0, "after"}}},
		{"pipes without a delimiter row are a paragraph",
			"| a | b |\n| c | d |\n",
			[]row{{Paragraph, 1, 0, 0, 0, "| a | b | | c | d |"}}},
		{"raw HTML blocks",
			"<img src=\"x.png\" />\n\n<!-- a\ncomment -->\ntext\n",
			[]row{{HTML, 1, 0, 0, 0, "<img src=\"x.png\" />"}, {HTML, 3, 0, 0, 0, "<!-- a comment -->"}, {Paragraph, 5, 0, 0, 0, "text"}}},
		{"indented code after a blank line",
			"para\n\n    code line\n    more\n",
			[]row{{Paragraph, 1, 0, 0, 0, "para"}, {Code, 3, 0, 0, 0, "code line\nmore"}}},
		{"an unclosed fence runs to the end",
			"text\n```\n# code\n\n- code\n",
			[]row{{Paragraph, 1, 0, 0, 0, "text"}, {Code, 2, 0, 0, 0, "# code\n\n- code"}}},
		{"Chinese lines join without a space",
			"第一行\n第二行 and\nEnglish\n",
			[]row{{Paragraph, 1, 0, 0, 0, "第一行第二行 and English"}}},
		{"inline Markdown is kept",
			"**Bold** [KEP-1](https://kep.k8s.io/1) `code` <br/>\n",
			[]row{{Paragraph, 1, 0, 0, 0, "**Bold** [KEP-1](https://kep.k8s.io/1) `code` <br/>"}}},
		{"a link reference definition stays text",
			"[kep]: https://kep.k8s.io/7\n",
			[]row{{Paragraph, 1, 0, 0, 0, "[kep]: https://kep.k8s.io/7"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rows(Parse([]byte(tt.doc)))); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.doc, diff)
			}
		})
	}
}

func TestParseLineEndings(t *testing.T) {
	lf := "---\ntitle: T\n---\n# H\n\n- a\n  b\n\n```\nx\n```\n\npara\n"
	want := rows(Parse([]byte(lf)))
	for name, doc := range map[string]string{
		"CRLF":       strings.ReplaceAll(lf, "\n", "\r\n"),
		"BOM":        "\uFEFF" + lf,
		"BOM + CRLF": "\uFEFF" + strings.ReplaceAll(lf, "\n", "\r\n"),
	} {
		d := Parse([]byte(doc))
		if diff := cmp.Diff(want, rows(d)); diff != "" {
			t.Errorf("%s (-LF +%s):\n%s", name, name, diff)
		}
		if d.FrontMatter["title"] != "T" {
			t.Errorf("%s: front matter %v", name, d.FrontMatter)
		}
	}
	if want[0].Line != 4 {
		t.Errorf("the first block after a 3-line front matter is on line %d, want 4", want[0].Line)
	}
}

func TestFrontMatter(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want FrontMatter
		line int // of the first block
	}{
		{"flat keys, quotes and case", "---\nTitle: \"Kubernetes v1.40: Test\"\ndate: 2030-01-02\nslug: 'a-b'\n---\ntext\n",
			FrontMatter{"title": "Kubernetes v1.40: Test", "date": "2030-01-02", "slug": "a-b"}, 6},
		{"nested and folded", "---\nrelease_announcement:\n  minor_version: \"1.40\"\nauthor: >\n  The Team\n  of v1.40\ntags:\n  - a\n---\n# H\n",
			FrontMatter{"release_announcement": "", "release_announcement.minor_version": "1.40", "author": "The Team of v1.40", "tags": "- a"}, 10},
		{"unclosed is no front matter", "---\ntitle: x\n", nil, 1},
		{"not at the top", "\n---\ntitle: x\n---\n", nil, 2},
		{"empty", "---\n---\nbody\n", FrontMatter{}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse([]byte(tt.doc))
			if diff := cmp.Diff(tt.want, d.FrontMatter); diff != "" {
				t.Errorf("front matter (-want +got):\n%s", diff)
			}
			if len(d.Blocks) == 0 || d.Blocks[0].Line != tt.line {
				t.Errorf("blocks %+v, want the first on line %d", d.Blocks, tt.line)
			}
		})
	}
	// A header must close within maxFrontMatterLines lines.
	long := "---\n" + strings.Repeat("k: v\n", maxFrontMatterLines) + "---\n"
	if d := Parse([]byte(long)); d.FrontMatter != nil {
		t.Errorf("a %d-line header was read as front matter", maxFrontMatterLines+1)
	}
}

func TestParseTableRows(t *testing.T) {
	d := Parse([]byte("> | File | Path |\n> | --- | --- |\n> | `a.md` | [x](https://x/a) |\n> | b.md |\n"))
	if len(d.Blocks) != 1 || d.Blocks[0].Kind != Table {
		t.Fatalf("blocks %+v, want one table", d.Blocks)
	}
	b := d.Blocks[0]
	want := [][]string{{"File", "Path"}, {"`a.md`", "[x](https://x/a)"}, {"b.md", ""}}
	if diff := cmp.Diff(want, b.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if b.Line != 1 || b.Quote != 1 || len(b.Lines) != 4 || b.Lines[1] != "| --- | --- |" {
		t.Errorf("table line %d quote %d lines %q", b.Line, b.Quote, b.Lines)
	}
}

func TestParseCodeInfo(t *testing.T) {
	d := Parse([]byte("```yaml title=x\na: 1\n  b: 2\n```\n"))
	if len(d.Blocks) != 1 || d.Blocks[0].Info != "yaml title=x" || d.Blocks[0].Text() != "a: 1\n  b: 2" {
		t.Errorf("blocks %+v", d.Blocks)
	}
}

// TestParseDeepNesting checks that nesting past maxDepth neither panics
// nor recurses without bound, and that the outer blocks are still read.
func TestParseDeepNesting(t *testing.T) {
	for name, doc := range map[string]string{
		"quotes": "top\n\n" + strings.Repeat(">", 100000) + " deep\n",
		"lists":  "top\n\n" + nestedList(5000),
	} {
		d := Parse([]byte(doc))
		if len(d.Blocks) == 0 || d.Blocks[0].Text() != "top" {
			t.Errorf("%s: blocks start %+v", name, d.Blocks[:min(1, len(d.Blocks))])
		}
		for _, b := range d.Blocks {
			if b.Depth+b.Quote > maxDepth {
				t.Errorf("%s: a block at depth %d", name, b.Depth+b.Quote)
				break
			}
		}
	}
}

func nestedList(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat("  ", i))
		b.WriteString("- x\n")
	}
	return b.String()
}

func TestParseHugeLine(t *testing.T) {
	doc := "# H\n\n" + strings.Repeat("word [x](", 1<<20) + "\n\nafter\n"
	d := Parse([]byte(doc))
	if n := len(d.Blocks); n != 3 || d.Blocks[2].Line != 5 || d.Blocks[2].Text() != "after" {
		t.Errorf("got %d blocks, last %+v", n, d.Blocks[n-1])
	}
}

func TestKindString(t *testing.T) {
	if Heading.String() != "heading" || Kind(0).String() != "kind?" || Kind(99).String() != "kind?" {
		t.Errorf("Kind.String: %q %q", Heading.String(), Kind(0).String())
	}
}
