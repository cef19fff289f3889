package apilifecycle_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
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

// entry is one tar entry a test writes.
type entry struct {
	name string
	typ  byte // tar.TypeReg when 0
	body []byte
	link string
	size int64 // declared size when body is nil and size > 0 (written as zeros)
}

const (
	commit  = "0123456789abcdef0123456789abcdef01234567"
	archDay = "2026-10-28"
)

var archTime = time.Date(2026, 10, 28, 10, 11, 12, 0, time.UTC)

// tarGz writes entries as git archive does: a PAX global header with the
// commit when pax is true, every entry stamped with the commit's time.
func tarGz(t testing.TB, pax bool, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if pax {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header",
			PAXRecords: map[string]string{"comment": commit}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Typeflag: typ, Linkname: e.link, Mode: 0o644, ModTime: archTime, Format: tar.FormatPAX}
		if typ == tar.TypeReg {
			hdr.Size = int64(len(e.body))
			if e.body == nil {
				hdr.Size = e.size
			}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if e.body != nil {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		} else if e.size > 0 {
			if _, err := io.CopyN(tw, zeros{}, e.size); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// releaseEntries lists the files of one release folder of the shared data
// as tar entries under top (GitHub's api-0.37.2/), with its folders, and
// the same files as a MapFS.
func releaseEntries(t testing.TB, dir, top string, only ...string) ([]entry, fstest.MapFS) {
	t.Helper()
	entries := []entry{{name: top + "/", typ: tar.TypeDir}}
	mfs := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if len(only) > 0 {
			keep := false
			for _, o := range only {
				keep = keep || rel == o || strings.HasPrefix(rel, o+"/") || strings.HasPrefix(o, rel+"/")
			}
			if !keep {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
		}
		if d.IsDir() {
			entries = append(entries, entry{name: top + "/" + rel + "/", typ: tar.TypeDir})
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		entries = append(entries, entry{name: top + "/" + rel, body: data})
		mfs[rel] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries, mfs
}

// TestReadModuleTarGzShared: a tarball made of the shared data's 1.37
// release, in GitHub's layout with the module's other files around, reads
// as the folder does.
func TestReadModuleTarGzShared(t *testing.T) {
	dir := sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api", "release-1.37")
	entries, _ := releaseEntries(t, dir, "api-0.37.2")
	entries = append(entries,
		entry{name: "api-0.37.2/go.mod", body: []byte("module k8s.io/api\n")},
		entry{name: "api-0.37.2/.github/PULL_REQUEST_TEMPLATE.md", body: []byte("Sorry, we do not accept changes directly against this repository.\n")},
		entry{name: "api-0.37.2/testdata/HEAD/apps.v1.Deployment.json", body: []byte("{}")},
		entry{name: "api-0.37.2/core/v1/types.go", body: []byte("package v1\n")},
		entry{name: "api-0.37.2/core/v1/generated.pb.go", size: 1 << 20}, // not read
	)
	got, err := apilifecycle.ReadModuleTarGz(bytes.NewReader(tarGz(t, true, entries...)), "k8s.io/api", "v0.37.2")
	if err != nil {
		t.Fatal(err)
	}
	want, err := apilifecycle.ReadRelease(os.DirFS(dir), "k8s.io/api", v("1.37"), "v0.37.2")
	if err != nil {
		t.Fatal(err)
	}
	want.Commit, want.AsOf = commit, archDay // what git archive says of itself
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tarball vs folder (-folder +tarball):\n%s", diff)
	}
	if len(got.APIs) != 60 || len(got.Skipped) != 0 {
		t.Errorf("%d group/versions, skipped %v", len(got.APIs), got.Skipped)
	}
	src := got.Source()
	if src.ID != "k8s.io/api@v0.37.2" || src.URL != "https://github.com/kubernetes/api/tree/v0.37.2" || src.Commit != commit || src.AsOf != archDay {
		t.Errorf("source %+v", src)
	}

	// releases fetched apart merge as LoadDir merges them
	entries36, _ := releaseEntries(t, sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api", "release-1.36"), "api-0.36.6")
	got36, err := apilifecycle.ReadModuleTarGz(bytes.NewReader(tarGz(t, false, entries36...)), "k8s.io/api", "v0.36.6")
	if err != nil {
		t.Fatal(err)
	}
	if got36.AsOf != "" || got36.Commit != "" {
		t.Errorf("an archive git archive did not make is dated %q, commit %q", got36.AsOf, got36.Commit)
	}
	merged := apilifecycle.Merge([]*apilifecycle.Release{got, got36})
	for _, at := range merged {
		if at.API == ref("resource.k8s.io", "v1alpha3", "DeviceClass") {
			t.Errorf("DeviceClass v1alpha3 is in neither 1.36 nor 1.37: %+v", at)
		}
		if at.API == ref("scheduling.k8s.io", "v1alpha2", "Workload") && (at.First != v("1.36") || at.Last != v("1.36") || at.Source != "k8s.io/api@v0.36.6") {
			t.Errorf("Workload v1alpha2: %+v", at)
		}
	}
}

// TestReadModuleTarGzLayouts: the group folders may be at the top; what
// is not a package is passed over; a folder without register.go and a
// link where one should be are Skips.
func TestReadModuleTarGzLayouts(t *testing.T) {
	dir := sharedtest.Path(t, "data", "api-lifecycle", "k8s.io-api", "release-1.37")
	only := []string{"flowcontrol/v1beta1", "core/v1", "resource/v1alpha3"}
	entries, mfs := releaseEntries(t, dir, "x", only...)
	want, err := apilifecycle.ReadRelease(mfs, "k8s.io/api", v("1.37"), "v0.37.2")
	if err != nil {
		t.Fatal(err)
	}
	// no top folder, with and without folder entries (a group's first)
	var flat, files []entry
	for _, e := range entries {
		if e.name == "x/" {
			continue
		}
		e.name = strings.TrimPrefix(e.name, "x/")
		flat = append(flat, e)
		if e.typ != tar.TypeDir {
			files = append(files, e)
		}
	}
	for _, es := range [][]entry{flat, files} {
		got, err := apilifecycle.ReadModuleTarGz(bytes.NewReader(tarGz(t, false, es...)), "k8s.io/api", "v0.37.2")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("no top folder, first entry %s (-folder +tarball):\n%s", es[0].name, diff)
		}
	}

	odd := append(entries,
		entry{name: "x/apps/v1/", typ: tar.TypeDir}, // no register.go
		entry{name: "x/apps/v1/types.go", body: []byte("package v1\n")},
		entry{name: "x/batch/v1/register.go", typ: tar.TypeSymlink, link: "/etc/passwd"},
		entry{name: "x/batch/v2/register.go", typ: tar.TypeLink, link: "x/core/v1/register.go"},
		entry{name: "x/node/v1/register.go", body: []byte("\x00\x01")},
		entry{name: "x/rbac/v1/register.go", size: apilifecycle.MaxFileSize + 1},
		entry{name: "x/storage/v1/register.go", body: []byte(fmtRegister("storage.k8s.io", "v1", "StorageClass"))},
		entry{name: "x/storage/v1/zz_generated.prerelease-lifecycle.go", typ: tar.TypeSymlink, link: "../../core/v1/zz_generated.prerelease-lifecycle.go"},
		entry{name: "y/other/v1/register.go", body: []byte(fmtRegister("other.k8s.io", "v1", "Other"))}, // outside the top folder
	)
	got, err := apilifecycle.ReadModuleTarGz(bytes.NewReader(tarGz(t, false, odd...)), "k8s.io/api", "v0.37.2")
	if err != nil {
		t.Fatal(err)
	}
	var skips []string
	for _, s := range got.Skipped {
		skips = append(skips, s.Path+": "+s.Reason)
		if s.Source != "k8s.io/api@v0.37.2" {
			t.Errorf("skip %s: source %q", s.Path, s.Source)
		}
	}
	wantSkips := []string{
		"apps/v1: no register.go: no such file or folder",
		"batch/v1: register.go is a symbolic link to /etc/passwd; only regular files are read and links are never followed",
		"batch/v2: register.go is a hard link to x/core/v1/register.go; only regular files are read and links are never followed",
		"node/v1: register.go: the file is not UTF-8 text (binary data?); expected Go source",
		"rbac/v1: register.go: over a limit: 4194305 bytes, over the limit of 4194304; not read",
		"storage/v1/zz_generated.prerelease-lifecycle.go: zz_generated.prerelease-lifecycle.go is a symbolic link to ../../core/v1/zz_generated.prerelease-lifecycle.go; only regular files are read and links are never followed; the kinds are read without markers",
	}
	if diff := cmp.Diff(wantSkips, skips); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}
	var gvs []string
	for _, gv := range got.APIs {
		gvs = append(gvs, gv.Dir)
	}
	if diff := cmp.Diff([]string{"core/v1", "flowcontrol/v1beta1", "resource/v1alpha3", "storage/v1"}, gvs); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
}

func fmtRegister(group, version, kind string) string {
	return "package " + version + "\nconst GroupName = \"" + group + "\"\nvar SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: \"" + version +
		"\"}\nfunc addKnownTypes(scheme *runtime.Scheme) error {\n\tscheme.AddKnownTypes(SchemeGroupVersion,\n\t\t&" + kind + "{},\n\t\t&" + kind + "List{},\n\t)\n\treturn nil\n}\n"
}

func TestReadModuleTarGzRefuses(t *testing.T) {
	good := entry{name: "api-0.37.2/apps/v1/register.go", body: []byte(fmtRegister("apps", "v1", "Deployment"))}
	tests := []struct {
		name string
		data []byte
		tag  string
		lim  apilifecycle.TarLimits
		want error  // errors.Is, when set
		text string // in the message
	}{
		{"climbing name", tarGz(t, true, good, entry{name: "api-0.37.2/../../etc/cron.d/x", body: []byte("x")}), "v0.37.2", apilifecycle.TarLimits{}, apilifecycle.ErrUnsafePath, `".."`},
		{"climbing inside", tarGz(t, true, good, entry{name: "api-0.37.2/apps/../v1/register.go", body: []byte("x")}), "v0.37.2", apilifecycle.TarLimits{}, apilifecycle.ErrUnsafePath, `".."`},
		{"absolute name", tarGz(t, true, entry{name: "/etc/passwd", body: []byte("x")}), "v0.37.2", apilifecycle.TarLimits{}, apilifecycle.ErrUnsafePath, "absolute"},
		{"backslash", tarGz(t, true, entry{name: `api-0.37.2\..\x`, body: []byte("x")}), "v0.37.2", apilifecycle.TarLimits{}, apilifecycle.ErrUnsafePath, "backslash"},
		{"too many entries", tarGz(t, true, good, good, good, good), "v0.37.2", apilifecycle.TarLimits{MaxEntries: 3}, apilifecycle.ErrLimit, "entries"},
		{"too many bytes", tarGz(t, true, good, entry{name: "api-0.37.2/big", size: 8 << 20}), "v0.37.2", apilifecycle.TarLimits{MaxTotalBytes: 1 << 20}, apilifecycle.ErrLimit, "decompressed bytes"},
		{"too many files read", tarGz(t, true, good, good, good), "v0.37.2", apilifecycle.TarLimits{MaxReadBytes: int64(2*len(good.body) + 1)}, apilifecycle.ErrLimit, "together"},
		{"too many compressed bytes", tarGz(t, true, good, entry{name: "api-0.37.2/big", size: 8 << 20}), "v0.37.2", apilifecycle.TarLimits{MaxCompressedBytes: 1 << 10}, apilifecycle.ErrLimit, "compressed bytes"},
		{"another version", tarGz(t, true, good), "v0.36.1", apilifecycle.TarLimits{}, nil, "api-0.37.2 is of v0.37.2, not v0.36.1"},
		{"a bad tag", tarGz(t, true, good), "1.37", apilifecycle.TarLimits{}, apilifecycle.ErrBadTag, ""},
		{"a branch", tarGz(t, true, good), "release-1.37", apilifecycle.TarLimits{}, apilifecycle.ErrBadTag, ""},
		{"not gzip", []byte("PK\x03\x04 a zip file"), "v0.37.2", apilifecycle.TarLimits{}, nil, "not gzip"},
		{"empty stream", nil, "v0.37.2", apilifecycle.TarLimits{}, nil, "empty"},
		{"gzip of no tar", gz([]byte(strings.Repeat("hello ", 200))), "v0.37.2", apilifecycle.TarLimits{}, nil, "entry 1"},
		{"no package", tarGz(t, true, entry{name: "api-0.37.2/README.md", body: []byte("hi")}), "v0.37.2", apilifecycle.TarLimits{}, apilifecycle.ErrNoPackages, ""},
	}
	full := tarGz(t, true, good, entry{name: "api-0.37.2/apps/v2/register.go", body: []byte(fmtRegister("apps", "v2", "Deployment"))})
	for _, n := range []int{len(full) / 3, len(full) - 10} {
		tests = append(tests, struct {
			name string
			data []byte
			tag  string
			lim  apilifecycle.TarLimits
			want error
			text string
		}{"truncated", full[:n], "v0.37.2", apilifecycle.TarLimits{}, nil, ""})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := apilifecycle.ReadModuleTarGzLimits(bytes.NewReader(tt.data), "k8s.io/api", tt.tag, tt.lim)
			if err == nil {
				t.Fatalf("no error; read %+v", r)
			}
			t.Log(err)
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("err = %v, want it to say %q", err, tt.text)
			}
		})
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestReadModuleTarGzBomb: a stream that inflates without end stops at the
// limit, having read little.
func TestReadModuleTarGzBomb(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		zw := gzip.NewWriter(pw)
		tw := tar.NewWriter(zw)
		err := tw.WriteHeader(&tar.Header{Name: "api-0.37.2/x", Typeflag: tar.TypeReg, Size: 1 << 40, Mode: 0o644})
		if err == nil {
			_, err = io.CopyN(tw, zeros{}, 1<<40)
		}
		pw.CloseWithError(err)
	}()
	defer pr.Close()
	_, err := apilifecycle.ReadModuleTarGzLimits(pr, "k8s.io/api", "v0.37.2", apilifecycle.TarLimits{MaxTotalBytes: 4 << 20})
	if !errors.Is(err, apilifecycle.ErrLimit) {
		t.Errorf("err = %v, want a limit", err)
	}
}

// TestReleaseSourceUnknownTag: a release read without its tag still names
// its release for knowledge.APISourceRelease.
func TestReleaseSourceUnknownTag(t *testing.T) {
	r := &apilifecycle.Release{Module: "k8s.io/api", Release: v("1.38")}
	s := r.Source()
	want := knowledge.Source{ID: "k8s.io/api@v0.38", Name: "k8s.io/api (Kubernetes 1.38, module version unknown)",
		Kind: knowledge.SourceAPILifecycle, URL: "https://github.com/kubernetes/api/tree/release-1.38"}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("source (-want +got):\n%s", diff)
	}
	if got, ok := knowledge.APISourceRelease(s.ID); !ok || got != v("1.38") {
		t.Errorf("APISourceRelease(%q) = %v, %v", s.ID, got, ok)
	}
	for tag, want := range map[string]string{"v0.37.2": "1.37", "v0.37.0-rc.1": "1.37", "v1.37.2": "", "v0.37": "", "0.37.2": "", "v0.0.1": ""} {
		got, ok := apilifecycle.ReleaseOfTag(tag)
		if got.String() != want || ok != (want != "") {
			t.Errorf("ReleaseOfTag(%q) = %v, %v; want %q", tag, got, ok, want)
		}
	}
}
