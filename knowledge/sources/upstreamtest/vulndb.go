package upstreamtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// VulnDBFolder is where the fake serves the Go vulnerability database's
// HTTP API: <folder>/index/modules.json and <folder>/ID/<id>.json.
const VulnDBFolder = "/vulndb"

// VulnModified is the modified time the fake's database gives every
// record of the shared copy (whose own are placeholders): the day of the
// copy's commit, as a live database would carry a real time.
var VulnModified = time.Date(2026, 8, 21, 0, 0, 0, 0, time.UTC)

// vulnIndex is the fake's module index: by module, each record's ID and
// modified time.
type vulnIndex map[string]map[string]time.Time

// serveVulnDB puts the shared copy's records (data/cves/osv) in u, each
// with VulnModified, and the module index listing them.
func (u *Upstream) serveVulnDB(t testing.TB, root string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "data", "cves", "osv", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the shared copy of the vulnerability database holds no record (%v)", err)
	}
	u.vulns = vulnIndex{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		u.putVuln(t, b, VulnModified)
	}
	u.writeVulnIndex(t)
}

// AddVuln serves record (an OSV record) as modified at modified, and lists
// it in the module index under each module it affects: a record the
// database just published, or one it changed.
func (u *Upstream) AddVuln(t testing.TB, record []byte, modified time.Time) {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	u.putVuln(t, record, modified)
	u.writeVulnIndex(t)
}

// putVuln serves one record with its modified time set; u.mu is held or
// not needed.
func (u *Upstream) putVuln(t testing.TB, record []byte, modified time.Time) {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(record, &r); err != nil {
		t.Fatalf("not an OSV record: %v", err)
	}
	id, _ := r["id"].(string)
	r["modified"] = modified.UTC().Format(time.RFC3339)
	body, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	u.files[VulnDBFolder+"/ID/"+id+".json"] = body
	affected, _ := r["affected"].([]any)
	for _, a := range affected {
		pkg, _ := a.(map[string]any)["package"].(map[string]any)
		mod, _ := pkg["name"].(string)
		if u.vulns[mod] == nil {
			u.vulns[mod] = map[string]time.Time{}
		}
		u.vulns[mod][id] = modified
	}
}

// writeVulnIndex serves the index of u.vulns, with one module of another
// project, as the real index lists every Go module.
func (u *Upstream) writeVulnIndex(t testing.TB) {
	t.Helper()
	type vuln struct {
		ID       string    `json:"id"`
		Modified time.Time `json:"modified"`
	}
	type module struct {
		Path  string `json:"path"`
		Vulns []vuln `json:"vulns"`
	}
	idx := []module{{Path: "golang.org/x/example", Vulns: []vuln{{ID: "GO-2020-0001", Modified: VulnModified}}}}
	for mod, ids := range u.vulns {
		m := module{Path: mod}
		for id, at := range ids {
			m.Vulns = append(m.Vulns, vuln{ID: id, Modified: at})
		}
		sort.Slice(m.Vulns, func(i, j int) bool { return m.Vulns[i].ID < m.Vulns[j].ID })
		idx = append(idx, m)
	}
	sort.Slice(idx, func(i, j int) bool { return strings.Compare(idx[i].Path, idx[j].Path) < 0 })
	b, err := json.Marshal(idx)
	if err != nil {
		t.Fatal(err)
	}
	u.files[VulnDBFolder+"/index/modules.json"] = b
}

// VulnIndexPath and VulnRecordPath are the fake's paths of the module
// index and of one record.
const VulnIndexPath = VulnDBFolder + "/index/modules.json"

func VulnRecordPath(id string) string { return VulnDBFolder + "/ID/" + id + ".json" }
