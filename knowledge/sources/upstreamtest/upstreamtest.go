package upstreamtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/lifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// Upstream is a fake of every source kepbot reads, over plain http on
// 127.0.0.1: the enhancements tarball, sig-release's releases folder,
// endoflife.date's two files and kubernetes/api's tarballs (APIPath),
// served from ../shared with ETags; a path it does not hold answers 404 (an
// unpublished release or tag); a test may replace any path's answer (a
// fault, or FaultAll for every path at once) and reads the requests made.
type Upstream struct {
	*httptest.Server
	mu     sync.Mutex
	files  map[string][]byte
	faults map[string]http.HandlerFunc
	all    http.HandlerFunc // FaultAll's: answers every path
	reqs   map[string][]http.Header
	total  int
	// apiTags are the k8s.io/api tags served, by release.
	apiTags map[knowledge.Version]string
	// gates are the module proxy's zips and .info files served
	// (GatesPath), by path.
	gates map[string][]byte
	// vulns is the vulnerability database's module index (vulndb.go).
	vulns vulnIndex
}

// Shared serves ../shared as the real sources lay it out.
func Shared(t testing.TB) *Upstream {
	t.Helper()
	root := sharedtest.Root(t)
	u := &Upstream{files: map[string][]byte{}, faults: map[string]http.HandlerFunc{}, reqs: map[string][]http.Header{}}
	u.files["/enhancements.tar.gz"] = PackDir(t, filepath.Join(root, "data", "enhancements"), "kubernetes-enhancements-64765b4")
	rel := filepath.Join(root, "data", "sig-release", "releases")
	err := filepath.WalkDir(rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(rel, p)
		u.files["/releases/"+filepath.ToSlash(r)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ path, file string }{{"/lifecycle/kubernetes.md", "kubernetes.md"}, {"/patches/kubernetes.json", "kubernetes.json"}} {
		b, err := os.ReadFile(filepath.Join(root, "data", "lifecycle", f.file))
		if err != nil {
			t.Fatal(err)
		}
		u.files[f.path] = b
	}
	u.apiTags = map[knowledge.Version]string{}
	for _, tg := range apiTags(t, u.files["/lifecycle/kubernetes.md"]) {
		dir := filepath.Join(root, "data", "api-lifecycle", "k8s.io-api", "release-"+tg.release.String())
		if _, err := os.Stat(dir); err != nil {
			continue // no copy of that release: its tag is not published here
		}
		u.files[APIPath(tg.tag)] = PackAPIRelease(t, dir, tg.tag, tg.date)
		u.apiTags[tg.release] = tg.tag
	}
	u.gates = packGates(t, filepath.Join(root, "data", "feature-gates"))
	maps.Copy(u.files, u.gates)
	u.serveVulnDB(t, root)
	u.Server = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.Close)
	return u
}

func (u *Upstream) serve(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	u.reqs[r.URL.Path] = append(u.reqs[r.URL.Path], r.Header.Clone())
	u.total++
	body, ok := u.files[r.URL.Path]
	fault := u.faults[r.URL.Path]
	if u.all != nil {
		fault = u.all
	}
	u.mu.Unlock()
	if fault != nil {
		fault(w, r)
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write(body)
}

// Set puts body at path (nil removes it).
func (u *Upstream) Set(path string, body []byte) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if body == nil {
		delete(u.files, path)
		return
	}
	u.files[path] = body
}

func (u *Upstream) File(path string) []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.files[path]
}

// Fault makes path answer with h until cleared (nil).
func (u *Upstream) Fault(path string, h http.HandlerFunc) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if h == nil {
		delete(u.faults, path)
		return
	}
	u.faults[path] = h
}

// Requests returns the headers of every request made of path.
func (u *Upstream) Requests(path string) []http.Header {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]http.Header(nil), u.reqs[path]...)
}

// URLs are the fake's URLs of the sources: the tarball, the releases
// folder, the lifecycle file, the patch list and the folder of
// kubernetes/api's tarballs per tag.
type URLs struct{ Sync, Relnotes, Lifecycle, Patches, APILifecycle, FeatureGates, VulnDB string }

// URLs returns where each source is served.
func (u *Upstream) URLs() URLs {
	return URLs{Sync: u.URL + "/enhancements.tar.gz", Relnotes: u.URL + "/releases",
		Lifecycle: u.URL + "/lifecycle/kubernetes.md", Patches: u.URL + "/patches/kubernetes.json",
		APILifecycle: u.URL + apiFolder, FeatureGates: u.URL + proxyFolder, VulnDB: u.URL + VulnDBFolder}
}

// Env returns the variables that point `bot serve` and `bot sync` at u.
func (u *Upstream) Env() map[string]string {
	x := u.URLs()
	return map[string]string{"BOT_SYNC_URL": x.Sync, "BOT_RELNOTES_URL": x.Relnotes, "BOT_LIFECYCLE_URL": x.Lifecycle,
		"BOT_PATCHES_URL": x.Patches, "BOT_API_LIFECYCLE_URL": x.APILifecycle, "BOT_FEATURE_GATES_URL": x.FeatureGates,
		"BOT_VULNDB_URL": x.VulnDB, "BOT_SOURCES_ALLOW_HOSTS": "127.0.0.1"}
}

// apiFolder is where the fake serves kubernetes/api's tarballs, as GitHub
// does.
const apiFolder = "/api/archive/refs/tags"

// APIPath is the path of kubernetes/api's tarball at tag (v0.30.14).
func APIPath(tag string) string { return apiFolder + "/" + tag + ".tar.gz" }

// APITags returns the k8s.io/api tags served, by release: for each release
// of the api-lifecycle data that the lifecycle file names a latest patch
// of, that patch's tag (1.30.14 is v0.30.14).
func (u *Upstream) APITags() map[knowledge.Version]string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return maps.Clone(u.apiTags)
}

// APIGroups are the group folders of k8s.io/api the fake's tarballs hold:
// a few, so that they stay small, with types added, dropped and re-marked
// across releases (flowcontrol v1beta3 from 1.26 and v1 from 1.29,
// networking v1alpha1 gone in 1.34, resource v1 from 1.34, storagemigration
// v1beta1 from 1.35).
var APIGroups = []string{"flowcontrol", "networking", "resource", "storagemigration"}

type apiTag struct {
	release knowledge.Version
	tag     string
	date    time.Time
}

// apiTags reads the lifecycle file's latest patch of each release from 1.19.
func apiTags(t testing.TB, md []byte) []apiTag {
	t.Helper()
	c, _, err := lifecycle.ParseLifecycle("kubernetes.md", md, provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	var out []apiTag
	for _, l := range c.Lifecycles {
		patch, ok := strings.CutPrefix(l.Latest, l.Release.String()+".")
		if !ok || l.Release.Less(knowledge.Version{Major: 1, Minor: 19}) {
			continue
		}
		date, err := time.Parse(time.DateOnly, l.LatestDate)
		if err != nil {
			date = time.Date(2026, 7, 24, 0, 0, 0, 0, time.UTC)
		}
		out = append(out, apiTag{release: l.Release, tag: fmt.Sprintf("v0.%d.%s", l.Release.Minor, patch), date: date.Add(12 * time.Hour)})
	}
	return out
}

// PackAPIRelease packs the APIGroups folders of dir, one release of the
// api-lifecycle data (k8s.io-api/release-1.N), as GitHub's tarball of
// kubernetes/api at tag: a PAX header naming a commit made from the tag,
// one top folder api-0.N.P/, every entry stamped with at.
func PackAPIRelease(t testing.TB, dir, tag string, at time.Time) []byte {
	t.Helper()
	sum := sha256.Sum256([]byte("kubernetes/api " + tag))
	top := "api-" + strings.TrimPrefix(tag, "v")
	return packTarball(t, hex.EncodeToString(sum[:20]), func(tw *tar.Writer) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + "/", Mode: 0o755, ModTime: at}); err != nil {
			return err
		}
		for _, g := range APIGroups {
			gdir := filepath.Join(dir, g)
			if _, err := os.Stat(gdir); err != nil {
				continue // not in this release
			}
			if err := packTree(tw, dir, gdir, top, at); err != nil {
				return err
			}
		}
		return nil
	})
}

// PackDir packs dir as GitHub does: a PAX header naming the commit, one
// top folder (none when top is ""), every entry stamped with the commit's
// time.
func PackDir(t testing.TB, dir, top string) []byte {
	t.Helper()
	at := time.Date(2026, 7, 24, 23, 57, 50, 0, time.UTC)
	return packTarball(t, "64765b4b02389318f2113119dd9e491479f978a0", func(tw *tar.Writer) error {
		return packTree(tw, dir, dir, top, at)
	})
}

// packTarball is a gzipped tar as GitHub serves one: a PAX global header
// naming commit, then what write writes.
func packTarball(t testing.TB, commit string, write func(*tar.Writer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": commit}}))
	must(write(tw))
	must(tw.Close())
	must(zw.Close())
	return buf.Bytes()
}

// packTree writes root and everything below it into tw, each folder and
// file named top/ and its path relative to base (base itself, when root
// is base and top is "", is not written), stamped at.
func packTree(tw *tar.Writer, base, root, top string, at time.Time) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		name := filepath.ToSlash(filepath.Join(top, rel))
		if name == "." {
			return nil // no top folder: the tree's root is the archive's
		}
		if d.IsDir() {
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: 0o755, ModTime: at})
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: at}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
}
