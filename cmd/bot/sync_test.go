package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/x509"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
	"github.com/kepbot/kepbot/store"
)

// packEnhancements packs the shared kubernetes/enhancements folder as
// GitHub's tarball: every folder and file under one top folder. Entries
// whose repository path keep rejects are left out; extra adds entries at
// the end, after every good one.
func packEnhancements(t testing.TB, top string, keep func(rel string) bool, extra func(tw *tar.Writer) error) []byte {
	t.Helper()
	root := sharedtest.Path(t, "data", "enhancements")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	when := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + "/", Mode: 0o755, ModTime: when})
	if err == nil {
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == root {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if keep != nil && !keep(rel) {
				return nil
			}
			if d.IsDir() {
				return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + "/" + rel + "/", Mode: 0o755, ModTime: when})
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: top + "/" + rel, Mode: 0o644, Size: int64(len(data)), ModTime: when}); err != nil {
				return err
			}
			_, err = tw.Write(data)
			return err
		})
	}
	if err == nil && extra != nil {
		err = extra(tw)
	}
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var (
	goodTarOnce sync.Once
	goodTar     []byte
)

// goodTarball is the shared folder under kubernetes-enhancements-abc123/,
// built once per test binary.
func goodTarball(t testing.TB) []byte {
	t.Helper()
	sharedtest.Root(t)
	goodTarOnce.Do(func() { goodTar = packEnhancements(t, "kubernetes-enhancements-abc123", nil, nil) })
	return goodTar
}

// tarballServer serves a tarball over TLS with an ETag, answering 304 to a
// matching If-None-Match, unless a handler of the test's is set.
type tarballServer struct {
	*httptest.Server
	mu      sync.Mutex
	body    []byte
	etag    string
	handler http.HandlerFunc
	inm     []string // If-None-Match of each request
}

func newTarballServer(t testing.TB, body []byte, etag string) *tarballServer {
	ts := &tarballServer{body: body, etag: etag}
	ts.Server = httptest.NewTLSServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *tarballServer) serve(w http.ResponseWriter, r *http.Request) {
	ts.mu.Lock()
	ts.inm = append(ts.inm, r.Header.Get("If-None-Match"))
	body, etag, h := ts.body, ts.etag, ts.handler
	ts.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/x-gzip")
	w.Write(body)
}

func (ts *tarballServer) set(body []byte, etag string, h http.HandlerFunc) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.body, ts.etag, ts.handler = body, etag, h
}

func (ts *tarballServer) ifNoneMatch() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]string(nil), ts.inm...)
}

// command is `bot sync` allowed to reach ts (at 127.0.0.1) and trusting
// its certificate, with a clock that moves a minute a call, and waits
// between retries that return at once.
func (ts *tarballServer) command() syncCommand {
	pool := x509.NewCertPool()
	pool.AddCert(ts.Certificate())
	clock := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	return syncCommand{
		fetch: fetch.Options{AllowedHosts: []string{"127.0.0.1"}, LoopbackHosts: []string{"127.0.0.1"}, RootCAs: pool},
		now: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			clock = clock.Add(time.Minute)
			return clock
		},
		wait: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
}

// runCmd runs c with args and its own stdio.
func runCmd(t testing.TB, c syncCommand, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if !slices.Contains(args, "--from") && !slices.Contains(args, "--only") {
		args = append(args, "--only", "kep.yaml") // these tests serve kep.yaml alone
	}
	code = c.run(context.Background(), stdio{in: strings.NewReader(""), out: &out, err: &errb,
		getenv: func(string) string { return "" }}, args)
	return code, out.String(), errb.String()
}

func mustSync(t testing.TB, c syncCommand, args ...string) string {
	t.Helper()
	code, out, errs := runCmd(t, c, args...)
	if code != exitOK {
		t.Fatalf("sync %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errs)
	}
	return out
}

// dbState is what a sync may change, read in one open of the database.
type dbState struct {
	Info    store.Info
	Sync    store.SourceState // kep.yaml's
	Numbers []int
	KEP3866 *knowledge.KEP
	Gate    *knowledge.KEP
	Corpus  *knowledge.Corpus
}

func readState(t testing.TB, path string) dbState {
	t.Helper()
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, kb := context.Background(), db.Knowledge()
	var s dbState
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	s.Info, err = kb.Info(ctx)
	must(err)
	states, err := kb.SourceStates(ctx)
	must(err)
	s.Sync = states["kep.yaml"]
	keps, err := kb.ListKEPs(ctx)
	must(err)
	for _, k := range keps {
		s.Numbers = append(s.Numbers, k.Number)
	}
	s.KEP3866, err = kb.FindKEPByNumber(ctx, 3866)
	must(err)
	s.Gate, err = kb.FindKEPByGate(ctx, "nftablesproxymode")
	must(err)
	s.Corpus, err = kb.LoadCorpus(ctx)
	must(err)
	return s
}

func TestSyncFromServer(t *testing.T) {
	ts := newTarballServer(t, goodTarball(t), `"etag-1"`)
	c := ts.command()
	db := filepath.Join(t.TempDir(), "kb.db")
	url := ts.URL + "/repos/kubernetes/enhancements/tarball"

	out := mustSync(t, c, "--db", db, "--url", url)
	t.Log(out)
	for _, want := range []string{"Synced " + db + " (generation 2):", "kep.yaml: updated, 650 KEPs from 656 kep.yaml files (commit abc123)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	first := readState(t, db)
	if n := len(first.Numbers); n < 600 {
		t.Errorf("%d KEPs after the first sync; want 600 or more", n)
	}
	want := store.SourceState{URL: url, ETag: `"etag-1"`, Commit: "abc123", IDs: []string{"kubernetes/enhancements"},
		Checked: first.Sync.Checked, Succeeded: first.Sync.Checked, Changed: first.Sync.Checked, Result: "updated"}
	if diff := cmp.Diff(want, first.Sync); diff != "" || first.Sync.Checked.IsZero() {
		t.Errorf("sync state (-want +got):\n%s", diff)
	}
	if first.KEP3866.Title == "" || first.KEP3866.Source == "" || first.Gate.Number != 3866 {
		t.Errorf("KEP-3866 %q from %q, gate owner KEP-%d", first.KEP3866.Title, first.KEP3866.Source, first.Gate.Number)
	}

	// Nothing new: a 304, the check recorded, the knowledge untouched.
	code, out, errs := runCmd(t, c, "--db", db, "--url", url)
	if code != exitOK || !strings.Contains(out, "Up to date: nothing new in "+db+".\n  kep.yaml: not modified (commit abc123)") {
		t.Fatalf("second sync: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if inm := ts.ifNoneMatch(); len(inm) != 2 || inm[0] != "" || inm[1] != `"etag-1"` {
		t.Errorf("If-None-Match sent: %q; want none, then the stored ETag", inm)
	}
	second := readState(t, db)
	if !second.Sync.Checked.After(first.Sync.Checked) || !second.Sync.Changed.Equal(first.Sync.Changed) || second.Sync.Result != "not modified" {
		t.Errorf("after a 304: checked %v (was %v), changed %v (was %v), result %q", second.Sync.Checked, first.Sync.Checked, second.Sync.Changed, first.Sync.Changed, second.Sync.Result)
	}
	second.Sync = first.Sync
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("a 304 changed the knowledge (-before +after):\n%s", diff)
	}

	// A new tarball: one KEP fewer, a new commit and ETag.
	changed := packEnhancements(t, "kubernetes-enhancements-def4567", func(rel string) bool {
		return !strings.HasPrefix(rel, "keps/sig-node/4639-oci-volume-source")
	}, nil)
	ts.set(changed, `"etag-2"`, nil)
	out = mustSync(t, c, "--db", db, "--url", url)
	third := readState(t, db)
	if third.Sync.Commit != "def4567" || third.Sync.ETag != `"etag-2"` || !third.Info.Replaced.After(first.Info.Replaced) {
		t.Errorf("after a change: state %+v, replaced %v (was %v)\n%s", third.Sync, third.Info.Replaced, first.Info.Replaced, out)
	}
	kb := openForTest(t, db)
	k, err := kb.Knowledge().FindKEPByNumber(context.Background(), 4639)
	kb.Close()
	if err == nil && k.Source != "" {
		t.Errorf("KEP-4639 still comes from kep.yaml (%q) after its file left the tarball", k.Source)
	}
}

func openForTest(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path, store.Options{Timeout: lockTimeout})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestSyncKeepsTheOtherSources syncs a database filled from the release
// notes and kep.yaml with its corpus kept: the notes' mentions, releases and
// sources must survive the swap of kep.yaml.
func TestSyncKeepsTheOtherSources(t *testing.T) {
	res, err := ingest.Load([]string{sharedtest.Path(t, "seeds"), sharedtest.Path(t, "data", "enhancements")})
	if err != nil {
		t.Fatal(err)
	}
	k := knowledge.Compile(res.Corpus)
	k.Corpus = res.Corpus
	path := filepath.Join(t.TempDir(), "kb.db")
	db := openForTest(t, path)
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := readState(t, path)

	ts := newTarballServer(t, goodTarball(t), `"e"`)
	out := mustSync(t, ts.command(), "--db", path, "--url", ts.URL+"/t")
	if !strings.Contains(out, "kep.yaml: updated") {
		t.Errorf("report:\n%s", out)
	}
	after := readState(t, path)
	if diff := cmp.Diff(before.KEP3866.History, after.KEP3866.History); diff != "" {
		t.Errorf("KEP-3866's mentions changed (-before +after):\n%s", diff)
	}
	if len(after.KEP3866.History) == 0 || after.KEP3866.History[0].Text == "" {
		t.Errorf("KEP-3866 lost the notes' words: %+v", after.KEP3866.History)
	}
	var kinds []knowledge.SourceKind
	for _, s := range after.Info.Sources {
		kinds = append(kinds, s.Kind)
	}
	if len(after.Info.Sources) != len(before.Info.Sources) || after.Info.Stats.Mentions != before.Info.Stats.Mentions ||
		after.Info.Stats.Releases != before.Info.Stats.Releases || after.Info.Stats.Notices != before.Info.Stats.Notices {
		t.Errorf("stats %+v (sources %v); want the mentions, releases and notices of %+v kept", after.Info.Stats, kinds, before.Info.Stats)
	}
	if diff := cmp.Diff(before.Corpus.Mentions, after.Corpus.Mentions); diff != "" {
		t.Errorf("the corpus's mentions changed (-before +after):\n%s", diff)
	}
}

// TestSyncRefusesAnOldIngest: a database filled by an ingest that kept no
// corpus cannot be synced without losing its documents.
func TestSyncRefusesAnOldIngest(t *testing.T) {
	res, err := ingest.Load([]string{sharedtest.Path(t, "seeds")})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kb.db")
	db := openForTest(t, path)
	if err := db.Knowledge().ReplaceKnowledge(context.Background(), knowledge.Compile(res.Corpus)); err != nil {
		t.Fatal(err)
	}
	before, _ := db.Knowledge().Info(context.Background())
	db.Close()

	ts := newTarballServer(t, goodTarball(t), `"e"`)
	code, _, errs := runCmd(t, ts.command(), "--db", path, "--url", ts.URL+"/t")
	if code != exitBadInput || !strings.Contains(errs, "re-run `bot ingest` with your sources, then `bot sync`; the database was not changed.") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	db = openForTest(t, path)
	defer db.Close()
	after, _ := db.Knowledge().Info(context.Background())
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("info changed (-before +after):\n%s", diff)
	}
}

func TestSyncFromLocalCopies(t *testing.T) {
	dir := sharedtest.Path(t, "data", "enhancements")
	c := syncCommand{}
	path := filepath.Join(t.TempDir(), "kb.db")
	out := mustSync(t, c, "--db", path, "--from", dir)
	st := readState(t, path)
	if !strings.HasPrefix(out, "Synced "+path+" (generation ") || st.Sync.URL != "file://"+filepath.ToSlash(dir) || st.Sync.ETag != "" ||
		st.Sync.Commit != "64765b4b02389318f2113119dd9e491479f978a0" {
		t.Errorf("from a folder: state %+v\n%s", st.Sync, out)
	}
	if len(st.Numbers) < 600 {
		t.Errorf("%d KEPs; want 600 or more", len(st.Numbers))
	}

	file := filepath.Join(t.TempDir(), "enhancements.tar.gz")
	if err := os.WriteFile(file, goodTarball(t), 0o600); err != nil {
		t.Fatal(err)
	}
	mustSync(t, c, "--db", path, "--from", file)
	if st := readState(t, path); st.Sync.Commit != "abc123" || st.Sync.URL != "file://"+filepath.ToSlash(file) {
		t.Errorf("from a file: state %+v", st.Sync)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--from", filepath.Join(dir, "missing")}, exitBadInput, "no such file"},
		{[]string{"--from", filepath.Join(dir, "LICENSE")}, exitBadInput, "was refused: read kep.yaml tarball: not gzip data"},
		{[]string{"--from", dir, "--url", "https://github.com/x"}, exitBadInput, "give it without --url or --only"},
		{[]string{"extra"}, exitBadInput, `unexpected "extra"`},
		{[]string{"--timeout", "soon"}, exitBadInput, "invalid value"},
		{[]string{"--only", "kep.yml"}, exitBadInput, `--only: "kep.yml" is not a source; give kep.yaml, release-notes`},
	} {
		code, _, errs := runCmd(t, c, append([]string{"--db", path}, tc.args...)...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("sync %v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

// BenchmarkSyncNothingNew is the 304 path: open the database for the ETag,
// ask the server, record the check. Goal: under 200 ms.
func BenchmarkSyncNothingNew(b *testing.B) {
	ts := newTarballServer(b, goodTarball(b), `"e"`)
	c := ts.command()
	path := filepath.Join(b.TempDir(), "kb.db")
	mustSync(b, c, "--db", path, "--url", ts.URL+"/t")
	for b.Loop() {
		if code, out, _ := runCmd(b, c, "--db", path, "--url", ts.URL+"/t"); code != exitOK || !strings.HasPrefix(out, "Up to date") {
			b.Fatalf("exit %d: %s", code, out)
		}
	}
}

// BenchmarkSyncFromDir is a whole sync from the shared folder: read 656
// kep.yaml, compile with the stored corpus, replace.
func BenchmarkSyncFromDir(b *testing.B) {
	dir := sharedtest.Path(b, "data", "enhancements")
	path := filepath.Join(b.TempDir(), "kb.db")
	mustSync(b, syncCommand{}, "--db", path, "--from", dir)
	for b.Loop() {
		mustSync(b, syncCommand{}, "--db", path, "--from", dir)
	}
}
