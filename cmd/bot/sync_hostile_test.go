package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// withEntries is the good tarball followed by hdrs (each with its data, if
// any): a whole good archive that one bad entry must spoil.
func withEntries(t *testing.T, hdrs ...*tar.Header) []byte {
	return packEnhancements(t, "kubernetes-enhancements-abc123", nil, func(tw *tar.Writer) error {
		for _, h := range hdrs {
			data := bytes.Repeat([]byte("x"), int(h.Size))
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			if _, err := tw.Write(data); err != nil {
				return err
			}
		}
		return nil
	})
}

// serveTarOf streams a tar.gz holding one file of size bytes of zeros,
// written as it is read (level picks gzip's effort: BestSpeed makes a bomb,
// NoCompression a body as big as the file). It stops when the client goes.
func serveTarOf(size int64, level int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		zw, _ := gzip.NewWriterLevel(w, level)
		tw := tar.NewWriter(zw)
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: "kubernetes-enhancements-abc123/keps/sig-x/1-big/README.md", Mode: 0o644, Size: size}
		if tw.WriteHeader(hdr) != nil {
			return
		}
		chunk := make([]byte, 1<<20)
		for left := size; left > 0; left -= int64(len(chunk)) {
			if _, err := tw.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
				return // the client went away
			}
		}
		tw.Close()
		zw.Close()
	}
}

// TestSyncRefusesHostileResponses syncs a good database against servers
// that answer badly or send hostile archives: each must fail with an error
// that says what failed, and leave the knowledge, the corpus and the sync
// state exactly as they were.
func TestSyncRefusesHostileResponses(t *testing.T) {
	ts := newTarballServer(t, goodTarball(t), `"good"`)
	good := filepath.Join(t.TempDir(), "good.db")
	mustSync(t, ts.command(), "--db", good, "--url", ts.URL+"/t")
	goodBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	before := readState(t, good)

	tarball := func(b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.Header().Set("ETag", `"new"`); w.Write(b) }
	}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		args    []string
		code    int
		want    []string
	}{
		{"dot-dot entry", tarball(withEntries(t, &tar.Header{Typeflag: tar.TypeReg, Name: "kubernetes-enhancements-abc123/../x", Size: 3})),
			nil, exitBadInput, []string{"was refused", `unsafe entry name "kubernetes-enhancements-abc123/../x": holds a ".." element`}},
		{"absolute entry", tarball(withEntries(t, &tar.Header{Typeflag: tar.TypeReg, Name: "/etc/passwd", Size: 3})),
			nil, exitBadInput, []string{"was refused", `unsafe entry name "/etc/passwd": absolute`}},
		{"symlinked kep.yaml", tarball(withEntries(t, &tar.Header{Typeflag: tar.TypeSymlink, Name: "kubernetes-enhancements-abc123/keps/sig-x/9999-evil/kep.yaml", Linkname: "/etc/passwd"})),
			nil, exitBadInput, []string{"was refused: keps/sig-x/9999-evil/kep.yaml is a symbolic link to /etc/passwd, and kubernetes/enhancements holds no links"}},
		{"hardlinked kep.yaml", tarball(withEntries(t, &tar.Header{Typeflag: tar.TypeLink, Name: "kubernetes-enhancements-abc123/keps/sig-x/9998-evil/kep.yaml", Linkname: "kubernetes-enhancements-abc123/LICENSE"})),
			nil, exitBadInput, []string{"keps/sig-x/9998-evil/kep.yaml is a hard link to kubernetes-enhancements-abc123/LICENSE"}},
		{"gzip bomb of 10 GB of zeros", serveTarOf(10<<30, gzip.BestSpeed),
			nil, exitBadInput, []string{"was refused", "over the limit of 67108864 decompressed bytes (a bomb"}},
		{"100 MB streamed over the cap", serveTarOf(100<<20, gzip.NoCompression),
			nil, exitBadInput, []string{"could not fetch it", "too large: the file is over the cap of 16777216 bytes"}},
		{"100 MB declared over the cap", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(100<<20))
			io.CopyN(w, zeros{}, 100<<20)
		}, nil, exitBadInput, []string{"could not fetch it", "the server says the file is 104857600 bytes, over the cap of 16777216"}},
		{"slow body beyond the timeout", func(w http.ResponseWriter, r *http.Request) {
			for i := 0; ; i++ {
				if _, err := w.Write(goodTarball(t)[i*64 : i*64+64]); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}, []string{"--timeout", "500ms"}, exitFailure, []string{"timed out: the time to ask the sources (500ms) ran out"}},
		{"slow headers beyond the timeout", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}, []string{"--timeout", "500ms"}, exitFailure, []string{"could not fetch it", "timed out: the time to ask the sources (500ms) ran out"}},
		{"redirect to a disallowed host", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/", http.StatusFound)
		}, nil, exitBadInput, []string{`redirect to https://169.254.169.254/latest/meta-data/: host "169.254.169.254" is not on the allowlist`}},
		{"server error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusInternalServerError) },
			nil, exitFailure, []string{"could not fetch it", "the server answered HTTP 500 Internal Server Error"}},
		{"an HTML page", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>rate limited</html>") },
			nil, exitBadInput, []string{"was refused", "not gzip data"}},
		{"a tarball without kep.yaml", tarball(packEnhancements(t, "kubernetes-enhancements-abc123", func(rel string) bool { return !strings.HasPrefix(rel, "keps") }, nil)),
			nil, exitBadInput, []string{"was refused", "found no keps/**/kep.yaml"}},
		{"a tarball whose every kep.yaml is broken", tarball(packEnhancements(t, "kubernetes-enhancements-abc123", func(rel string) bool { return !strings.HasPrefix(rel, "keps") }, func(tw *tar.Writer) error {
			body := []byte("title: [unclosed\n")
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "kubernetes-enhancements-abc123/keps/sig-x/1-a/kep.yaml", Size: int64(len(body)), Mode: 0o644}); err != nil {
				return err
			}
			_, err := tw.Write(body)
			return err
		})), nil, exitBadInput, []string{"holds no readable kep.yaml (1 files, all skipped); keeping the KEPs known"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "kb.db")
			if err := os.WriteFile(db, goodBytes, 0o600); err != nil {
				t.Fatal(err)
			}
			ts.set(nil, "", tc.handler)
			defer ts.set(goodTarball(t), `"good"`, nil)
			c := ts.command()
			c.fetch.MaxBytes = 16 << 20
			c.limits.MaxTotalBytes = 64 << 20
			start := time.Now()
			code, out, errs := runCmd(t, c, append([]string{"--db", db, "--url", ts.URL + "/t?access_token=s3cr3t"}, tc.args...)...)
			t.Logf("exit %d after %v: %s", code, time.Since(start).Round(time.Millisecond), errs)
			if code != tc.code {
				t.Errorf("exit %d; want %d\nstdout:\n%s", code, tc.code, out)
			}
			for _, want := range append(tc.want, "bot sync: kep.yaml failed: ", "; what it gave before is kept.\n") {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr does not say %q", want)
				}
			}
			if strings.Contains(errs+out, "s3cr3t") {
				t.Errorf("the output repeats the URL's token")
			}
			after := readState(t, db)
			after.Info.Path = before.Info.Path // a copy of the same database
			if after.Sync.Result != "failed" && after.Sync.Result != "rate limited" || after.Sync.Failures != 1 || strings.Contains(after.Sync.Error, "s3cr3t") {
				t.Errorf("kep.yaml's state %+v; want one failure recorded, without the token", after.Sync)
			}
			after.Sync = before.Sync // the failure is recorded; the knowledge must not move
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the database changed (-before +after):\n%s", diff)
			}
		})
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestSyncURLs: what is refused before any request, and that a token in
// the URL is never printed or stored while the sync still works.
func TestSyncURLs(t *testing.T) {
	ts := newTarballServer(t, goodTarball(t), `"tok"`)
	db := filepath.Join(t.TempDir(), "kb.db")
	for _, tc := range []struct {
		url  string
		want string
	}{
		{"http://github.com/x.tar.gz", `only https URLs are fetched, and this one is "http:"`},
		{"https://user:s3cr3t@github.com/x.tar.gz", "user name or password"},
		{ts.URL + "/t", `host "127.0.0.1" is not on the allowlist (api.github.com, codeload.github.com, github.com, raw.githubusercontent.com, proxy.golang.org, vuln.go.dev)`},
		{"https://2130706433/t", "non-standard form"},
		{"https://169.254.169.254/latest/meta-data/?s3cr3t", `host "169.254.169.254" is not on the allowlist`},
	} {
		code, _, errs := runCmd(t, syncCommand{}, "--db", db, "--url", tc.url) // the default options
		if code != exitBadInput || !strings.Contains(errs, tc.want) || strings.Contains(errs, "s3cr3t") {
			t.Errorf("--url %s: exit %d, stderr %q; want %d and %q without the secret", tc.url, code, errs, exitBadInput, tc.want)
		}
	}
	if got := ts.ifNoneMatch(); len(got) != 0 {
		t.Errorf("the server saw %d requests; want none", len(got))
	}

	c := ts.command()
	withToken := ts.URL + "/t?access_token=s3cr3t"
	out := mustSync(t, c, "--db", db, "--url", withToken)
	code, out2, errs := runCmd(t, c, "--db", db, "--url", withToken)
	if code != exitOK || !strings.HasPrefix(out2, "Up to date") {
		t.Errorf("second sync with the same URL: exit %d\n%s%s", code, out2, errs)
	}
	st := readState(t, db).Sync
	if st.URL != ts.URL+"/t" || strings.Contains(out+out2, "s3cr3t") {
		t.Errorf("stored URL %q; output:\n%s%s", st.URL, out, out2)
	}
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("s3cr3t")) {
		t.Error("the database file holds the token")
	}
}
