package admin

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge/sources/refresh"
)

// TestURLOnLoopback: the admin file's URL is taken only on this machine.
func TestURLOnLoopback(t *testing.T) {
	for raw, ok := range map[string]bool{
		"http://127.0.0.1:8080/admin": true, "http://[::1]:8080/x": true, "http://localhost:1/": true,
		"https://127.0.0.1/": false, "http://10.0.0.1/": false, "http://example.com/": false, "http://127.0.0.1.example.com/": false,
	} {
		if _, err := urlOnLoopback(raw); (err == nil) != ok {
			t.Errorf("urlOnLoopback(%q): %v, want accepted %v", raw, err, ok)
		}
	}
}

type runner struct {
	only   []string
	budget time.Duration
	err    error
}

func (r *runner) Run(_ context.Context, opts refresh.Options) (*refresh.Report, error) {
	r.only, r.budget = opts.Only, opts.Budget
	if r.err != nil {
		return nil, r.err
	}
	return &refresh.Report{Applied: true, Generation: 7}, nil
}

// TestAskRefresh: a sync asks the endpoint through the admin file, with
// the token, and gets the pass's report or why there is none; the file
// goes when the endpoint is withdrawn.
func TestAskRefresh(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	r := &runner{}
	var passes int
	ep := NewEndpoint(db, "127.0.0.1:0", r, func(*refresh.Report, error) { passes++ }, zerolog.Nop())
	srv := httptest.NewServer(ep)
	defer srv.Close()
	ep.Addr = func() string { return srv.Listener.Addr().String() }
	if err := ep.Publish(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(File(db)); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the admin file: %v, %v; want mode 0600", info, err)
	}
	pid, rep, err := AskRefresh(context.Background(), db, []string{"kep.yaml"}, 3*time.Second)
	if err != nil || pid != os.Getpid() || rep == nil || rep.Generation != 7 || passes != 1 || len(r.only) != 1 || r.only[0] != "kep.yaml" || r.budget != 3*time.Second {
		t.Fatalf("pid %d, report %+v, %v, %d passes, only %q, budget %v", pid, rep, err, passes, r.only, r.budget)
	}
	r.err = errors.New("the disk is full")
	if _, _, err := AskRefresh(context.Background(), db, nil, 0); err == nil || !strings.Contains(err.Error(), "could not refresh: the disk is full") {
		t.Errorf("a failed pass: %v", err)
	}
	ep.Withdraw()
	if _, _, err := AskRefresh(context.Background(), db, nil, 0); err == nil || !strings.Contains(err.Error(), "does not take refresh requests") {
		t.Errorf("after Withdraw: %v", err)
	}
}
