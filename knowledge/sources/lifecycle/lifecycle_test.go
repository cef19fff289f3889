package lifecycle

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

func readShared(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(sharedtest.Path(t, "data", "lifecycle", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSharedLifecycle reads endoflife.date's kubernetes.md: dates, a
// boolean eoas, and the as-of date SOURCE.md gives this file.
func TestSharedLifecycle(t *testing.T) {
	prov := provenance.Parse(readShared(t, provenance.FileName))
	c, ws, err := ParseLifecycle("kubernetes.md", readShared(t, "kubernetes.md"), prov.For("kubernetes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 {
		t.Errorf("warnings %v", ws)
	}
	by := map[string]knowledge.Lifecycle{}
	for _, l := range c.Lifecycles {
		by[l.Release.String()] = l
	}
	want := map[string]knowledge.Lifecycle{
		"1.31": {Release: knowledge.MustVersion("1.31"), Released: "2024-08-13", EndOfSupport: "2025-08-28", EOL: "2025-11-11",
			Latest: "1.31.14", LatestDate: "2025-11-11", Source: LifecycleSourceID},
		"1.30": {Release: knowledge.MustVersion("1.30"), Released: "2024-04-17", EndOfSupport: "2025-04-28", EOL: "2025-07-15",
			Latest: "1.30.14", LatestDate: "2025-06-17", Source: LifecycleSourceID},
		// eoas: true (support ended, no date given)
		"1.16": {Release: knowledge.MustVersion("1.16"), Released: "2019-09-18", EOL: "2020-08-04",
			Latest: "1.16.15", LatestDate: "2020-09-02", Source: LifecycleSourceID},
	}
	for v, w := range want {
		if diff := cmp.Diff(w, by[v]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", v, diff)
		}
	}
	if len(c.Lifecycles) != 21 || c.Lifecycles[0].Release.String() != "1.16" || c.Lifecycles[20].Release.String() != "1.36" {
		t.Errorf("%d lifecycles from %s to %s, want 21 from 1.16 to 1.36", len(c.Lifecycles), c.Lifecycles[0].Release, c.Lifecycles[len(c.Lifecycles)-1].Release)
	}
	wantSrc := []knowledge.Source{{ID: "endoflife.date/kubernetes.md", Name: "endoflife.date Kubernetes lifecycle", Kind: knowledge.SourceLifecycle,
		Lang: "en", AsOf: "2026-08-22", URL: "https://endoflife.date/kubernetes"}}
	if diff := cmp.Diff(wantSrc, c.Sources); diff != "" {
		t.Errorf("source (-want +got):\n%s", diff)
	}
}

// TestSharedPatches reads release-data's kubernetes.json: every 1.x.y.
func TestSharedPatches(t *testing.T) {
	prov := provenance.Parse(readShared(t, provenance.FileName))
	c, ws, err := ParsePatches("kubernetes.json", readShared(t, "kubernetes.json"), prov.For("kubernetes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 {
		t.Errorf("warnings %v", ws)
	}
	if len(c.Patches) != 511 {
		t.Errorf("%d patches, want the 511 versions SOURCE.md counts", len(c.Patches))
	}
	first, last := c.Patches[0], c.Patches[len(c.Patches)-1]
	if first.String() != "1.0.0" || first.Date != "2015-07-10" || last.String() != "1.36.4" || last.Date != "2026-08-20" {
		t.Errorf("patches from %s (%s) to %s (%s); want 1.0.0 of 2015-07-10 to 1.36.4 of 2026-08-20", first, first.Date, last, last.Date)
	}
	latest130 := knowledge.Patch{}
	for _, p := range c.Patches {
		if p.Release.String() == "1.30" && p.Number >= latest130.Number {
			latest130 = p
		}
	}
	if latest130.String() != "1.30.14" || latest130.Date != "2025-06-17" || latest130.Source != PatchesSourceID {
		t.Errorf("1.30's latest patch is %+v, want 1.30.14 of 2025-06-17", latest130)
	}
	if s := c.Sources[0]; s.ID != "endoflife.date/kubernetes.json" || s.Kind != knowledge.SourcePatches || s.AsOf != "2026-08-22" {
		t.Errorf("source %+v", s)
	}
}

// TestLatestAgrees checks the two files against each other: each minor
// release's latest patch in kubernetes.md is the newest 1.x.y of
// kubernetes.json, on the same day.
func TestLatestAgrees(t *testing.T) {
	lc, _, err := ParseLifecycle("kubernetes.md", readShared(t, "kubernetes.md"), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	pc, _, err := ParsePatches("kubernetes.json", readShared(t, "kubernetes.json"), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	newest := map[knowledge.Version]knowledge.Patch{}
	for _, p := range pc.Patches {
		if q, ok := newest[p.Release]; !ok || p.Number > q.Number {
			newest[p.Release] = p
		}
	}
	for _, l := range lc.Lifecycles {
		p := newest[l.Release]
		if l.Latest != p.String() || l.LatestDate != p.Date {
			t.Errorf("%s: latest %s of %s, but the patch list's newest is %s of %s", l.Release, l.Latest, l.LatestDate, p, p.Date)
		}
	}
}
