package store_test

import (
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/storetest"
)

// TestSharedContract runs the contract every Shared keeps against the
// bbolt file: the same suite runs against etcd in store/etcdstore.
func TestSharedContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Shared {
		db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db.Shared()
	})
}
