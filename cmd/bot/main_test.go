package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// run calls Main in-process with its own stdio and environment.
func run(t *testing.T, stdin string, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, stdio{
		in: strings.NewReader(stdin), out: &out, err: &errb,
		getenv: func(k string) string { return env[k] },
	})
	return code, out.String(), errb.String()
}

func ingestSeeds(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "kb.db")
	code, out, errs := run(t, "", nil, "ingest", "--db", db, sharedtest.Path(t, "seeds"))
	if code != exitOK {
		t.Fatalf("ingest exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{"Ingested 5 document(s)", "1.27, 1.29, 1.30, 1.31, 1.32"} {
		if !strings.Contains(out, want) {
			t.Errorf("ingest report lacks %q:\n%s", want, out)
		}
	}
	return db
}

func askJSON(t *testing.T, db string, q ...string) (int, knowledge.Answer) {
	t.Helper()
	code, out, errs := run(t, "", nil, append([]string{"ask", "--db", db, "--json"}, q...)...)
	var a knowledge.Answer
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("ask %v: not JSON (%v)\nstdout:\n%s\nstderr:\n%s", q, err, out, errs)
	}
	return code, a
}

func TestAskAgainstIngestedSeeds(t *testing.T) {
	db := ingestSeeds(t)

	code, a := askJSON(t, db, "kep", "3866")
	if code != exitOK || a.Kind != knowledge.KindKEP || a.KEP == nil {
		t.Fatalf("kep 3866: exit %d, answer %+v", code, a)
	}
	if a.KEP.SIG != "sig-network" || a.KEP.Milestones["alpha"] != "1.29" || a.KEP.Milestones["beta"] != "1.31" {
		t.Errorf("kep 3866: sig %q milestones %v; want sig-network, alpha 1.29, beta 1.31", a.KEP.SIG, a.KEP.Milestones)
	}
	if !contains(a.KEP.FeatureGates, "NFTablesProxyMode") {
		t.Errorf("kep 3866: gates %v lack NFTablesProxyMode", a.KEP.FeatureGates)
	}

	code, a = askJSON(t, db, "1.29")
	if code != exitOK || a.Release == nil {
		t.Fatalf("1.29: exit %d, answer %+v", code, a)
	}
	want := knowledge.ReleaseFacts{Version: "1.29", Date: "2023-12-13", Theme: "Mandala",
		Enhancements: knowledge.Counts{Total: 49, Stable: 11, Beta: 19, Alpha: 19}}
	if *a.Release != want {
		t.Errorf("1.29 = %+v, want %+v", *a.Release, want)
	}

	code, a = askJSON(t, db, "1.32")
	if code != exitOK || a.Release == nil || a.Release.Theme != "" || a.Release.Enhancements.Total != 44 {
		t.Errorf("1.32: exit %d, release %+v; want no theme and 44 enhancements", code, a.Release)
	}

	for _, tc := range []struct {
		q    []string
		code int
		kind string
	}{
		{[]string{"kep", "abc"}, exitBadInput, knowledge.EBADINPUT},
		{[]string{"kep", "99999"}, exitNotFound, knowledge.ENOTFOUND},
		{[]string{"1.99"}, exitNotFound, knowledge.ENOTFOUND},
	} {
		code, a := askJSON(t, db, tc.q...)
		if code != tc.code || a.Error == nil || a.Error.Code != tc.kind {
			t.Errorf("%v: exit %d, error %+v; want exit %d, %s", tc.q, code, a.Error, tc.code, tc.kind)
		}
	}
	if _, a := askJSON(t, db, "1.99"); !strings.Contains(a.Error.Message, "1.29") {
		t.Errorf("1.99: %q does not name the releases that are known", a.Error.Message)
	}
}

func TestAskJSONLines(t *testing.T) {
	db := ingestSeeds(t)
	code, out, errs := run(t, "kep 3866\n\n1.30 ga\nkep abc\n", nil, "ask", "--db", db, "--json", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d JSON lines, want 3 (blank lines are skipped):\n%s", len(lines), out)
	}
	kinds := []knowledge.Kind{knowledge.KindKEP, knowledge.KindList, knowledge.KindError}
	for i, l := range lines {
		var a knowledge.Answer
		if err := json.Unmarshal([]byte(l), &a); err != nil || a.Kind != kinds[i] {
			t.Errorf("line %d: kind %q err %v; want %q", i+1, a.Kind, err, kinds[i])
		}
	}
}

func TestIngestBadFilesLeavesDatabase(t *testing.T) {
	db := ingestSeeds(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := write("binary.md", []byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2, 0xff, 0xfe})
	latin := write("latin1.md", []byte("# Kubernetes 1.29 \xe9t\xe9\n"))
	code, _, errs := run(t, "", nil, "ingest", "--db", db, bin, latin)
	if code != exitBadInput {
		t.Fatalf("ingest of only unreadable files: exit %d, want %d", code, exitBadInput)
	}
	for _, p := range []string{bin, latin} {
		if !strings.Contains(errs, p) {
			t.Errorf("no warning names %s:\n%s", p, errs)
		}
	}
	if _, a := askJSON(t, db, "1.29"); a.Release == nil || a.Release.Theme != "Mandala" {
		t.Errorf("after a failed ingest 1.29 = %+v; the database must be as it was", a.Release)
	}

	// A truncated seed among good ones: a warning or a partial read, never a lost database.
	seed, err := os.ReadFile(sharedtest.Path(t, "seeds", "000_c7b9359b7d990384.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cut := write("cut.md", seed[:len(seed)/3])
	code, out, errs := run(t, "", nil, "ingest", "--db", db, bin, cut, sharedtest.Path(t, "seeds", "001_734cae5d6bd047d8.txt"))
	if code != exitOK || !strings.Contains(errs, bin) {
		t.Fatalf("mixed ingest: exit %d\n%s\n%s", code, out, errs)
	}
	if _, a := askJSON(t, db, "1.32"); a.Release == nil || a.Release.Enhancements.Total != 44 {
		t.Errorf("1.32 after a mixed ingest = %+v", a.Release)
	}
}

func TestAskWithoutAQuestion(t *testing.T) {
	if code, _, errs := run(t, "", nil, "ask"); code != exitBadInput || !strings.Contains(errs, "bot ask kep 3866") {
		t.Errorf("ask without a question: exit %d\n%s", code, errs)
	}
}

func TestDatabasePathFromEnvironment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "env.db")
	code, _, errs := run(t, "", map[string]string{"BOT_DB": db}, "ask", "releases")
	if code != exitOK {
		t.Fatalf("ask releases with BOT_DB: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("BOT_DB=%s was not used: %v", db, err)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// TestAskSaysWhenItCreatedTheDatabase: a mistyped --db makes a new database
// answered from the built-in snapshot; stderr says so in one line, once.
func TestAskSaysWhenItCreatedTheDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "typo.db")
	code, out, errs := run(t, "", nil, "ask", "--db", db, "kep", "4639")
	if code != exitOK || !strings.Contains(out, "KEP-4639") {
		t.Fatalf("exit %d\nstdout:\n%s", code, out)
	}
	want := "bot ask: note: created a new database at " + db + "; answers come from the built-in snapshot"
	if !strings.HasPrefix(errs, want) || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q; want one line starting %q", errs, want)
	}
	code, _, errs = run(t, "", nil, "ask", "--db", db, "kep", "4639")
	if code != exitOK || errs != "" {
		t.Errorf("second ask: exit %d, stderr %q; want nothing said of an existing database", code, errs)
	}
	_, _, errs = run(t, "", nil, "check", "--db", filepath.Join(t.TempDir(), "other.db"))
	if !strings.Contains(errs, "bot check: note: created a new database") {
		t.Errorf("check stderr %q", errs)
	}
}

// TestCheckListsNotesListingOneStageTwice: on the seeds alone, bot check
// names every KEP two notes list at one stage in two releases.
func TestCheckListsNotesListingOneStageTwice(t *testing.T) {
	db := ingestSeeds(t)
	code, out, errs := run(t, "", nil, "check", "--db", db)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Listed at one stage in two releases (stage_twice, 6):") {
		t.Errorf("no stage_twice section of 6 in:\n%s", out)
	}
	for _, n := range []string{"KEP-24:", "KEP-2305:", "KEP-2681:", "KEP-4247:", "KEP-4368:", "KEP-4680:"} {
		if !strings.Contains(out, n) {
			t.Errorf("bot check does not name %s", n)
		}
	}
	if !strings.Contains(out, "KEP-4368: the Kubernetes 1.30 release note (zh) lists it as alpha in 1.30; the Kubernetes 1.31 release note (zh) also lists it as alpha in 1.31") {
		t.Errorf("KEP-4368's line does not name both notes:\n%s", out)
	}
}
