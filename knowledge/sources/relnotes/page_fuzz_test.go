package relnotes

import (
	"testing"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// FuzzParsePage: ParsePage must not panic, and a page it reads gives one
// release of a valid day, or is passed over with a Skip.
func FuzzParsePage(f *testing.F) {
	f.Add([]byte(tinyPage))
	f.Add([]byte("---\ntitle: x\n---\n# Timbernetes v1.40 - World Tree\n| **v1.40.0 released** | x | Thursday 9th October 2025 (AoE) / Friday 10th October 2025, 12:00 UTC |\n"))
	f.Add([]byte("```\n# no\n"))
	seedShared(f, PageFile)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _, err := ParsePage(v140, "p.md", data, provenance.Stamp{})
		if (c == nil) == (err == nil) {
			t.Fatalf("got corpus %v and error %v; want exactly one", c != nil, err)
		}
		if err != nil {
			return
		}
		if len(c.Releases) == 0 {
			if len(c.Skipped) != 1 || len(c.Sources) != 0 {
				t.Fatalf("no release and %+v", c)
			}
			return
		}
		r := c.Releases[0]
		if len(c.Releases) != 1 || r.Version != v140 || len(c.Sources) != 1 || !utf8.ValidString(r.Theme) || len([]rune(r.Theme)) > maxThemeRunes {
			t.Fatalf("bad release %+v", c)
		}
		if r.Date != "" && (len(r.Date) != 10 || r.Date[4] != '-') {
			t.Fatalf("date %q", r.Date)
		}
	})
}
