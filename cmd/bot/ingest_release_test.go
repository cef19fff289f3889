package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

// TestIngestReleaseData: `bot ingest` of the sig-release and lifecycle
// folders reports the release-note entries, lifecycles and patches it read
// (the knowledge does not keep them yet), the release pages as releases,
// and notes what it read around on stderr.
func TestIngestReleaseData(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kb.db")
	code, out, errs := run(t, "", nil, "ingest", "--db", db, sharedtest.Path(t, "data", "sig-release"), sharedtest.Path(t, "data", "lifecycle"))
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{
		"Ingested 26 document(s)",
		"releases: 12 announced (1.25, 1.26, 1.27, 1.28, 1.29, 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36)",
		"release-note entries: 3309 from 12 release(s): 71 deprecations, 220 removals, 37 upgrade notes",
		"lifecycles: 21 minor releases; patch releases: 511",
		"1 note(s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(errs, "warning:") || !strings.Contains(errs, "note: ") || !strings.Contains(errs, "entry 12908") {
		t.Errorf("stderr:\n%s", errs)
	}
	code, out, _ = run(t, "", nil, "ask", "--db", db, "1.35")
	if code != exitOK || !strings.Contains(out, "2025-12-17") || !strings.Contains(out, "Timbernetes") {
		t.Errorf("ask 1.35: exit %d\n%s", code, out)
	}
}
