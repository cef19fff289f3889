package lifecycle

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// TestReadDirShared reads the lifecycle folder as ingest does: both files,
// each stamped by its own line of SOURCE.md; the licences are not read.
func TestReadDirShared(t *testing.T) {
	c, ws, err := ReadDir(os.DirFS(sharedtest.Path(t, "data", "lifecycle")), provenance.Stamp{Date: "1999-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 || len(c.Skipped) != 0 {
		t.Errorf("warnings %v, skipped %v", ws, c.Skipped)
	}
	if len(c.Sources) != 2 || len(c.Lifecycles) != 21 || len(c.Patches) != 511 {
		t.Fatalf("%d sources, %d lifecycles, %d patches", len(c.Sources), len(c.Lifecycles), len(c.Patches))
	}
	for _, s := range c.Sources {
		if s.AsOf != "2026-08-22" || (s.Path != "kubernetes.md" && s.Path != "kubernetes.json") {
			t.Errorf("source %+v; want the date SOURCE.md gives its file, and its path", s)
		}
	}
}

func TestReadDirSynthetic(t *testing.T) {
	fsys := fstest.MapFS{
		"SOURCE.md":         {Data: []byte("- `product.md`: a copy at commit `abcdef1` (2030-07-01T00:00:00+00:00).\n")},
		"product.md":        {Data: []byte(tinyProduct)},
		"releases.json":     {Data: []byte(tinyPatches)},
		"broken.json":       {Data: []byte(`{"versions": {"1.0.0": `)},
		"README.md":         {Data: []byte("# Notes\n")},
		"other.json":        {Data: []byte(`{"name": "x"}`)},
		"LICENSE":           {Data: []byte("MIT")},
		"sub/kubernetes.md": {Data: []byte(tinyProduct)},
	}
	c, ws, err := ReadDir(fsys, provenance.Stamp{Date: "2030-08-01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lifecycles) != 2 || len(c.Patches) != 2 || len(c.Sources) != 2 {
		t.Errorf("got %+v", c)
	}
	for _, s := range c.Sources {
		want := map[string]string{"product.md": "2030-07-01", "releases.json": "2030-08-01"}[s.Path]
		if s.AsOf != want {
			t.Errorf("%s as of %q, want %q", s.Path, s.AsOf, want)
		}
	}
	if len(c.Skipped) != 1 || c.Skipped[0].Path != "broken.json" || len(ws) != 1 || !strings.Contains(ws[0].Problem, "not a JSON object") {
		t.Errorf("skipped %v, warnings %v; want broken.json", c.Skipped, ws)
	}
	if _, _, err := ReadDir(fstest.MapFS{"README.md": {Data: []byte("# x")}}, provenance.Stamp{}); !errors.Is(err, ErrNoLifecycleDir) {
		t.Errorf("a folder without lifecycle files: %v", err)
	}
}

func TestSniffers(t *testing.T) {
	if !IsLifecycle([]byte(tinyProduct)) || IsLifecycle([]byte("# Kubernetes\n")) || IsLifecycle([]byte("---\ntitle: x\n---\n")) {
		t.Error("IsLifecycle")
	}
	if !IsPatches([]byte(" "+tinyPatches)) || IsPatches([]byte(`{"name": "x"}`)) || IsPatches([]byte(`"versions"`)) {
		t.Error("IsPatches")
	}
}
