package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store"
)

// TestOpenSeeded: a new database, or one without knowledge, starts from
// the seed and says so in one line; one with knowledge is opened as it is;
// a seed that fails leaves nothing open.
func TestOpenSeeded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kepbot.db")
	var notes []string
	note := func(n string) { notes = append(notes, n) }
	open := func(seed func() (*knowledge.Knowledge, error)) (*store.DB, error) {
		return store.OpenSeeded(ctx, path, store.Options{}, seed, note)
	}
	db, err := open(snapshot.Load)
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := db.Knowledge().IsEmpty(ctx); err != nil || empty {
		t.Errorf("seeded: empty %v, %v", empty, err)
	}
	db.Close()
	want := "created a new database at " + path + "; answers come from the built-in snapshot (facts only) until you run bot ingest or bot sync."
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q; want %q", notes, want)
	}
	notes = nil
	db, err = open(func() (*knowledge.Knowledge, error) { return nil, errors.New("never asked") })
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if len(notes) != 0 {
		t.Errorf("a database with knowledge: notes %q", notes)
	}

	empty := filepath.Join(t.TempDir(), "empty.db")
	db, err = store.Open(empty, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	path = empty
	if _, err := open(func() (*knowledge.Knowledge, error) { return nil, errors.New("no snapshot") }); err == nil || err.Error() != "no snapshot" {
		t.Errorf("a failing seed: %v", err)
	}
	db, err = store.Open(empty, store.Options{}) // not left open
	if err != nil {
		t.Fatalf("the failing seed left the file held: %v", err)
	}
	db.Close()
	db, err = open(snapshot.Load)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if len(notes) != 1 || !strings.HasPrefix(notes[0], empty+" held no knowledge; ") {
		t.Errorf("an empty database: notes %q", notes)
	}
	if _, err := os.Stat(empty); err != nil {
		t.Fatal(err)
	}
}
