package refresh

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/store"
)

// TestSetupConfig: serve, a leader and bot sync build the same refresher
// config from the sources section.
func TestSetupConfig(t *testing.T) {
	s := Setup{URLs: URLs{sources.SettingSync: "https://example.test/k.tar.gz"}, AllowHosts: []string{"example.test"},
		Timeout: 3 * time.Second, Interval: time.Minute, StaleAfter: time.Hour}
	st := LocalStore{Path: "x.db"}
	c := s.Config(st)
	if c.Store != st || !maps.Equal(c.URLs, s.URLs) || !slices.Equal(c.AllowHosts, s.AllowHosts) || c.Fetch.Timeout != s.Timeout || c.Interval != s.Interval {
		t.Errorf("config %+v from %+v", c, s)
	}
}

// TestLocalStoreHoldsTheFileOnlyPerCall: bot sync's store opens the
// database for each call and lets go of it after, so another process may
// open it between calls.
func TestLocalStoreHoldsTheFileOnlyPerCall(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kepbot.db")
	st := LocalStore{Path: path, Timeout: time.Second}
	if empty, err := st.IsEmpty(ctx); err != nil || !empty {
		t.Fatalf("a new database: empty %v, %v", empty, err)
	}
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]store.SourceState{"kep.yaml": {Result: ResultUpdated}}
	if err := st.ReplaceWithSources(ctx, k, states); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("the file is still held after a call: %v", err)
	}
	gen, err := db.Knowledge().Generation(ctx)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if g, err := st.Generation(ctx); err != nil || g != gen || g == 0 {
		t.Errorf("generation %d, %v; the database says %d", g, err, gen)
	}
	if got, err := st.SourceStates(ctx); err != nil || got["kep.yaml"].Result != ResultUpdated {
		t.Errorf("source states %v, %v", got, err)
	}
	if c, err := st.LoadCorpus(ctx); err != nil || c == nil {
		t.Errorf("corpus %v, %v", c, err)
	}
	// Held by another: the call waits Timeout, then fails.
	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var oe *store.OpenError
	if _, err := (LocalStore{Path: path, Timeout: 50 * time.Millisecond}).IsEmpty(ctx); !errors.As(err, &oe) || !errors.Is(oe, store.ErrLocked) {
		t.Errorf("a held database: %v; want store.ErrLocked", err)
	}
	// With KB, the calls use the database given.
	if empty, err := (LocalStore{KB: db.Knowledge()}).IsEmpty(ctx); err != nil || empty {
		t.Errorf("with KB: empty %v, %v", empty, err)
	}
}

// TestRunnerLogsAPassAndNotesStaleSources: a pass is logged with its
// counts, a failed source warned of, and the staleness note follows the
// states in the store.
func TestRunnerLogsAPassAndNotesStaleSources(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	long := time.Now().Add(-48 * time.Hour)
	if err := db.Knowledge().SaveSourceStates(ctx, map[string]store.SourceState{"lifecycle": {FailingSince: long}}); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	stale := NewStaleNotes(nil)
	s := Setup{Interval: time.Hour, StaleAfter: 24 * time.Hour}
	r, err := NewRunner(s, s.Config(db.Knowledge()), stale, zerolog.New(&logs))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Refresher().Close()
	r.Done(&Report{Applied: true, Generation: 7, Outcomes: []Outcome{
		{Name: "kep.yaml", Result: ResultUpdated},
		{Name: "lifecycle", Result: ResultFailed, Error: "503", Severity: SeverityFailure},
	}}, nil)
	out := logs.String()
	for _, want := range []string{`"applied":true`, `"generation":7`, `"updated":1`, `"failed":1`, `"message":"refreshed the knowledge"`,
		`"source":"lifecycle"`, `"message":"a source failed; its part of the knowledge is kept"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
	if !strings.Contains(stale.Note(), "lifecycle") {
		t.Errorf("staleness note %q; want lifecycle named", stale.Note())
	}
	logs.Reset()
	r.Done(nil, errors.New("disk full"))
	if !strings.Contains(logs.String(), `"message":"refresh the knowledge"`) || !strings.Contains(logs.String(), "disk full") {
		t.Errorf("an error pass logged %s", logs.String())
	}
}

// TestWriteReport: bot sync's report names the database and the
// generation, a line per source, the totals after news, and each failed
// source on the error stream.
func TestWriteReport(t *testing.T) {
	var out, errw bytes.Buffer
	rep := &Report{Applied: true, Generation: 3, Stats: knowledge.Stats{Releases: 2, KEPs: 5}, Outcomes: []Outcome{
		{Name: "kep.yaml", Result: ResultUpdated},
		{Name: "lifecycle", Result: ResultFailed, Error: "503", Severity: SeverityFailure},
	}}
	WriteReport(&out, &errw, "k.db", rep)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "Synced k.db (generation 3):" || lines[1] != "  "+rep.Outcomes[0].Line() ||
		!strings.HasPrefix(lines[3], "  knowledge now: 2 releases, 5 KEPs, ") {
		t.Errorf("report:\n%s", out.String())
	}
	if errw.String() != "bot sync: lifecycle failed: 503; what it gave before is kept.\n" {
		t.Errorf("errors: %q", errw.String())
	}
	out.Reset()
	WriteReport(&out, &errw, "k.db", &Report{})
	if out.String() != "Up to date: nothing new in k.db.\n" {
		t.Errorf("no news: %q", out.String())
	}
}

// TestOnceSteps: bot sync's pass creates a missing database from the
// snapshot, and says which step failed: the database, the refresher's
// config, or the local copy.
func TestOnceSteps(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// under a file, so it cannot be created
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st := LocalStore{Path: filepath.Join(dir, "file", "kepbot.db"), Timeout: time.Second}
	_, err := Once{Config: Setup{}.Config(st), Store: st}.Run(ctx)
	var oe *OnceError
	if !errors.As(err, &oe) || oe.Setup {
		t.Errorf("a database that cannot be created: %v; want a *OnceError of the database", err)
	}
	st.Path = filepath.Join(dir, "kepbot.db")
	c := Setup{}.Config(st)
	c.Store = nil
	_, err = Once{Config: c, Store: st}.Run(ctx)
	if !errors.As(err, &oe) || !oe.Setup {
		t.Errorf("a refresher without a store: %v; want a *OnceError of the setup", err)
	}
	if empty, err := st.IsEmpty(ctx); err != nil || empty {
		t.Errorf("the new database: empty %v, %v; want the snapshot", empty, err)
	}
	_, err = Once{Config: Setup{}.Config(st), Store: st, From: filepath.Join(dir, "no-such-checkout")}.Run(ctx)
	var le *LocalError
	if !errors.As(err, &le) {
		t.Errorf("a missing local copy: %v; want a *LocalError", err)
	}
	if got, err := SplitOnly(" kep.yaml, ,lifecycle,release-notes/1.36,api-lifecycle/1.19"); err != nil ||
		!slices.Equal(got, []string{"kep.yaml", "lifecycle", "release-notes/1.36", "api-lifecycle/1.19"}) {
		t.Errorf("SplitOnly = %q, %v", got, err)
	}
}

// TestSplitOnlyRefuses: a name that is not a source the registry fetches,
// or a release of a format fetched once, is refused with the names that
// are, rather than making a pass that asks nothing.
func TestSplitOnlyRefuses(t *testing.T) {
	for _, only := range []string{"bogus", "kep.yaml,bogus", "lifecycle/1.30", "release-notes/x", "website", "release-note", " , "} {
		got, err := SplitOnly(only)
		if err == nil {
			t.Errorf("SplitOnly(%q) = %q; want an error", only, got)
			continue
		}
		if !strings.Contains(err.Error(), "kep.yaml, release-notes, lifecycle, patches, release-page, api-lifecycle") {
			t.Errorf("SplitOnly(%q): %v; want the sources named", only, err)
		}
	}
}
