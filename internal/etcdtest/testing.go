package etcdtest

import "testing"

// New starts a fast member for t and stops it when t ends.
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start(Options{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
