package snapshot_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/ingest"
	"github.com/kepbot/kepbot/knowledge/snapshot"
)

func rebuild(t *testing.T) (*knowledge.Knowledge, []byte) {
	t.Helper()
	res, err := ingest.Load(snapshot.Sources(sharedtest.Root(t)))
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
	if texts == 0 {
		t.Fatal("the rebuilt knowledge has no texts to look for; the test would prove nothing")
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
