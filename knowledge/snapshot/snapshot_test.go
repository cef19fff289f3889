package snapshot_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/featuregates"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

func rebuild(t *testing.T) (*knowledge.Knowledge, []byte) {
	t.Helper()
	res, err := ingest.Load(sources.Shared(sharedtest.Root(t)))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Fatalf("the shared sources did not read cleanly: %v", res.Warnings)
	}
	b, err := snapshot.Build(res.Corpus)
	if err != nil {
		t.Fatal(err)
	}
	return knowledge.Compile(res.Corpus), b
}

// TestSnapshotIsCurrent fails when the committed snapshot is not what the
// shared sources give today: run `go generate ./knowledge/snapshot`.
func TestSnapshotIsCurrent(t *testing.T) {
	_, b := rebuild(t)
	committed := snapshot.Bytes()
	if !bytes.Equal(b, committed) {
		a, c := strings.Split(string(committed), "\n"), strings.Split(string(b), "\n")
		for i := 0; i < len(a) && i < len(c); i++ {
			if a[i] != c[i] {
				t.Fatalf("the committed snapshot differs from a rebuild at line %d; run `go generate ./knowledge/snapshot`\ncommitted: %.300s\nrebuilt:   %.300s", i+1, a[i], c[i])
			}
		}
		t.Fatalf("the committed snapshot (%d lines) differs from a rebuild (%d lines); run `go generate ./knowledge/snapshot`", len(a), len(c))
	}
}

// TestSnapshotHoldsFactsNotSentences checks that no text of any document is
// in the snapshot: every quoted text the sources hold is absent.
func TestSnapshotHoldsFactsNotSentences(t *testing.T) {
	full, _ := rebuild(t)
	committed := snapshot.Bytes()
	texts := 0
	for _, kp := range full.KEPs {
		for _, m := range kp.History {
			// A list item's text may be its name alone; names are facts.
			// What follows the name is the document's sentence.
			body := []rune(strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(m.Text, m.Title), kp.Title)))
			if len(body) > 40 {
				texts++
				probe := string(body[:40])
				if bytes.Contains(committed, []byte(probe)) {
					t.Errorf("KEP-%d: the snapshot holds the note's text %q", kp.Number, probe)
				}
			}
		}
	}
	changes := 0
	for _, r := range full.Releases {
		for _, ch := range r.Changes {
			if body := []rune(ch.Text); len(body) > 40 {
				changes++
				if probe := string(body[:40]); bytes.Contains(committed, []byte(probe)) {
					t.Errorf("PR #%d: the snapshot holds the release notes' text %q", ch.PR, probe)
				}
			}
		}
	}
	if texts == 0 || changes == 0 {
		t.Fatalf("the rebuilt knowledge has %d mention texts and %d release-note texts to look for; the test would prove nothing", texts, changes)
	}
}

func TestSnapshotLoads(t *testing.T) {
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	st := k.Stats()
	if st.Releases < 5 || st.KEPs < 600 {
		t.Errorf("the built-in snapshot knows %d releases and %d KEPs; want at least 5 and every KEP of kubernetes/enhancements", st.Releases, st.KEPs)
	}
	if k.Corpus == nil {
		t.Error("the loaded snapshot does not carry its corpus, so a sync could not build on it")
	}
	found := false
	for _, s := range k.Sources {
		found = found || s.ID == snapshot.SourceID
	}
	if !found {
		t.Error("the snapshot does not name itself among its sources")
	}
}

// TestSnapshotIsTheSameOnAnyDay rebuilds the snapshot from a copy of the
// shared sources whose files all carry a modification time years away, with
// the clock faked to another year (a synctest bubble starts at 2000-01-01):
// the bytes must be the committed ones. Nothing the snapshot says may come
// from the day or the machine it was built on.
func TestSnapshotIsTheSameOnAnyDay(t *testing.T) {
	root := sharedtest.Root(t)
	copyRoot := t.TempDir()
	future := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, src := range sources.Shared(root) {
		rel, err := filepath.Rel(root, src)
		if err != nil {
			t.Fatal(err)
		}
		copyTree(t, src, filepath.Join(copyRoot, rel), future)
	}
	var got []byte
	synctest.Test(t, func(t *testing.T) {
		if y := time.Now().Year(); y == future.Year() || y == 2026 {
			t.Fatalf("the fake clock says %d; want a year of its own", y)
		}
		res, err := ingest.Load(sources.Shared(copyRoot))
		if err != nil {
			t.Fatal(err)
		}
		if got, err = snapshot.Build(res.Corpus); err != nil {
			t.Fatal(err)
		}
	})
	if !bytes.Equal(got, snapshot.Bytes()) {
		a, c := strings.Split(string(snapshot.Bytes()), "\n"), strings.Split(string(got), "\n")
		for i := 0; i < len(a) && i < len(c); i++ {
			if a[i] != c[i] {
				t.Fatalf("a rebuild in another year differs from the committed snapshot at line %d:\ncommitted: %.300s\nrebuilt:   %.300s", i+1, a[i], c[i])
			}
		}
		t.Fatalf("a rebuild in another year has %d lines, the committed snapshot %d", len(c), len(a))
	}
}

// copyTree copies the regular files and folders under src to dst and sets
// every modification time to mtime.
func copyTree(t *testing.T, src, dst string, mtime time.Time) {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			dirs = append(dirs, out)
			return os.MkdirAll(out, 0o755)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				return err
			}
			return os.Chtimes(out, mtime, mtime)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(dirs) - 1; i >= 0; i-- { // folders last: writing a file moves its folder's time
		if err := os.Chtimes(dirs[i], mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSnapshotKeepsEveryGate: the snapshot's runs of releases give back
// every release's gate table as the feature-gates folder reads.
func TestSnapshotKeepsEveryGate(t *testing.T) {
	want, err := featuregates.LoadDir(sharedtest.Path(t, "data", "feature-gates"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	got := k.Corpus.GateTables
	if len(got) != len(want.GateTables) {
		t.Fatalf("%d gate tables in the snapshot, %d in the folder", len(got), len(want.GateTables))
	}
	for i := range got {
		if d := cmp.Diff(want.GateTables[i], got[i]); d != "" {
			t.Errorf("release %s (-folder +snapshot):\n%s", got[i].Release, d)
		}
	}
	if len(k.FeatureGates) < 400 || len(k.GateReads) != 19 {
		t.Errorf("the snapshot compiles to %d gates over %d releases", len(k.FeatureGates), len(k.GateReads))
	}
}
