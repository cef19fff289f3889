package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/store"
)

// SnapshotDB opens a bbolt file in a temporary folder of tb's holding the
// built-in snapshot, as a new database of `bot serve` does; it is closed
// when tb ends.
func SnapshotDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(filepath.Join(tb.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	k, err := snapshot.Load()
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), k); err != nil {
		tb.Fatal(err)
	}
	return db
}
