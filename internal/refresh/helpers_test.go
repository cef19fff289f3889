package refresh

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

// testClock is a clock a test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newRefresher is a Refresher over a new database and u, with clock.
func newRefresher(t testing.TB, u *upstreamtest.Upstream, clock *testClock, tune func(*Config)) (*Refresher, *store.KnowledgeStore) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kb.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	x := u.URLs()
	cfg := Config{Store: db.Knowledge(), URLs: URLs{Sync: x.Sync, Relnotes: x.Relnotes, Lifecycle: x.Lifecycle, Patches: x.Patches}, AllowHosts: []string{"127.0.0.1"}, Now: clock.Now, Interval: time.Hour}
	cfg.Fetch.Timeout = 10 * time.Second
	if tune != nil {
		tune(&cfg)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, db.Knowledge()
}

// outcome finds the outcome of the source name in rep.
func outcome(t testing.TB, rep *Report, name string) Outcome {
	t.Helper()
	for _, o := range rep.Outcomes {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no outcome for %s in %s", name, lines(rep))
	return Outcome{}
}

func lines(rep *Report) string {
	var b strings.Builder
	for _, o := range rep.Outcomes {
		b.WriteString("\n  " + o.Line())
	}
	return b.String()
}
