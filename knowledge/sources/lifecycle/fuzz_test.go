package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// sharedFile reads a shared file for a seed, without skipping: seeds are optional.
func sharedFile(name string) ([]byte, bool) {
	dir := os.Getenv("KEPBOT_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	data, err := os.ReadFile(filepath.Join(dir, "data", "lifecycle", name))
	return data, err == nil
}

// FuzzParseLifecycle: no panic, a corpus or an error and never both, and
// every date a day.
func FuzzParseLifecycle(f *testing.F) {
	f.Add([]byte(tinyProduct))
	f.Add([]byte("---\ntitle: Kubernetes\nreleases:\n  - &x {releaseCycle: \"1.2\", eol: *x}\n---\n"))
	if data, ok := sharedFile("kubernetes.md"); ok {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ws, err := ParseLifecycle("p.md", data, provenance.Stamp{})
		if (c == nil) == (err == nil) || (err != nil && ws != nil) {
			t.Fatalf("got corpus %v, warnings %v and error %v", c != nil, ws, err)
		}
		if err != nil {
			if !strings.Contains(err.Error(), "p.md") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		for _, l := range c.Lifecycles {
			for _, d := range []string{l.Released, l.EndOfSupport, l.EOL, l.LatestDate} {
				if d != "" && len(d) != 10 {
					t.Fatalf("date %q in %+v", d, l)
				}
			}
			if l.Release.IsZero() || l.Source != LifecycleSourceID || (l.Latest != "" && !strings.HasPrefix(l.Latest, l.Release.String()+".")) {
				t.Fatalf("lifecycle %+v", l)
			}
		}
		for _, w := range ws {
			if w.File != "p.md" || !utf8.ValidString(w.Problem) {
				t.Fatalf("warning %+v", w)
			}
		}
	})
}

// FuzzParsePatches: no panic, a corpus or an error and never both, and
// patches sorted, once each, with days.
func FuzzParsePatches(f *testing.F) {
	f.Add([]byte(tinyPatches))
	f.Add([]byte(`{"versions": {"1.0.0-rc.1": {"date": "2015-01-01"}, "1.0.0": 5}}`))
	if data, ok := sharedFile("kubernetes.json"); ok {
		f.Add(data[:min(len(data), 2<<10)]) // a broken piece of the real file
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ws, err := ParsePatches("r.json", data, provenance.Stamp{})
		if (c == nil) == (err == nil) || (err != nil && ws != nil) {
			t.Fatalf("got corpus %v, warnings %v and error %v", c != nil, ws, err)
		}
		if err != nil {
			return
		}
		for i, p := range c.Patches {
			if len(p.Date) != 10 || p.Release.Major != 1 || p.Source != PatchesSourceID {
				t.Fatalf("patch %+v", p)
			}
			if i > 0 {
				q := c.Patches[i-1]
				if !q.Release.Less(p.Release) && !(q.Release == p.Release && q.Number < p.Number) {
					t.Fatalf("%s before %s", q, p)
				}
			}
		}
	})
}
