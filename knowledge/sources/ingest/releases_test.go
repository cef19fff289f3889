package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// TestLoadReleaseData reads ../shared's sig-release and lifecycle folders
// as `bot ingest ../shared/data/sig-release ../shared/data/lifecycle` does.
func TestLoadReleaseData(t *testing.T) {
	sig, life := sharedtest.Path(t, "data", "sig-release"), sharedtest.Path(t, "data", "lifecycle")
	res, err := Load([]string{sig, life})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %v", res.Warnings)
	}
	// the one oddity of the data: 1.32 lists PR 129083 under the key "12908"
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0].Problem, "entry 12908") {
		t.Errorf("notes %v", res.Notes)
	}
	c := res.Corpus
	if res.Files != 26 || len(c.Sources) != 26 || len(c.Releases) != 12 || len(c.Lifecycles) != 21 || len(c.Patches) != 511 || len(c.Changes) != 3309 {
		t.Errorf("%d files, %d sources, %d releases, %d lifecycles, %d patches, %d changes; want 26, 26, 12, 21, 511, 3309",
			res.Files, len(c.Sources), len(c.Releases), len(c.Lifecycles), len(c.Patches), len(c.Changes))
	}
	for _, s := range c.Sources {
		want := map[knowledge.SourceKind]string{
			knowledge.SourceReleaseNotesData: "2026-08-13", knowledge.SourceReleasePage: "2026-08-13",
			knowledge.SourceLifecycle: "2026-08-22", knowledge.SourcePatches: "2026-08-22",
		}[s.Kind]
		if s.AsOf != want || (!strings.HasPrefix(s.Path, sig) && !strings.HasPrefix(s.Path, life)) {
			t.Errorf("source %s: as of %q (want %q), path %q", s.ID, s.AsOf, want, s.Path)
		}
		if _, err := os.Stat(s.Path); err != nil {
			t.Errorf("source %s: path %q is not the file read", s.ID, s.Path)
		}
	}
	// SOURCE.md of each folder is passed over as today, LICENSE files are not read
	if len(c.Skipped) != 2 {
		t.Errorf("skipped %v, want the two SOURCE.md", c.Skipped)
	}
}

// TestLoadSharedRoot: `bot ingest ../shared` reads the release data too,
// and no file of sig-release or lifecycle is warned about.
func TestLoadSharedRoot(t *testing.T) {
	res, err := Load([]string{sharedtest.Root(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w.Path, "sig-release") || strings.Contains(w.Path, "lifecycle") || strings.Contains(w.Path, "SOURCE.md") {
			t.Errorf("warning %v", w)
		}
	}
	c := res.Corpus
	if len(c.Changes) != 3309 || len(c.Lifecycles) != 21 || len(c.Patches) != 511 || len(c.KEPs) < 600 {
		t.Errorf("%d changes, %d lifecycles, %d patches, %d KEPs", len(c.Changes), len(c.Lifecycles), len(c.Patches), len(c.KEPs))
	}
}

const (
	tinyNotes   = `{"1": {"pr_number": 1, "text": "Removed the ` + "`Foo`" + ` feature gate.", "kinds": ["cleanup"]}, "2": {"text": "no number"}}`
	tinyPage    = "# Kubernetes v1.40: Tiny\n\n- **Wednesday 22nd April 2026**: Week 15 — Kubernetes v1.40.0 released\n"
	tinyProduct = "---\ntitle: Kubernetes\nreleases:\n  - releaseCycle: \"1.40\"\n    releaseDate: 2026-04-22\n    eoas: 2027-04-28\n    eol: false\n    latest: \"1.40.1\"\n    latestReleaseDate: 2026-05-12\n---\n\nWords.\n"
	tinyPatches = `{"releases": {}, "versions": {"1.40.1": {"name": "1.40.1", "date": "2026-05-12"}, "1.40.0-rc.0": {"name": "1.40.0-rc.0", "date": "2026-04-01"}}}`
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLoadReleaseTrees reads small made-up trees: the shapes are told by
// where files lie and what they hold, and each file's as-of date comes
// from the nearest SOURCE.md.
func TestLoadReleaseTrees(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"sig/SOURCE.md":                       "- Snapshot commit: `abcdef1`, commit date 2031-01-02T00:00:00+00:00\n",
		"sig/releases/release-1.40/README.md": tinyPage,
		"sig/releases/release-1.40/release-notes/release-notes-draft.json": tinyNotes,
		"sig/releases/release-1.41/release-notes/release-notes-draft.json": `{"1": `,
		"sig/releases/release-1.42/README.md":                              "Schedule to come.\n",
		"sig/releases/release-1.40/release-notes/other.json":               `{"a": 1}`,
		"eol/SOURCE.md":       "- `k8s.md`: a copy at commit `abcdef2` (2031-03-04T00:00:00+00:00).\n",
		"eol/k8s.md":          tinyProduct,
		"eol/versions.json":   tinyPatches,
		"eol/LICENSE":         "MIT",
		"anywhere/my-page.md": strings.Replace(tinyPage, "1.40", "1.44", -1),
	})
	res, err := Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Corpus
	if len(c.Changes) != 1 || len(c.Lifecycles) != 1 || len(c.Patches) != 1 || len(c.Releases) != 2 {
		t.Errorf("%d changes, %d lifecycles, %d patches, %d releases; want 1, 1, 1, 2", len(c.Changes), len(c.Lifecycles), len(c.Patches), len(c.Releases))
	}
	asOf := map[string]string{}
	for _, s := range c.Sources {
		asOf[s.ID] = s.AsOf
	}
	for id, want := range map[string]string{
		"sig-release/release-1.40/README.md":                "2031-01-02",
		"sig-release/release-1.40/release-notes-draft.json": "2031-01-02",
		"endoflife.date/kubernetes.md":                      "2031-03-04", // its own line
		"endoflife.date/kubernetes.json":                    "",           // SOURCE.md names no date for it
		"sig-release/release-1.44/README.md":                "",           // no SOURCE.md above
	} {
		if got, ok := asOf[id]; !ok || got != want {
			t.Errorf("source %s as of %q (present %v), want %q", id, got, ok, want)
		}
	}
	warned := map[string]string{}
	for _, w := range res.Warnings {
		warned[filepath.ToSlash(strings.TrimPrefix(w.Path, dir+string(filepath.Separator)))] = w.Problem
	}
	if len(warned) != 1 || !strings.Contains(warned["sig/releases/release-1.41/release-notes/release-notes-draft.json"], "not valid JSON") {
		t.Errorf("warnings %v; want only the broken notes of 1.41", res.Warnings)
	}
	var notes []string
	for _, n := range res.Notes {
		notes = append(notes, n.String())
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"entry 2: skipped: no pr_number", "release-1.42/README.md: skipped: no \"# \" heading", "1 name(s) that are not releases"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	if res.Files != 5 {
		t.Errorf("%d files read, want 5 (1.40's page and notes, two lifecycle files, and the page found by content)", res.Files)
	}
}

// TestLoadReleaseFiles gives single files, as a user or a sync would.
func TestLoadReleaseFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"release-1.40/README.md":                              tinyPage,
		"release-1.40/release-notes/release-notes-draft.json": tinyNotes,
		"kubernetes.json":                                     tinyPatches,
		"data.json":                                           `{"x": 1}`,
		"notes/release-notes-draft.json":                      tinyNotes,
	})
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	big := p("release-1.41/release-notes/release-notes-draft.json")
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, MaxDataBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Load([]string{p("release-1.40/README.md"), p("release-1.40/release-notes/release-notes-draft.json"), p("kubernetes.json"), p("data.json"), p("notes/release-notes-draft.json"), big})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 3 || len(res.Corpus.Changes) != 1 || len(res.Corpus.Releases) != 1 || len(res.Corpus.Patches) != 1 {
		t.Errorf("%d files, %+v", res.Files, res.Corpus)
	}
	got := map[string]string{}
	for _, w := range res.Warnings {
		got[w.Path] = w.Problem
	}
	for path, want := range map[string]string{p("data.json"): "not a file kepbot reads", p("notes/release-notes-draft.json"): "not a file kepbot reads", big: "too large"} {
		if !strings.Contains(got[path], want) {
			t.Errorf("warning for %s = %q, want %q", path, got[path], want)
		}
	}
}

// TestEnhancementsDatedBySource: a kubernetes/enhancements folder is dated
// by its SOURCE.md, not by when its files were copied; without one nothing
// says a date.
func TestEnhancementsDatedBySource(t *testing.T) {
	res, err := Load([]string{sharedtest.Path(t, "data", "enhancements")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Corpus.Sources) != 1 || res.Corpus.Sources[0].AsOf != "2026-07-24" {
		t.Errorf("sources %+v, want kep.yaml as of the SOURCE.md commit date 2026-07-24", res.Corpus.Sources)
	}
	dir := writeTree(t, map[string]string{
		"keps/sig-node/1-a/kep.yaml": "title: A\nkep-number: 1\nowning-sig: sig-node\nstatus: implementable\nstage: alpha\n",
	})
	res, err = Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Corpus.Sources) != 1 || res.Corpus.Sources[0].AsOf != "" {
		t.Errorf("sources %+v, want no as-of date", res.Corpus.Sources)
	}
}
