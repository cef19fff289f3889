package etcdstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
	"github.com/kepbot/kepbot/store/storetest"
)

var prefixes atomic.Int64

// openStore returns a store on srv under a prefix of its own, so that
// every test starts empty on one server.
func openStore(t testing.TB, srv *etcdtest.Server) *etcdstore.Store {
	t.Helper()
	s, err := etcdstore.Open(context.Background(), etcdstore.Config{Endpoints: srv.Endpoints,
		Prefix: fmt.Sprintf("/test-%d/", prefixes.Add(1))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSharedContract runs the contract every Shared keeps against a real
// etcd, the same suite the bbolt store runs.
func TestSharedContract(t *testing.T) {
	srv := etcdtest.New(t)
	storetest.Run(t, func(t *testing.T) store.Shared { return openStore(t, srv) })
}
