package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// pathResult is what one path made of a document.
type pathResult struct {
	Objects   []Object
	Problem   bool
	NotObject bool
}

// bothPaths runs the fast and the slow path on one document's text (as
// the reader gives it: LF line ends, no --- line). fastOK is false when
// the fast path left the document to the slow one.
func bothPaths(text string, lim Limits) (fastOK bool, fastRes, slowRes pathResult) {
	lim = lim.withDefaults()
	var flags charFlags
	for _, l := range strings.Split(text, "\n") {
		flags |= checkLine([]byte(l))
	}
	if flags&bad != 0 || flags&hasOdd != 0 {
		return false, pathResult{}, pathResult{}
	}
	buf := []byte("\n" + text)
	var e extraction
	f := newFast(&e, lim.MaxDepth)
	src := buf[1:]
	i := skipSpaces(src, 0)
	if i < len(src) && (src[i] == '{' || src[i] == '[') {
		next, ok := f.json(src)
		fastOK = ok
		if ok && next > 0 {
			buf = buf[:next+1]
		}
	} else {
		fastOK = f.yaml(src)
	}
	result := func() pathResult {
		var o outcome
		decide(&e, 1, 1, "", &o)
		return pathResult{Objects: append([]Object(nil), o.objects...), Problem: len(o.problems) > 0, NotObject: o.notObject}
	}
	if fastOK {
		fastRes = result()
	}
	slow(append([]byte(nil), buf...), lim, &e, nil)
	slowRes = result()
	return fastOK, fastRes, slowRes
}

// mutations returns variants of a document: each line removed, doubled,
// indented one and two spaces more or less, cut in half, given a
// trailing ": x" or " #c", or a quote, bracket, tab or dash in front.
func mutations(doc string) []string {
	lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
	join := func(ls []string) string { return strings.Join(ls, "\n") + "\n" }
	var out []string
	for i, l := range lines {
		with := func(nl ...string) {
			ls := append(append(append([]string{}, lines[:i]...), nl...), lines[i+1:]...)
			out = append(out, join(ls))
		}
		with()
		with(l, l)
		with(" " + l)
		with("  " + l)
		with(strings.TrimPrefix(l, " "))
		with(strings.TrimPrefix(l, "  "))
		with(l[:len(l)/2])
		with(l[len(l)/2:])
		with(l + ": x")
		with(l + " #c")
		with(l + ":")
		with(l + " '")
		with("\t" + l)
		with("- " + l)
		with("\"" + l)
		with("[" + l)
		with(l + "]")
		with(strings.Replace(l, ": ", ":", 1))
		with(strings.Replace(l, ": ", ": &a ", 1))
		with(strings.Replace(l, ": ", ": \"", 1))
		with(strings.Replace(l, "- ", "-", 1))
		with(strings.Replace(l, "  ", "", 1))
		with(strings.Replace(l, "'", "\"", 1))
		with(strings.Replace(l, "\"", "'", 1))
		with(strings.Replace(l, "{", "", 1))
		with(strings.Replace(l, ",", "", 1))
		with(strings.Replace(l, "|", ">", 1))
		with(l, "  "+l)
		with(l, strings.Repeat(" ", 6)+"x")
	}
	return out
}

// differentialCorpus is every document the differential test runs:
// the real-world table, its mutations, and the fuzz seeds split into
// documents.
func differentialCorpus() []string {
	var docs []string
	for _, d := range realWorld {
		docs = append(docs, d)
		docs = append(docs, mutations(d)...)
	}
	for _, d := range tricky {
		docs = append(docs, d)
		docs = append(docs, mutations(d)...)
	}
	for _, seed := range fuzzSeeds() {
		docs = append(docs, splitDocs(seed)...)
	}
	return append(docs, savedFuzzInputs("testdata/fuzz/FuzzPaths")...)
}

// savedFuzzInputs reads the inputs the fuzzer saved in dir (one string
// each, in the "go test fuzz v1" format).
func savedFuzzInputs(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		_, v, ok := strings.Cut(string(b), "\nstring(")
		if !ok {
			continue
		}
		if s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimSpace(v), ")")); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// splitDocs cuts a stream into documents the simple way (the reader's
// splitting is tested on its own).
func splitDocs(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var docs []string
	for _, d := range strings.Split(s, "\n---") {
		d = strings.TrimPrefix(d, "---")
		if i := strings.IndexByte(d, '\n'); i >= 0 && strings.TrimSpace(d[:i]) == "" {
			d = d[i+1:]
		}
		if strings.TrimSpace(d) != "" {
			docs = append(docs, d)
		}
	}
	return docs
}

// TestPathsAgree runs the fast and the slow path on every document of
// the differential corpus. Where the fast path reads a document, the
// slow one must read the same objects, and agree on whether there is a
// problem.
func TestPathsAgree(t *testing.T) {
	docs := differentialCorpus()
	fastN := 0
	for i, d := range docs {
		ok, fr, sr := bothPaths(d, Limits{})
		if !ok {
			continue
		}
		fastN++
		if diff := cmp.Diff(sr, fr, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("document %d: fast and slow differ (-slow +fast):\n%s\n%s", i, diff, quoteDoc(d))
		}
	}
	t.Logf("%d documents, %d read by the fast path", len(docs), fastN)
	if fastN < len(docs)/3 {
		t.Errorf("the fast path read only %d of %d documents", fastN, len(docs))
	}
}

func quoteDoc(d string) string {
	var b strings.Builder
	for i, l := range strings.Split(d, "\n") {
		fmt.Fprintf(&b, "%3d| %q\n", i+1, l)
	}
	return b.String()
}

// TestFastPathTakesRealWorld checks the fast path reads the plain real
// world documents itself: the speed of a scan rests on it.
func TestFastPathTakesRealWorld(t *testing.T) {
	slowOnes := map[int]bool{18: true, 19: true, 20: true, 21: true, 28: true} // anchors, multi-line plain, ? key, scalar root
	for i, d := range realWorld {
		ok, _, _ := bothPaths(d, Limits{})
		if ok == slowOnes[i] {
			t.Errorf("realWorld[%d]: fast path took it = %v; want %v\n%s", i, ok, !slowOnes[i], d)
		}
	}
}
