package apilifecycle_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
)

var v = knowledge.MustVersion

func ref(group, version, kind string) knowledge.APIRef {
	return knowledge.APIRef{Group: group, Version: version, Kind: kind}
}

// typeOf returns the APIType of group/version kind in c, failing the test
// when there is none.
func typeOf(t *testing.T, c *knowledge.Corpus, group, version, kind string) knowledge.APIType {
	t.Helper()
	for _, at := range c.APITypes {
		if at.API == ref(group, version, kind) {
			return at
		}
	}
	t.Fatalf("no API type %s", ref(group, version, kind))
	return knowledge.APIType{}
}

func loadShared(t testing.TB) (string, *knowledge.Corpus) {
	t.Helper()
	dir := sharedtest.Path(t, "data", "api-lifecycle")
	c, err := apilifecycle.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, c
}

// TestLoadDirShared checks values against what the files of
// ../shared/data/api-lifecycle say (each want below was read from the raw
// files).
func TestLoadDirShared(t *testing.T) {
	dir, c := loadShared(t)
	if len(c.Skipped) != 0 {
		t.Errorf("skipped %v; want nothing", c.Skipped)
	}
	if len(c.Sources) != 21 {
		t.Errorf("%d sources, want 19 releases of k8s.io/api and the two other modules", len(c.Sources))
	}
	if len(c.APITypes) != 230 {
		t.Errorf("%d API types, want 230", len(c.APITypes))
	}

	api := "k8s.io/api@v0.37.2"
	want := []knowledge.APIType{
		// flowcontrol v1beta1: the replacement is the newest release's
		// (1.26 on says v1beta3; 1.23 to 1.25 said v1beta2, 1.20 to 1.22 none)
		{API: ref("flowcontrol.apiserver.k8s.io", "v1beta1", "FlowSchema"), First: v("1.20"), Last: v("1.37"),
			Introduced: v("1.20"), Deprecated: v("1.23"), Removed: v("1.26"),
			Replacement: &knowledge.APIRef{Group: "flowcontrol.apiserver.k8s.io", Version: "v1beta3", Kind: "FlowSchema"},
			MarkedIn:    v("1.37"), Source: api},
		// markers only from 1.32 on
		{API: ref("admissionregistration.k8s.io", "v1alpha1", "ValidatingAdmissionPolicy"), First: v("1.26"), Last: v("1.37"),
			Introduced: v("1.26"), Deprecated: v("1.29"), Removed: v("1.32"), MarkedIn: v("1.37"), Source: api},
		// gone from 1.34: the markers are 1.33's
		{API: ref("resource.k8s.io", "v1alpha3", "DeviceClass"), First: v("1.31"), Last: v("1.33"),
			Introduced: v("1.31"), Deprecated: v("1.34"), Removed: v("1.37"),
			Replacement: &knowledge.APIRef{Group: "resource.k8s.io", Version: "v1beta1", Kind: "DeviceClass"},
			MarkedIn:    v("1.33"), Source: "k8s.io/api@v0.33.13"},
		// 1.19 and 1.20 said deprecated in 1.22; 1.21 on say 1.21
		{API: ref("policy", "v1beta1", "PodSecurityPolicy"), First: v("1.19"), Last: v("1.28"),
			Introduced: v("1.10"), Deprecated: v("1.21"), Removed: v("1.25"), MarkedIn: v("1.28"), Source: "k8s.io/api@v0.28.15"},
		// core/v1 has markers (introduced only) from 1.31 on
		{API: ref("", "v1", "Pod"), First: v("1.19"), Last: v("1.37"), Introduced: v("1.0"), MarkedIn: v("1.37"), Source: api},
		// registered, never marked
		{API: ref("", "v1", "ComponentStatus"), First: v("1.19"), Last: v("1.37"), Source: api},
		{API: ref("", "v1", "EphemeralContainers"), First: v("1.19"), Last: v("1.21"), Source: "k8s.io/api@v0.21.14"},
		{API: ref("apiextensions.k8s.io", "v1beta1", "CustomResourceDefinition"), First: v("1.37"), Last: v("1.37"),
			Introduced: v("1.7"), Deprecated: v("1.16"), Removed: v("1.22"),
			Replacement: &knowledge.APIRef{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
			MarkedIn:    v("1.37"), Source: "k8s.io/apiextensions-apiserver@v0.37.2"},
		{API: ref("apiregistration.k8s.io", "v1beta1", "APIService"), First: v("1.37"), Last: v("1.37"),
			Introduced: v("1.7"), Deprecated: v("1.19"), Removed: v("1.22"),
			Replacement: &knowledge.APIRef{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"},
			MarkedIn:    v("1.37"), Source: "k8s.io/kube-aggregator@v0.37.2"},
	}
	for _, w := range want {
		got := typeOf(t, c, w.API.Group, w.API.Version, w.API.Kind)
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", w.API, diff)
		}
	}

	// list types are not objects people write; the core group's List is no
	// list of a List kind, and stays
	for _, at := range c.APITypes {
		if base, ok := strings.CutSuffix(at.API.Kind, "List"); ok && base != "" {
			t.Errorf("list type %s read", at.API)
		}
		if at.API.Kind == "Status" {
			t.Errorf("%s read: metav1.Status is not the package's kind", at.API)
		}
	}
	typeOf(t, c, "", "v1", "List")

	// sorted by group, version, kind
	for i := 1; i < len(c.APITypes); i++ {
		a, b := c.APITypes[i-1].API, c.APITypes[i].API
		if a.Group > b.Group || a.Group == b.Group && (a.Version > b.Version || a.Version == b.Version && a.Kind >= b.Kind) {
			t.Errorf("%s before %s", a, b)
		}
	}

	// the sources: as-of dates from SOURCE.md's table
	byID := map[string]knowledge.Source{}
	for _, s := range c.Sources {
		byID[s.ID] = s
		if s.Kind != knowledge.SourceAPILifecycle || s.Lang != "" || s.AsOf == "" {
			t.Errorf("source %+v", s)
		}
		if _, ok := knowledge.APISourceRelease(s.ID); !ok {
			t.Errorf("APISourceRelease(%q) fails", s.ID)
		}
		if _, err := os.Stat(filepath.Join(s.Path, "core")); err != nil && strings.HasPrefix(s.ID, "k8s.io/api@") {
			t.Errorf("source %s: path %q is not the release folder", s.ID, s.Path)
		}
	}
	wantSources := map[string]knowledge.Source{
		"k8s.io/api@v0.25.16": {ID: "k8s.io/api@v0.25.16", Name: "k8s.io/api v0.25.16 (Kubernetes 1.25)", Kind: knowledge.SourceAPILifecycle,
			AsOf: "2023-11-16", Path: filepath.Join(dir, "k8s.io-api", "release-1.25"), URL: "https://github.com/kubernetes/api/tree/v0.25.16"},
		"k8s.io/api@v0.37.2": {ID: "k8s.io/api@v0.37.2", Name: "k8s.io/api v0.37.2 (Kubernetes 1.37)", Kind: knowledge.SourceAPILifecycle,
			AsOf: "2026-10-28", Path: filepath.Join(dir, "k8s.io-api", "release-1.37"), URL: "https://github.com/kubernetes/api/tree/v0.37.2"},
		"k8s.io/apiextensions-apiserver@v0.37.2": {ID: "k8s.io/apiextensions-apiserver@v0.37.2", Name: "k8s.io/apiextensions-apiserver v0.37.2 (Kubernetes 1.37)",
			Kind: knowledge.SourceAPILifecycle, AsOf: "2026-10-28", Path: filepath.Join(dir, "apiextensions-apiserver", "release-1.37"),
			URL: "https://github.com/kubernetes/apiextensions-apiserver/tree/v0.37.2"},
		"k8s.io/kube-aggregator@v0.37.2": {ID: "k8s.io/kube-aggregator@v0.37.2", Name: "k8s.io/kube-aggregator v0.37.2 (Kubernetes 1.37)",
			Kind: knowledge.SourceAPILifecycle, AsOf: "2026-10-28", Path: filepath.Join(dir, "kube-aggregator", "release-1.37"),
			URL: "https://github.com/kubernetes/kube-aggregator/tree/v0.37.2"},
		"k8s.io/api@v0.19.16": {ID: "k8s.io/api@v0.19.16", Name: "k8s.io/api v0.19.16 (Kubernetes 1.19)", Kind: knowledge.SourceAPILifecycle,
			AsOf: "2021-10-28", Path: filepath.Join(dir, "k8s.io-api", "release-1.19"), URL: "https://github.com/kubernetes/api/tree/v0.19.16"},
	}
	for id, w := range wantSources {
		if diff := cmp.Diff(w, byID[id]); diff != "" {
			t.Errorf("source %s (-want +got):\n%s", id, diff)
		}
	}
	// oldest first
	for i := 1; i < len(c.Sources); i++ {
		a, _ := knowledge.APISourceRelease(c.Sources[i-1].ID)
		b, _ := knowledge.APISourceRelease(c.Sources[i].ID)
		if b.Less(a) {
			t.Errorf("source %s after %s", c.Sources[i].ID, c.Sources[i-1].ID)
		}
	}
}

// TestLoadDirIgnoresFileTimes: a copy of the tree whose files all have
// other modification times reads the same.
func TestLoadDirIgnoresFileTimes(t *testing.T) {
	dir, want := loadShared(t)
	cp := filepath.Join(t.TempDir(), "api-lifecycle")
	i := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		dst := filepath.Join(cp, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
		i++
		when := time.Date(1999+i%40, time.Month(1+i%12), 1+i%28, i%24, 0, 0, 0, time.UTC)
		return os.Chtimes(dst, when, when)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := apilifecycle.LoadDir(cp)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got.Sources {
		got.Sources[i].Path = strings.Replace(got.Sources[i].Path, cp, dir, 1)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("copy with other file times (-orig +copy):\n%s", diff)
	}
	// and twice the same, to the byte
	again, _ := apilifecycle.LoadDir(dir)
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("two reads of the same folder differ")
	}
}

const (
	registerTmpl = `package %s

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const GroupName = "example.k8s.io"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "%s"}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&Widget{},
		&WidgetList{},
	)
	return nil
}
`
	markersTmpl = `package %s

import (
	schema "k8s.io/apimachinery/pkg/runtime/schema"
)

func (in *Widget) APILifecycleIntroduced() (major, minor int) {
	return 1, %d
}

func (in *Widget) APILifecycleRemoved() (major, minor int) {
	return 1, %d
}

func (in *Widget) APILifecycleReplacement() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "example.k8s.io", Version: "v1", Kind: "Widget"}
}
`
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s), Mode: 0o644} }

// TestLoadFSOddTrees: what cannot be read is a Skip, the rest is read; a
// release SOURCE.md does not version is read with its tag unknown.
func TestLoadFSOddTrees(t *testing.T) {
	fsys := fstest.MapFS{
		"SOURCE.md": file("| release | module version | published |\n|---|---|---|\n" +
			"| 1.30 | v0.30.1 | 2024-05-01 |\n| 1.31 | v0.30.9 | 2024-09-01 |\n" +
			"and `k8s.io/kube-aggregator` v0.30.1 too.\n"),
		"k8s.io-api/release-1.30/example/v1beta1/register.go":                          file(fmt.Sprintf(registerTmpl, "v1beta1", "v1beta1")),
		"k8s.io-api/release-1.30/example/v1beta1/zz_generated.prerelease-lifecycle.go": file(fmt.Sprintf(markersTmpl, "v1beta1", 30, 36)),
		"k8s.io-api/release-1.30/example/v1/register.go":                               file(fmt.Sprintf(registerTmpl, "v1", "v1")),
		"k8s.io-api/release-1.30/example/v1/zz_generated.prerelease-lifecycle.go":      file("package v1\n\nfunc (in *Widget) APILifecycleIntroduced() (major, minor int) {\n\treturn x, y\n}\n"),
		"k8s.io-api/release-1.30/example/v2/types.go":                                  file("package v2\n"),
		"k8s.io-api/release-1.30/example/v3/register.go":                               file("\x00\x01binary"),
		"k8s.io-api/release-1.30/example/v4/register.go":                               file(fmt.Sprintf(registerTmpl, "v4", "v5")),
		"k8s.io-api/release-1.30/example/testdata/register.go":                         file("not a version folder: passed over"),
		"k8s.io-api/release-1.31/example/v1beta1/register.go":                          file(fmt.Sprintf(registerTmpl, "v1beta1", "v1beta1")),
		"k8s.io-api/release-1.32/example/v1beta1/register.go":                          file(fmt.Sprintf(registerTmpl, "v1beta1", "v1beta1")),
		"k8s.io-api/release-1.32/example/v1beta1/zz_generated.prerelease-lifecycle.go": file(fmt.Sprintf(markersTmpl, "v1beta1", 31, 37)),
		"k8s.io-api/release-1.33/example/v1/notes.txt":                                 file("no register.go here"),
		"k8s.io-api/notes/README.md":                                                   file("not a release"),
		"kube-aggregator/release-1.30/example/v1/register.go":                          file(strings.ReplaceAll(fmt.Sprintf(registerTmpl, "v1", "v1"), "Widget", "Gadget")),
		"other/README.md": file("not a module"),
	}
	c, err := apilifecycle.LoadFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range c.Sources {
		ids = append(ids, s.ID+" "+s.AsOf+" "+s.URL)
	}
	wantIDs := []string{
		"k8s.io/api@v0.30.1 2024-05-01 https://github.com/kubernetes/api/tree/v0.30.1",
		"k8s.io/kube-aggregator@v0.30.1 2024-05-01 https://github.com/kubernetes/kube-aggregator/tree/v0.30.1",
		// 1.31's row gives a 1.30 tag: not used
		"k8s.io/api@v0.31  https://github.com/kubernetes/api/tree/release-1.31",
		"k8s.io/api@v0.32  https://github.com/kubernetes/api/tree/release-1.32",
	}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	for _, s := range c.Sources {
		if r, ok := knowledge.APISourceRelease(s.ID); !ok || r.Minor < 30 || r.Minor > 32 {
			t.Errorf("APISourceRelease(%q) = %v, %v", s.ID, r, ok)
		}
	}
	if c.Sources[2].Name != "k8s.io/api (Kubernetes 1.31, module version unknown)" {
		t.Errorf("name %q", c.Sources[2].Name)
	}
	var skips []string
	for _, s := range c.Skipped {
		skips = append(skips, s.Path+" ["+s.Source+"]")
	}
	wantSkips := []string{
		"SOURCE.md []",
		"k8s.io-api/notes []",
		"k8s.io-api/release-1.33 [k8s.io/api@v0.33]",
		"k8s.io-api/release-1.30/example/v1/zz_generated.prerelease-lifecycle.go [k8s.io/api@v0.30.1]",
		"k8s.io-api/release-1.30/example/v2 [k8s.io/api@v0.30.1]",
		"k8s.io-api/release-1.30/example/v3 [k8s.io/api@v0.30.1]",
		"k8s.io-api/release-1.30/example/v4 [k8s.io/api@v0.30.1]",
	}
	if diff := cmp.Diff(wantSkips, skips); diff != "" {
		t.Errorf("skips (-want +got):\n%s\n%v", diff, c.Skipped)
	}
	for _, s := range c.Skipped {
		if s.Reason == "" {
			t.Errorf("skip %s without a reason", s.Path)
		}
	}
	want := []knowledge.APIType{
		{API: ref("example.k8s.io", "v1", "Gadget"), First: v("1.30"), Last: v("1.30"), Source: "k8s.io/kube-aggregator@v0.30.1"},
		// its markers file does not parse: read without markers
		{API: ref("example.k8s.io", "v1", "Widget"), First: v("1.30"), Last: v("1.30"), Source: "k8s.io/api@v0.30.1"},
		// 1.31 has no markers; 1.32's win over 1.30's
		{API: ref("example.k8s.io", "v1beta1", "Widget"), First: v("1.30"), Last: v("1.32"),
			Introduced: v("1.31"), Removed: v("1.37"), Replacement: &knowledge.APIRef{Group: "example.k8s.io", Version: "v1", Kind: "Widget"},
			MarkedIn: v("1.32"), Source: "k8s.io/api@v0.32"},
	}
	if diff := cmp.Diff(want, c.APITypes); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
}

func TestLoadFSNothing(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"empty":        {},
		"no module":    {"docs/README.md": file("hello")},
		"all unusable": {"k8s.io-api/release-1.30/example/v1/register.go": file("")},
	} {
		if _, err := apilifecycle.LoadFS(fsys); !errors.Is(err, apilifecycle.ErrNoTree) {
			t.Errorf("%s: err = %v, want ErrNoTree", name, err)
		}
	}
	if _, err := apilifecycle.LoadDir(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("LoadDir of a missing folder did not fail")
	}
}

// TestLoadDirRefusesLinks: a register.go that is a symbolic link is not
// followed.
func TestLoadDirRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "register.go")
	if err := os.WriteFile(outside, []byte(fmt.Sprintf(registerTmpl, "v1", "v1")), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "k8s.io-api", "release-1.30", "example", "v1")
	linked := filepath.Join(dir, "k8s.io-api", "release-1.30", "example", "v2")
	for _, d := range []string{good, linked} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(good, "register.go"), []byte(fmt.Sprintf(registerTmpl, "v1", "v1")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(linked, "register.go")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if !apilifecycle.IsTree(dir) {
		t.Error("IsTree = false")
	}
	c, err := apilifecycle.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0].Reason, "symbolic link") || c.Skipped[0].Path != "k8s.io-api/release-1.30/example/v2" {
		t.Errorf("skipped %+v", c.Skipped)
	}
	if len(c.APITypes) != 1 || c.APITypes[0].API.Version != "v1" {
		t.Errorf("types %+v", c.APITypes)
	}
}

func TestIsTree(t *testing.T) {
	if apilifecycle.IsTree(t.TempDir()) {
		t.Error("an empty folder is a tree")
	}
	dir := sharedtest.Path(t, "data", "api-lifecycle")
	if !apilifecycle.IsTree(dir) {
		t.Error("the shared data is not a tree")
	}
	if apilifecycle.IsTree(filepath.Dir(dir)) {
		t.Error("the data's parent is a tree")
	}
}

func TestMerge(t *testing.T) {
	gv := func(kinds []string, marks map[string]apilifecycle.Markers) []apilifecycle.GroupVersion {
		return []apilifecycle.GroupVersion{{Group: "g.io", Version: "v1beta1", Kinds: kinds, Markers: marks}}
	}
	m := func(intro, removed string) apilifecycle.Markers {
		return apilifecycle.Markers{Introduced: v(intro), Removed: v(removed)}
	}
	rs := []*apilifecycle.Release{
		{Module: "k8s.io/api", Tag: "v0.33.1", Release: v("1.33"), APIs: gv([]string{"A"}, nil)},
		{Module: "k8s.io/api", Tag: "v0.30.1", Release: v("1.30"), APIs: gv([]string{"A", "B"}, map[string]apilifecycle.Markers{"A": m("1.30", "1.36"), "B": m("1.30", "1.33")})},
		nil,
		{Module: "k8s.io/api", Tag: "v0.31.1", Release: v("1.31"), APIs: gv([]string{"A", "B"}, map[string]apilifecycle.Markers{"A": m("1.30", "1.37")})},
		{Module: "k8s.io/api", Tag: "v0.32.1", Release: v("1.32"), APIs: gv([]string{"A", "C"}, nil)},
	}
	want := []knowledge.APIType{
		{API: ref("g.io", "v1beta1", "A"), First: v("1.30"), Last: v("1.33"), Introduced: v("1.30"), Removed: v("1.37"), MarkedIn: v("1.31"), Source: "k8s.io/api@v0.31.1"},
		{API: ref("g.io", "v1beta1", "B"), First: v("1.30"), Last: v("1.31"), Introduced: v("1.30"), Removed: v("1.33"), MarkedIn: v("1.30"), Source: "k8s.io/api@v0.30.1"},
		{API: ref("g.io", "v1beta1", "C"), First: v("1.32"), Last: v("1.32"), Source: "k8s.io/api@v0.32.1"},
	}
	if diff := cmp.Diff(want, apilifecycle.Merge(rs)); diff != "" {
		t.Errorf("Merge (-want +got):\n%s", diff)
	}
	// the order given does not matter
	rev := []*apilifecycle.Release{rs[4], rs[3], rs[1], rs[0]}
	if diff := cmp.Diff(want, apilifecycle.Merge(rev)); diff != "" {
		t.Errorf("Merge, reversed (-want +got):\n%s", diff)
	}
	if got := apilifecycle.Merge(nil); len(got) != 0 {
		t.Errorf("Merge(nil) = %v", got)
	}
}
