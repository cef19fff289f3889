package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestOpenReadOnlyIsShared: two read-only opens of one file share it (two
// CI scans on one cache do not wait on each other), and a read-only open
// creates nothing: a path that does not exist is an error, not a new file.
func TestOpenReadOnlyIsShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kb.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	opts := Options{ReadOnly: true, Timeout: 200 * time.Millisecond}
	a, err := Open(path, opts)
	if err != nil {
		t.Fatalf("first read-only open: %v", err)
	}
	defer a.Close()
	b, err := Open(path, opts)
	if err != nil {
		t.Fatalf("a second read-only open waits on the first: %v", err)
	}
	defer b.Close()
	if _, _, err := b.Knowledge().ListAPIs(context.Background()); err != nil {
		t.Errorf("read: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "sub", "none.db")
	if db, err := Open(missing, opts); err == nil {
		db.Close()
		t.Errorf("a read-only open of %s made a database", missing)
	}
}
