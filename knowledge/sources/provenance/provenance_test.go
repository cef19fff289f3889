package provenance_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want provenance.Provenance
	}{
		{"two lines", "# Source\n\n- Snapshot commit: `64765b4b02389318f2113119dd9e491479f978a0`\n  (\"Merge\")\n- Commit date: 2026-07-24T23:57:50+00:00\n",
			provenance.Provenance{Stamp: provenance.Stamp{Commit: "64765b4b02389318f2113119dd9e491479f978a0", Date: "2026-07-24"}}},
		{"one line", "- Snapshot commit: `e8dfc80`, commit date 2026-08-13T11:53:39+00:00\n",
			provenance.Provenance{Stamp: provenance.Stamp{Commit: "e8dfc80", Date: "2026-08-13"}}},
		{"date in another zone is the UTC day", "Snapshot commit: `abcdef1`\nCommit date: 2026-07-24T23:57:50-05:00\n",
			provenance.Provenance{Stamp: provenance.Stamp{Commit: "abcdef1", Date: "2026-07-25"}}},
		{"per file", "- `kubernetes.md`: `products/kubernetes.md` of https://x at\n  commit `a70eca337600e7d721dc48112c271f98661d208b` (2026-08-22T08:52:34+00:00). YAML\n- `kubernetes.json`: `releases/kubernetes.json` of https://y at commit `f626bde` (2026-08-22T18:58:02+00:00): every\n",
			provenance.Provenance{Files: map[string]provenance.Stamp{
				"kubernetes.md":   {Commit: "a70eca337600e7d721dc48112c271f98661d208b", Date: "2026-08-22"},
				"kubernetes.json": {Commit: "f626bde", Date: "2026-08-22"}}}},
		{"CRLF", "Snapshot commit: `abcdef1`\r\nCommit date: 2025-01-02\r\n",
			provenance.Provenance{Stamp: provenance.Stamp{Commit: "abcdef1", Date: "2025-01-02"}}},
		{"a folder copied at a commit, in a sentence", "76 records, copied unchanged from golang/vulndb\n`data/osv/` at commit a752ea54fd1b989d208a270aeef772f55a36b87a (2026-08-21): every record\n",
			provenance.Provenance{Stamp: provenance.Stamp{Commit: "a752ea54fd1b989d208a270aeef772f55a36b87a", Date: "2026-08-21"}}},
		{"nothing", "# Notes\n\nThe commit is unknown.\n", provenance.Provenance{}},
		{"a bad date is no date", "Snapshot commit: `abcdef1`\nCommit date: 2026-13-45\n",
			provenance.Provenance{Stamp: provenance.Stamp{Commit: "abcdef1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, provenance.Parse([]byte(tt.in))); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

func TestForFallsBackToTheFolder(t *testing.T) {
	p := provenance.Provenance{Stamp: provenance.Stamp{Commit: "aaaaaaa"}, Files: map[string]provenance.Stamp{"a.json": {Commit: "bbbbbbb", Date: "2026-01-01"}}}
	if got := p.For("a.json").Commit; got != "bbbbbbb" {
		t.Errorf("For(a.json) = %q", got)
	}
	if got := p.For("other.md").Commit; got != "aaaaaaa" {
		t.Errorf("For(other.md) = %q", got)
	}
}

// TestSharedSources reads the SOURCE.md files of ../shared: each folder
// the bot ingests says its commit date.
func TestSharedSources(t *testing.T) {
	root := sharedtest.Root(t)
	want := map[string]struct {
		file string
		date string
	}{
		"enhancements": {"", "2026-07-24"},
		"sig-release":  {"", "2026-08-13"},
		"lifecycle":    {"kubernetes.md", "2026-08-22"},
		"cves":         {"", "2026-08-21"},
	}
	for dir, w := range want {
		data, err := os.ReadFile(filepath.Join(root, "data", dir, provenance.FileName))
		if err != nil {
			t.Fatal(err)
		}
		p := provenance.Parse(data)
		got := p.For(w.file)
		if got.Date != w.date || got.Commit == "" {
			t.Errorf("%s: %+v, want a commit dated %s", dir, got, w.date)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("Snapshot commit: `abcdef1`\nCommit date: 2025-01-02\n"))
	f.Add([]byte("- `x.md`: at commit `abcdef1` (2026-08-22T08:52:34+00:00)"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := provenance.Parse(b)
		for _, s := range append([]provenance.Stamp{p.Stamp}, func() (out []provenance.Stamp) {
			for _, v := range p.Files {
				out = append(out, v)
			}
			return
		}()...) {
			if s.Date != "" && len(s.Date) != 10 {
				t.Errorf("date %q is not a day", s.Date)
			}
		}
	})
}
