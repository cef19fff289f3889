package osv_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/osv"
)

// TestLoadSharedCopy reads the shared tree's copy of the database: every
// record, dated by its SOURCE.md, with the placeholders of its copies
// (published and modified 0001-01-01) read as unknown.
func TestLoadSharedCopy(t *testing.T) {
	dir := sharedtest.Path(t, "data/cves")
	if !osv.IsTree(dir) {
		t.Fatalf("%s is not told as a copy of the database", dir)
	}
	c, err := osv.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "osv", "*.json"))
	if len(c.Vulns) != len(files) || len(files) != 76 || len(c.Skipped) != 0 {
		t.Fatalf("read %d records of %d files (want 76), skipped %v", len(c.Vulns), len(files), c.Skipped)
	}
	if len(c.Sources) != 1 || c.Sources[0].AsOf != "2026-08-21" || c.Sources[0].Commit != "a752ea54fd1b989d208a270aeef772f55a36b87a" || c.Sources[0].Kind != knowledge.SourceVulnDB {
		t.Errorf("source %+v, want the database dated 2026-08-21 at its commit", c.Sources)
	}
	byID := map[string]knowledge.Vuln{}
	for _, v := range c.Vulns {
		byID[v.ID] = v
		if v.Modified != "" {
			t.Errorf("%s: modified %q, want the copies' placeholder read as unknown", v.ID, v.Modified)
		}
		if v.Source != osv.SourceID {
			t.Errorf("%s: source %q", v.ID, v.Source)
		}
	}
	v := byID["GO-2024-3286"]
	if !slices.Equal(v.Aliases, []string{"CVE-2024-10220", "GHSA-27wf-5967-98gx"}) || v.Summary != "Kubernetes kubelet arbitrary command execution in k8s.io/kubernetes" {
		t.Errorf("GO-2024-3286: %+v", v)
	}
	if len(v.Affected) != 1 || v.Affected[0].Module != "k8s.io/kubernetes" || len(v.Affected[0].Ranges[0].Events) != 6 ||
		v.Affected[0].Ranges[0].Events[5].Fixed != "1.30.3" || !slices.Equal(v.Affected[0].Packages, []string{"k8s.io/kubernetes/pkg/volume/git_repo"}) {
		t.Errorf("GO-2024-3286 affected: %+v", v.Affected)
	}
	if v.URL != "https://pkg.go.dev/vuln/GO-2024-3286" || v.Review != "REVIEWED" || v.Advisory() != "https://github.com/advisories/GHSA-27wf-5967-98gx" {
		t.Errorf("GO-2024-3286: url %q review %q advisory %q", v.URL, v.Review, v.Advisory())
	}
	if p := byID["GO-2021-0064"].Published; p != "2021-04-14T20:04:52Z" || v.Published != "" {
		t.Errorf("published: GO-2021-0064 %q (a real date), GO-2024-3286 %q (a placeholder)", p, v.Published)
	}
	if w := byID["GO-2022-0617"].Withdrawn; w != "2024-08-21T16:25:56Z" {
		t.Errorf("GO-2022-0617 withdrawn %q", w)
	}
	nginx := byID["GO-2025-3567"].Affected[0]
	if nginx.Module != "k8s.io/ingress-nginx" || len(nginx.Custom) != 1 || !slices.Equal(nginx.Custom[0].Fixes(), []string{"1.11.5", "1.12.1"}) {
		t.Errorf("GO-2025-3567: the controller's own ranges are lost: %+v", nginx)
	}
}

func TestParseRefusesWhatIsNotARecord(t *testing.T) {
	for name, in := range map[string]string{
		"not JSON":          "# a note",
		"no id":             `{"affected":[]}`,
		"two in one event":  `{"id":"GO-1","affected":[{"package":{"name":"k8s.io/kubernetes"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0","fixed":"1.2.3"}]}]}]}`,
		"an empty event":    `{"id":"GO-1","affected":[{"package":{"name":"k8s.io/kubernetes"},"ranges":[{"type":"SEMVER","events":[{}]}]}]}`,
		"a nameless module": `{"id":"GO-1","affected":[{"package":{},"ranges":[]}]}`,
	} {
		if _, err := osv.Parse("x.json", []byte(in)); err == nil {
			t.Errorf("%s: Parse accepted %s", name, in)
		} else if !strings.HasPrefix(err.Error(), "x.json: ") {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
	if _, err := osv.Parse("big.json", []byte(strings.Repeat(" ", osv.MaxRecordBytes+1))); err == nil {
		t.Error("a record over the cap was read")
	}
	if osv.IsRecord([]byte(`{"releases":{}}`)) || osv.IsRecord([]byte(`[1]`)) || !osv.IsRecord([]byte(`{"id":"GO-1","affected":[{}]}`)) {
		t.Error("IsRecord tells records wrong")
	}
}

func TestLoadDirSkipsBadFilesAndRefusesEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "osv"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, "osv", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("GO-2000-0001.json", "not json")
	if _, err := osv.LoadDir(dir); err == nil {
		t.Fatal("a folder of no readable record was read")
	}
	write("GO-2000-0002.json", `{"id":"GO-2000-0002","modified":"2025-03-04T05:06:07Z","affected":[{"package":{"name":"k8s.io/kubernetes"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"}]}]}]}`)
	c, err := osv.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Vulns) != 1 || len(c.Skipped) != 1 || c.Skipped[0].Path != "osv/GO-2000-0001.json" {
		t.Errorf("vulns %d, skipped %+v", len(c.Vulns), c.Skipped)
	}
	if c.Sources[0].AsOf != "2025-03-04" {
		t.Errorf("without a SOURCE.md the as-of is the newest record's day; got %q", c.Sources[0].AsOf)
	}
}

func TestParseIndex(t *testing.T) {
	idx := `[
 {"path":"github.com/other/thing","vulns":[{"id":"GO-2024-0001","modified":"2024-01-01T00:00:00Z"}]},
 {"path":"k8s.io/kubernetes","vulns":[{"id":"GO-2024-3286","modified":"2024-11-20T00:00:00Z","fixed":"1.30.3"},{"id":"GO-2023-2170","modified":"2023-09-01T00:00:00Z"}]},
 {"path":"k8s.io/mount-utils","vulns":[{"id":"GO-2023-2170","modified":"2024-05-01T00:00:00Z"}]},
 {"path":"k8s.io","vulns":[{"id":"GO-2099-0001","modified":"2024-05-01T00:00:00Z"}]}
]`
	got, err := osv.ParseIndex([]byte(idx))
	if err != nil {
		t.Fatal(err)
	}
	want := []osv.IndexEntry{
		{ID: "GO-2023-2170", Modified: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)},
		{ID: "GO-2024-3286", Modified: time.Date(2024, 11, 20, 0, 0, 0, 0, time.UTC)},
	}
	if len(got) != len(want) {
		t.Fatalf("ParseIndex = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID || !got[i].Modified.Equal(want[i].Modified) {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := osv.ParseIndex([]byte(`[{"path":"k8s.io/kubernetes","vulns":[{"id":"../../etc/passwd"}]}]`)); err == nil {
		t.Error("an ID that is a path was accepted")
	}
	if _, err := osv.ParseIndex([]byte(`{"modified":"x"}`)); err == nil {
		t.Error("db.json was read as the module index")
	}
	if osv.RecordPath("GO-2024-3286") != "ID/GO-2024-3286.json" {
		t.Error("RecordPath")
	}
}
