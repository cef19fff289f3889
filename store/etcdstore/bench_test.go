package etcdstore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// BenchmarkSaveSubscription is the cost of one subscribe: a subscription
// write with its read, on the bbolt file (one process) and on etcd (a
// local embedded member; a remote one adds its round trips).
func BenchmarkSaveSubscription(b *testing.B) {
	for _, backend := range []string{"bbolt", "etcd"} {
		b.Run(backend, func(b *testing.B) {
			var s store.Shared
			if backend == "bbolt" {
				db, err := store.Open(filepath.Join(b.TempDir(), "kepbot.db"), store.Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				s = db.Shared()
			} else {
				s = openStore(b, etcdtest.New(b))
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				_, err := s.SaveSubscription(ctx, digest.Subscription{Platform: "slack", Workspace: "T1", Channel: fmt.Sprintf("C%07d", i%500),
					Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
