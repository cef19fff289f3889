package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

// TestIngestJSON: `bot ingest --json` prints one object a script reads,
// with the counts the text summary gives and the exit code; a failed
// ingest says why in it, and its warnings still reach stderr.
func TestIngestJSON(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	code, out, errs := run(t, "", nil, "ingest", "--db", db, "--json", sharedtest.Path(t, "data", "lifecycle"), sharedtest.Path(t, "seeds"))
	var r ingest.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("--json printed %q: %v (stderr %s)", out, err, errs)
	}
	if code != exitOK || r.Exit != 0 || r.Database != db || r.Files != len(r.Sources) || r.Generation == 0 || r.Lifecycles != 21 || r.Patches != 511 ||
		r.Stats.Releases == 0 || len(r.Announced) == 0 || len(r.Sources) != r.Stats.Sources || r.Error != "" {
		t.Errorf("exit %d, report %+v", code, r)
	}

	missing := filepath.Join(t.TempDir(), "missing")
	code, out, errs = run(t, "", nil, "ingest", "--db", db, "--json", missing)
	r = ingest.Report{}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("--json printed %q: %v", out, err)
	}
	if code != exitBadInput || r.Exit != exitBadInput || !strings.Contains(r.Error, "the database was not changed") || len(r.Warnings) != 1 ||
		r.Warnings[0].Path != missing || !strings.Contains(errs, "warning: "+missing) {
		t.Errorf("a missing path: exit %d, report %+v, stderr %q", code, r, errs)
	}
}
