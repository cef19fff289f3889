package sources_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/sources"
)

// TestFormatsAreWhole: every entry of the registry can be used by each
// path that ranges over it: a folder it tells is one it can read, a file
// it matches one it can read, a download one it can read from a URL that
// is https on a host of its own, and names are unique.
func TestFormatsAreWhole(t *testing.T) {
	names := map[string]bool{}
	defaults := map[string]string{}
	for _, f := range sources.Formats {
		if f.Name == "" || strings.Contains(f.Name, "/") || names[f.Name] {
			t.Errorf("format %q: a name must be given, unique and without /", f.Name)
		}
		names[f.Name] = true
		if (f.Tree == nil) != (f.ReadTree == nil) {
			t.Errorf("%s: Tree and ReadTree go together", f.Name)
		}
		if (f.Match == nil) != (f.Read == nil) {
			t.Errorf("%s: Match and Read go together", f.Name)
		}
		if f.Match != nil && f.Pick == nil {
			t.Errorf("%s: a file format needs Pick, or a walk never finds its files", f.Name)
		}
		if f.Tree == nil && f.Match == nil && f.Stream == nil {
			t.Errorf("%s: nothing reads it", f.Name)
		}
		r := f.Remote
		if r == nil {
			continue
		}
		if f.Stream == nil && f.Read == nil {
			t.Errorf("%s: a remote format needs Stream or Read", f.Name)
		}
		if u, err := url.Parse(r.Default); err != nil || u.Scheme != "https" || u.Host == "" {
			t.Errorf("%s: default URL %q is not https with a host", f.Name, r.Default)
		}
		if d, ok := defaults[r.Setting]; ok && d != r.Default {
			t.Errorf("%s: setting %q has two defaults, %q and %q", f.Name, r.Setting, d, r.Default)
		}
		defaults[r.Setting] = r.Default
		if (r.Each == sources.EachRelease) != (r.File != "") {
			t.Errorf("%s: File goes with EachRelease alone", f.Name)
		}
		if sources.Named(f.Name) == nil || sources.Named(f.Name).Name != f.Name {
			t.Errorf("Named(%q) does not find it", f.Name)
		}
	}
	if sources.Named("nothing") != nil {
		t.Error("Named finds a format that is not there")
	}
}

// TestSharedFolders: the snapshot's folders are the shared tree's, each
// there, in the registry's order.
func TestSharedFolders(t *testing.T) {
	root := sharedtest.Root(t)
	got := sources.Shared(root)
	want := []string{"seeds", "data/website", "data/enhancements", "data/sig-release", "data/lifecycle", "data/api-lifecycle", "data/feature-gates", "data/cves"}
	if len(got) != len(want) {
		t.Fatalf("Shared = %q, want the %d folders %q", got, len(want), want)
	}
	for i, w := range want {
		if got[i] != filepath.Join(root, filepath.FromSlash(w)) {
			t.Errorf("Shared[%d] = %q, want %s under the root", i, got[i], w)
		}
		if st, err := os.Stat(got[i]); err != nil || !st.IsDir() {
			t.Errorf("%s is not a folder of the shared tree: %v", got[i], err)
		}
	}
}
