package relnotes

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// seedShared adds small pieces of the shared files as seeds, when
// ../shared is there (read at run time, never stored): three entries of a
// notes file, the first 6 KiB of a page. Whole files make each of the
// fuzzer's minimizing steps slow.
func seedShared(f *testing.F, file string) {
	dir, ok := sharedDir()
	if !ok {
		return
	}
	for _, v := range []string{"1.25", "1.36"} {
		data, err := os.ReadFile(filepath.Join(dir, "data", "sig-release", "releases", "release-"+v, file))
		if err != nil {
			continue
		}
		if file == PageFile {
			f.Add(data[:min(len(data), 6<<10)])
			continue
		}
		var all map[string]json.RawMessage
		if json.Unmarshal(data, &all) != nil {
			continue
		}
		keys := slices.Sorted(maps.Keys(all))
		few := map[string]json.RawMessage{}
		for _, k := range keys[:min(3, len(keys))] {
			few[k] = all[k]
		}
		if b, err := json.Marshal(few); err == nil {
			f.Add(b)
		}
	}
}

// sharedDir finds ../shared without skipping: fuzz seeds are optional.
func sharedDir() (string, bool) {
	dir := os.Getenv("KEPBOT_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	st, err := os.Stat(filepath.Join(dir, "data", "sig-release"))
	return dir, err == nil && st.IsDir()
}

// FuzzParseNotes: ParseNotes must not panic, must return a corpus or an
// error and never both, and what it returns must hold together.
func FuzzParseNotes(f *testing.F) {
	f.Add([]byte(tinyNotes))
	f.Add([]byte(`{"1": {"pr_number": 1, "text": "KEP-12 ` + "`a` `--b`" + `", "kinds": ["deprecation"], "documentation": [{"url": "https://github.com/kubernetes/enhancements/issues/5"}]}, "2": {"pr_number": "2"}}`))
	f.Add([]byte(`{"1": null, "2": [], "3": {"pr_number": 1e3, "text": "x"}}`))
	seedShared(f, NotesFile)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ws, err := ParseNotes(v140, "n.json", data, provenance.Stamp{Date: "2030-01-02"})
		if (c == nil) == (err == nil) {
			t.Fatalf("got corpus %v and error %v; want exactly one", c != nil, err)
		}
		if err != nil {
			if ws != nil || !strings.Contains(err.Error(), "n.json") {
				t.Fatalf("error %v came with warnings or without the file's name", err)
			}
			return
		}
		if len(c.Sources) != 1 || c.Sources[0].ID != NotesSourceID(v140) || c.Sources[0].AsOf != "2030-01-02" {
			t.Fatalf("sources %+v", c.Sources)
		}
		seen := map[int]bool{}
		for _, ch := range c.Changes {
			if ch.PR <= 0 || seen[ch.PR] || ch.Release != v140 || ch.Source != c.Sources[0].ID || ch.Text == "" ||
				len(ch.Text) > MaxTextBytes+len("…") || !utf8.ValidString(ch.Text) || !strings.HasPrefix(ch.URL, "https://") {
				t.Fatalf("bad change %+v", ch)
			}
			seen[ch.PR] = true
			if ch.Notice != Classify(ch.Kinds, ch.Text, ch.Action, Effects(ch.Release, ch.Text)) {
				t.Fatalf("change %d's notice is not its classification", ch.PR)
			}
			for _, n := range ch.KEPs {
				if n <= 0 {
					t.Fatalf("KEP %d", n)
				}
			}
		}
		for _, w := range ws {
			if w.File != "n.json" || w.Problem == "" {
				t.Fatalf("warning %+v", w)
			}
		}
	})
}
