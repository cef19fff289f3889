package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The tests named TestDocs* check the documentation against the code: the
// README, CONTRIBUTING.md, docs/*.md and deploy/README.md. This file reads
// them: their fenced blocks, the marks before the blocks, their prose and
// its code spans.

// docPages returns the documentation's Markdown files, relative to the
// repository's root, in a fixed order.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md", "CONTRIBUTING.md", "deploy/README.md"}
	for _, p := range pages {
		rel, err := filepath.Rel(repoRoot, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	if len(out) < 10 {
		t.Fatalf("found only %v: the docs/ pages are missing", out)
	}
	return out
}

// readPage reads a page named relative to the repository's root.
func readPage(t *testing.T, page string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(page)))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// fence is one fenced code block of a page.
type fence struct {
	page  string
	line  int    // 1-based line of the opening fence
	lang  string // the info string's first word: sh, yaml, text
	needs string // what the block's <!-- needs: ... --> mark says, "" for none
	body  []string
}

var (
	fenceOpenRe = regexp.MustCompile("^(\\s*)(```+)\\s*([^`\\s]*)")
	needsRe     = regexp.MustCompile(`^\s*<!-- needs: (.+?) -->\s*$`)
)

// parsePage splits a page into its fenced blocks and its prose lines (the
// lines outside every block, the others left empty so that line numbers
// hold).
func parsePage(page, text string) (blocks []fence, prose []string) {
	lines := strings.Split(text, "\n")
	prose = make([]string, len(lines))
	for i := 0; i < len(lines); i++ {
		m := fenceOpenRe.FindStringSubmatch(lines[i])
		if m == nil {
			prose[i] = lines[i]
			continue
		}
		indent, marks := m[1], m[2]
		b := fence{page: page, line: i + 1, lang: m[3]}
		if i > 0 {
			if n := needsRe.FindStringSubmatch(lines[i-1]); n != nil {
				b.needs = n[1]
			}
		}
		for i++; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == marks {
				break
			}
			b.body = append(b.body, strings.TrimPrefix(lines[i], indent))
		}
		blocks = append(blocks, b)
	}
	return blocks, prose
}

// codeSpanRe is an inline code span of one or two backticks.
var codeSpanRe = regexp.MustCompile("``[^`]+``|`[^`]+`")

// codeSpans returns the inline code spans of prose lines, without their
// backticks. A span may not run over two lines, as the docs write them
// (a span broken by a line end is joined with the next line first).
func codeSpans(prose []string) []string {
	var out []string
	for _, para := range strings.Split(strings.Join(prose, "\n"), "\n\n") {
		para = strings.ReplaceAll(para, "\n", " ")
		for _, s := range codeSpanRe.FindAllString(para, -1) {
			out = append(out, strings.TrimSpace(strings.Trim(s, "`")))
		}
	}
	return out
}

// needsWords are what a block's <!-- needs: ... --> mark may name: why the
// commands test cannot run it. Each may be followed by a note in
// parentheses.
var needsWords = []string{
	"network",   // the internet: GitHub, the module proxy, a registry, a release
	"token",     // a Slack or Discord app's tokens
	"cluster",   // a Kubernetes cluster and a kubeconfig that reaches it
	"tools",     // programs a test machine need not have (helm, kustomize, docker, gh)
	"processes", // several long-running processes at once, in terminals
	"minutes",   // benchmarks and load scripts
}

// needsOf reads a mark's words: "network (GitHub), tools (docker)" gives
// network and tools; ok is false when it names a word not in needsWords.
func needsOf(mark string) (words []string, ok bool) {
	depth := 0
	var cur strings.Builder
	flush := func() {
		if w := strings.TrimSpace(cur.String()); w != "" {
			words = append(words, w)
		}
		cur.Reset()
	}
	for _, r := range mark {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case depth > 0:
		case r == ',':
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	for _, w := range words {
		if !slices.Contains(needsWords, w) {
			return words, false
		}
	}
	return words, len(words) > 0
}

// shellCommands joins a sh block's lines into commands: a line ending in
// a backslash goes on with the next; empty lines and whole-line comments
// are left out. line is each command's first line in the page.
func shellCommands(b fence) (cmds []string, lines []int) {
	var cur strings.Builder
	start := 0
	for i, l := range b.body {
		t := strings.TrimSpace(l)
		if cur.Len() == 0 && (t == "" || strings.HasPrefix(t, "#")) {
			continue
		}
		if cur.Len() == 0 {
			start = b.line + 1 + i
		}
		if cont, ok := strings.CutSuffix(t, `\`); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(t)
		cmds, lines = append(cmds, cur.String()), append(lines, start)
		cur.Reset()
	}
	if cur.Len() > 0 {
		cmds, lines = append(cmds, cur.String()), append(lines, start)
	}
	return cmds, lines
}

// TestDocsPagesParse: the reader above finds what the pages hold, so the
// tests built on it cannot pass on nothing.
func TestDocsPagesParse(t *testing.T) {
	sh, marked, spans := 0, 0, 0
	for _, page := range docPages(t) {
		blocks, prose := parsePage(page, readPage(t, page))
		spans += len(codeSpans(prose))
		for _, b := range blocks {
			if b.lang == "" {
				t.Errorf("%s:%d: a fenced block without a language; write ```sh for commands, ```text for output", b.page, b.line)
			}
			if b.lang != "sh" {
				if b.needs != "" {
					t.Errorf("%s:%d: a %s block is never run, so it needs no <!-- needs --> mark", b.page, b.line, b.lang)
				}
				continue
			}
			sh++
			if b.needs != "" {
				marked++
				if _, ok := needsOf(b.needs); !ok {
					t.Errorf("%s:%d: <!-- needs: %s -->: name one or more of %v", b.page, b.line, b.needs, needsWords)
				}
			}
		}
	}
	if sh < 20 || marked < 5 || spans < 500 {
		t.Errorf("read %d sh blocks (%d marked) and %d code spans; the pages hold more", sh, marked, spans)
	}
}
