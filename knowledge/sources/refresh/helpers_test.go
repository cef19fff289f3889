package refresh

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/upstreamtest"
	"github.com/kepbot/kepbot/store"
)

// testClock is a clock a test moves. A refresher's waits before a retry
// (Config.Wait) are kept, not waited: they return at once.
type testClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

// Wait records a wait of d and returns at once, or ctx's error.
func (c *testClock) Wait(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	return ctx.Err()
}

// Waits returns the waits recorded, and forgets them.
func (c *testClock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.waits
	c.waits = nil
	return w
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
	return refresherOver(t, db.Knowledge(), u, clock, tune), db.Knowledge()
}

// refresherOver is a Refresher over kb and u, with clock.
func refresherOver(t testing.TB, kb Store, u *upstreamtest.Upstream, clock *testClock, tune func(*Config)) *Refresher {
	t.Helper()
	x := u.URLs()
	cfg := Config{Store: kb, URLs: URLs{sources.SettingSync: x.Sync, sources.SettingRelnotes: x.Relnotes, sources.SettingLifecycle: x.Lifecycle, sources.SettingPatches: x.Patches, sources.SettingAPILifecycle: x.APILifecycle, sources.SettingFeatureGates: x.FeatureGates, sources.SettingVulnDB: x.VulnDB}, AllowHosts: []string{"127.0.0.1"}, Now: clock.Now, Wait: clock.Wait, Interval: time.Hour}
	cfg.Fetch.Timeout = 10 * time.Second
	if tune != nil {
		tune(&cfg)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
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

// apiRelease reads the fake's k8s.io/api tarball of release v as the
// refresher would.
func apiRelease(t testing.TB, u *upstreamtest.Upstream, v knowledge.Version) *apilifecycle.Release {
	t.Helper()
	tag, ok := u.APITags()[v]
	if !ok {
		t.Fatalf("the fake serves no k8s.io/api tag of %s", v)
	}
	rel, err := apilifecycle.ReadModuleTarGz(bytes.NewReader(u.File(upstreamtest.APIPath(tag))), apilifecycle.APIModule, tag)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// apiReleases reads the fake's k8s.io/api releases from..to.
func apiReleases(t testing.TB, u *upstreamtest.Upstream, from, to string) []*apilifecycle.Release {
	t.Helper()
	var out []*apilifecycle.Release
	for v := knowledge.MustVersion(from); !knowledge.MustVersion(to).Less(v); v = v.Next() {
		out = append(out, apiRelease(t, u, v))
	}
	return out
}

// seedAPI fills kb with the built-in snapshot's corpus, its API modules'
// sources and types replaced by rels, so that a test knows which releases
// of k8s.io/api the knowledge holds, whatever the snapshot holds.
func seedAPI(t testing.TB, kb *store.KnowledgeStore, rels ...*apilifecycle.Release) *knowledge.Corpus {
	t.Helper()
	snap, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range snap.Corpus.Sources {
		if s.Kind == knowledge.SourceAPILifecycle {
			ids = append(ids, s.ID)
		}
	}
	c := snap.Corpus.Without(ids...)
	c.APITypes = nil
	c.Add(apilifecycle.Corpus(rels))
	k := knowledge.Compile(c)
	k.Corpus = c
	if err := kb.ReplaceKnowledge(t.Context(), k); err != nil {
		t.Fatal(err)
	}
	return c
}

// apiSourceIDs lists the IDs of c's API module sources.
func apiSourceIDs(c *knowledge.Corpus) []string {
	var out []string
	for _, s := range c.Sources {
		if s.Kind == knowledge.SourceAPILifecycle {
			out = append(out, s.ID)
		}
	}
	slices.Sort(out)
	return out
}

// countsBut counts the outcomes of rep by result, but for the sources whose
// name starts with prefix.
func countsBut(rep *Report, prefix string) map[string]int {
	out := map[string]int{}
	for _, o := range rep.Outcomes {
		if !strings.HasPrefix(o.Name, prefix) {
			out[o.Result]++
		}
	}
	return out
}
