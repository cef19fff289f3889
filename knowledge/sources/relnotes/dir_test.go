package relnotes

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// TestReadDirShared reads the sig-release copy as a whole: twelve pages,
// twelve notes files, every as-of date from its SOURCE.md.
func TestReadDirShared(t *testing.T) {
	c, ws, err := ReadDir(os.DirFS(sharedtest.Path(t, "data", "sig-release")), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if !strings.Contains(w.Problem, "pr_number 129083") { // 1.32 lists PR 129083 under the key "12908"
			t.Errorf("warning %v", w)
		}
	}
	if len(c.Sources) != 24 || len(c.Releases) != 12 || len(c.Skipped) != 0 {
		t.Fatalf("%d sources, %d releases, skipped %v; want 24, 12, none", len(c.Sources), len(c.Releases), c.Skipped)
	}
	ids := map[string]bool{}
	for _, s := range c.Sources {
		if s.AsOf != "2026-08-13" || s.Lang != "en" || !strings.HasPrefix(s.URL, "https://github.com/kubernetes/sig-release/blob/master/releases/release-1.") || ids[s.ID] {
			t.Errorf("source %+v", s)
		}
		ids[s.ID] = true
		if _, err := os.Stat(sharedtest.Path(t, "data", "sig-release", s.Path)); err != nil {
			t.Errorf("source %s: path %q is not the file read", s.ID, s.Path)
		}
	}
	for i, r := range c.Releases {
		if r.Version != sharedReleases[i] {
			t.Errorf("release %d is %s, want %s (oldest first)", i, r.Version, sharedReleases[i])
		}
	}
	if len(c.Changes) < 3000 {
		t.Errorf("%d changes, want the twelve releases' 3300", len(c.Changes))
	}
}

func TestReadDirLayouts(t *testing.T) {
	release := func(prefix string) fstest.MapFS {
		return fstest.MapFS{
			prefix + "release-1.40/" + NotesFile: {Data: []byte(tinyNotes)},
			prefix + "release-1.40/" + PageFile:  {Data: []byte(tinyPage)},
			prefix + "release-1.9/" + PageFile:   {Data: []byte("# Kubernetes v1.9\n- 2017-12-15 v1.9.0 released\n")},
			prefix + "release-notes-tool/x.txt":  {Data: []byte("not a release")},
			prefix + "release-1.41/empty.txt":    {Data: []byte("no notes, no page")},
		}
	}
	tests := []struct {
		name string
		fsys fstest.MapFS
	}{
		{"a copy holding releases/", release("releases/")},
		{"the releases folder", release("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ws, err := ReadDir(tt.fsys, provenance.Stamp{Date: "2030-01-02"})
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != 0 {
				t.Errorf("warnings %v", ws)
			}
			if len(c.Releases) != 2 || c.Releases[0].Version.String() != "1.9" || c.Releases[1].Theme != "Tiny" || len(c.Changes) != 1 || len(c.Sources) != 3 {
				t.Errorf("got %+v", c)
			}
			for _, s := range c.Sources {
				if s.AsOf != "2030-01-02" {
					t.Errorf("source %s as of %q, want the stamp given", s.ID, s.AsOf)
				}
			}
		})
	}
	t.Run("one release folder", func(t *testing.T) {
		fsys := fstest.MapFS{NotesFile: {Data: []byte(tinyNotes)}, PageFile: {Data: []byte(tinyPage)}}
		c, _, err := ReadDir(fsys, provenance.Stamp{})
		if err != nil || len(c.Changes) != 1 || c.Changes[0].Release.String() != "1.40" {
			t.Errorf("got %+v, %v; want 1.40 read from the heading", c, err)
		}
		c, _, err = ReadRelease(fstest.MapFS{NotesFile: {Data: []byte(tinyNotes)}}, v140, provenance.Stamp{})
		if err != nil || len(c.Changes) != 1 || c.Changes[0].Release != v140 {
			t.Errorf("ReadRelease: %+v, %v", c, err)
		}
		if _, _, err := ReadRelease(fsys, knowledge.Version{}, provenance.Stamp{}); !errors.Is(err, ErrNoRelease) {
			t.Errorf("ReadRelease without a release: %v", err)
		}
	})
	t.Run("notes alone, release unknown", func(t *testing.T) {
		_, ws, err := ReadDir(fstest.MapFS{NotesFile: {Data: []byte(tinyNotes)}}, provenance.Stamp{})
		if err != nil || len(ws) != 1 || !strings.Contains(ws[0].Problem, "no release") {
			t.Errorf("got %v, %v; want a warning that the release is unknown", ws, err)
		}
	})
	t.Run("nothing of sig-release", func(t *testing.T) {
		for _, fsys := range []fstest.MapFS{{}, {"README.md": {Data: []byte("# kepbot\n")}}, {"releases/release-1.40/x.md": {Data: []byte("x")}}} {
			if _, _, err := ReadDir(fsys, provenance.Stamp{}); !errors.Is(err, ErrNoReleases) {
				t.Errorf("ReadDir(%v) = %v, want ErrNoReleases", fsys, err)
			}
		}
	})
}

func TestReadDirSourceAndBadFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"SOURCE.md":                          {Data: []byte("- Snapshot commit: `abcdef1`, commit date 2031-05-06T10:00:00+00:00\n")},
		"releases/release-1.40/" + NotesFile: {Data: []byte(`{"1": `)},
		"releases/release-1.40/" + PageFile:  {Data: []byte(tinyPage)},
		"releases/release-1.41/" + NotesFile: {Data: []byte(tinyNotes)},
		"releases/release-1.42/" + PageFile:  {Data: []byte("# Kubernetes v1.42\n")},
	}
	c, ws, err := ReadDir(fsys, provenance.Stamp{Date: "2030-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Sources {
		if s.AsOf != "2031-05-06" {
			t.Errorf("source %s as of %q, want the SOURCE.md date", s.ID, s.AsOf)
		}
	}
	if len(c.Changes) != 1 || c.Changes[0].Release.String() != "1.41" || len(c.Releases) != 2 {
		t.Errorf("got %+v; want 1.41's change and the two pages", c)
	}
	bad := "releases/release-1.40/" + NotesFile
	if len(c.Skipped) != 1 || c.Skipped[0].Path != bad {
		t.Errorf("skipped %v, want %s", c.Skipped, bad)
	}
	found := false
	for _, w := range ws {
		found = found || (w.File == bad && strings.Contains(w.Problem, "not valid JSON"))
	}
	if !found {
		t.Errorf("warnings %v name no broken %s", ws, bad)
	}
}

func TestReleaseOf(t *testing.T) {
	for in, want := range map[string]string{
		"releases/release-1.36/README.md": "1.36",
		"https://raw.githubusercontent.com/kubernetes/sig-release/master/releases/release-1.9/release-notes/release-notes-draft.json": "1.9",
		"release-1.36":                   "1.36",
		"a/release-1.2/b/release-1.30/c": "1.30",
		"release-notes/x.json":           "",
		"release-1.36x/README.md":        "",
		"release-0.0/README.md":          "",
	} {
		v, ok := ReleaseOf(in)
		if v.String() != want || ok != (want != "") {
			t.Errorf("ReleaseOf(%q) = %s, %v; want %q", in, v, ok, want)
		}
	}
}

// BenchmarkReadDir reads the whole sig-release copy from disk, as `bot
// ingest` does.
func BenchmarkReadDir(b *testing.B) {
	fsys := os.DirFS(sharedtest.Path(b, "data", "sig-release"))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ReadDir(fsys, provenance.Stamp{}); err != nil {
			b.Fatal(err)
		}
	}
}
