package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// TestLoadAPILifecycle: the api-lifecycle folder is read whole, given
// directly or found while walking its parent.
func TestLoadAPILifecycle(t *testing.T) {
	dir := sharedtest.Path(t, "data", "api-lifecycle")
	for _, given := range []string{dir, filepath.Dir(dir)} {
		t.Run(filepath.Base(given), func(t *testing.T) {
			res, err := Load([]string{given})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range res.Warnings {
				if strings.Contains(w.Path, "api-lifecycle") {
					t.Errorf("warning %v", w)
				}
			}
			want := APIReport{Path: dir, Releases: 21, Types: 230, Marked: 198}
			if len(res.APIReports) != 1 || res.APIReports[0] != want {
				t.Errorf("API reports %+v, want %+v", res.APIReports, want)
			}
			c := res.Corpus
			n := 0
			for _, s := range c.Sources {
				if s.Kind == knowledge.SourceAPILifecycle {
					n++
					if !strings.HasPrefix(s.Path, dir) || s.AsOf == "" {
						t.Errorf("source %+v", s)
					}
				}
			}
			if n != 21 || len(c.APITypes) != 230 {
				t.Errorf("%d API sources, %d API types", n, len(c.APITypes))
			}
			for _, s := range c.Skipped {
				if strings.Contains(s.Path, "api-lifecycle") {
					t.Errorf("skipped %+v: the folder's SOURCE.md is read by the folder's parser", s)
				}
			}
			if given == dir && res.Files != 1 {
				t.Errorf("%d files read, want the one folder", res.Files)
			}
		})
	}
}

// TestLoadAPILifecycleOdd: what the folder passes over is noted; a folder
// that only looks like one is a warning.
func TestLoadAPILifecycleOdd(t *testing.T) {
	reg := "package v1\nconst GroupName = \"example.k8s.io\"\nfunc addKnownTypes(scheme *runtime.Scheme) error {\n\tscheme.AddKnownTypes(SchemeGroupVersion,\n\t\t&Widget{},\n\t\t&WidgetList{},\n\t)\n\treturn nil\n}\n"
	dir := writeTree(t, map[string]string{
		"apis/SOURCE.md": "| release | module version | published |\n|---|---|---|\n| 1.30 | v0.30.1 | 2024-05-01 |\n",
		"apis/k8s.io-api/release-1.30/example/v1/register.go":   reg,
		"apis/k8s.io-api/release-1.30/example/v2/register.go":   "package v2\n",
		"apis/k8s.io-api/release-1.31/example/v1/README.md":     "no register.go",
		"broken/k8s.io-api/release-1.30/example/v1/register.go": "\x00",
	})
	res, err := Load([]string{filepath.Join(dir, "apis"), filepath.Join(dir, "broken")})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.APIReports) != 1 || res.APIReports[0].Types != 1 || res.APIReports[0].Releases != 1 || res.APIReports[0].Skipped != 2 {
		t.Errorf("API reports %+v", res.APIReports)
	}
	if res.Files != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Problem, "no API module release") {
		t.Errorf("%d files, warnings %v", res.Files, res.Warnings)
	}
	var notes []string
	for _, n := range res.Notes {
		notes = append(notes, strings.TrimPrefix(n.Path, dir))
	}
	want := []string{
		filepath.FromSlash("/apis/k8s.io-api/release-1.31"),
		filepath.FromSlash("/apis/k8s.io-api/release-1.30/example/v2"),
	}
	if strings.Join(notes, "|") != strings.Join(want, "|") {
		t.Errorf("notes %v, want %v", res.Notes, want)
	}
	if at := res.Corpus.APITypes; len(at) != 1 || at[0].Source != "k8s.io/api@v0.30.1" {
		t.Errorf("types %+v", at)
	}
}
