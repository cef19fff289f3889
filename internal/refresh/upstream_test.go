package refresh

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/store"
)

// upstream is a fake of every source kepbot reads, over plain http on
// 127.0.0.1: the enhancements tarball, sig-release's releases folder and
// endoflife.date's two files, served from ../shared with ETags; a test
// may replace any path's answer (a fault) and reads the requests made.
type upstream struct {
	*httptest.Server
	mu     sync.Mutex
	files  map[string][]byte
	faults map[string]http.HandlerFunc
	reqs   map[string][]http.Header
}

// sharedUpstream serves ../shared as the real sources lay it out.
func sharedUpstream(t testing.TB) *upstream {
	t.Helper()
	root := sharedtest.Root(t)
	u := &upstream{files: map[string][]byte{}, faults: map[string]http.HandlerFunc{}, reqs: map[string][]http.Header{}}
	u.files["/enhancements.tar.gz"] = packDir(t, filepath.Join(root, "data", "enhancements"), "kubernetes-enhancements-64765b4")
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
	u.Server = httptest.NewServer(http.HandlerFunc(u.serve))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) serve(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	u.reqs[r.URL.Path] = append(u.reqs[r.URL.Path], r.Header.Clone())
	body, ok := u.files[r.URL.Path]
	fault := u.faults[r.URL.Path]
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

// set puts body at path (nil removes it).
func (u *upstream) set(path string, body []byte) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if body == nil {
		delete(u.files, path)
		return
	}
	u.files[path] = body
}

func (u *upstream) file(path string) []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.files[path]
}

// fault makes path answer with h until cleared (nil).
func (u *upstream) fault(path string, h http.HandlerFunc) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if h == nil {
		delete(u.faults, path)
		return
	}
	u.faults[path] = h
}

// requests returns the headers of every request made of path.
func (u *upstream) requests(path string) []http.Header {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]http.Header(nil), u.reqs[path]...)
}

// urls are the fake's URLs of every source.
func (u *upstream) urls() URLs {
	return URLs{Sync: u.URL + "/enhancements.tar.gz", Relnotes: u.URL + "/releases",
		Lifecycle: u.URL + "/lifecycle/kubernetes.md", Patches: u.URL + "/patches/kubernetes.json"}
}

// packDir packs dir as GitHub does: a PAX header naming the commit, one
// top folder, every entry stamped with the commit's time.
func packDir(t testing.TB, dir, top string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	at := time.Date(2026, 7, 24, 23, 57, 50, 0, time.UTC)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": "64765b4b02389318f2113119dd9e491479f978a0"}}))
	must(filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		name := filepath.ToSlash(filepath.Join(top, rel))
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
	}))
	must(tw.Close())
	must(zw.Close())
	return buf.Bytes()
}

// testClock is a clock a test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newRefresher is a Refresher over a new database and u, with clock.
func newRefresher(t testing.TB, u *upstream, clock *testClock, tune func(*Config)) (*Refresher, *store.KnowledgeStore) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kb.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := Config{Store: db.Knowledge(), URLs: u.urls(), AllowHosts: []string{"127.0.0.1"}, Now: clock.Now, Interval: time.Hour}
	cfg.Fetch.Timeout = 10 * time.Second
	if tune != nil {
		tune(&cfg)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, db.Knowledge()
}

// outcome finds the outcome of the source name in rep.
func outcome(t testing.TB, rep *Report, name string) Outcome {
	t.Helper()
	for _, o := range rep.Outcomes {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no outcome for %s in %s", name, lines(rep))
	return Outcome{}
}

func lines(rep *Report) string {
	var b strings.Builder
	for _, o := range rep.Outcomes {
		b.WriteString("\n  " + o.Line())
	}
	return b.String()
}
