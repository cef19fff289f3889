package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIngestRefusesHostileSources feeds bot ingest only hostile sources: a
// tarball with a path out of its folder, one with a link, an enhancements
// folder whose one kep.yaml is an alias bomb, and a 100 MB document. Each is
// named in a warning, and the database answers as before.
func TestIngestRefusesHostileSources(t *testing.T) {
	db := ingestSeeds(t)
	dir := t.TempDir()

	tarball := func(name string, hdrs ...*tar.Header) string {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for _, h := range hdrs {
			if err := tw.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
			if h.Typeflag == tar.TypeReg {
				tw.Write(bytes.Repeat([]byte("a"), int(h.Size)))
			}
		}
		tw.Close()
		gz.Close()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	escape := tarball("escape.tar.gz",
		&tar.Header{Name: "top/", Typeflag: tar.TypeDir, Mode: 0o755},
		&tar.Header{Name: "top/../../etc/kep.yaml", Typeflag: tar.TypeReg, Mode: 0o644, Size: 4})
	link := tarball("link.tar.gz",
		&tar.Header{Name: "top/", Typeflag: tar.TypeDir, Mode: 0o755},
		&tar.Header{Name: "top/keps/sig-x/1-a/kep.yaml", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})

	bomb := filepath.Join(dir, "enhancements", "keps", "sig-x", "1-bomb")
	if err := os.MkdirAll(bomb, 0o755); err != nil {
		t.Fatal(err)
	}
	var y strings.Builder
	y.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		y.WriteString(n + ": &" + n + " [*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + "]\n")
		prev = n
	}
	y.WriteString("kep-number: 1\ntitle: bomb\n")
	if err := os.WriteFile(filepath.Join(bomb, "kep.yaml"), []byte(y.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	huge := filepath.Join(dir, "huge.md")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // sparse: 100 MB without writing them
		t.Fatal(err)
	}
	f.Close()

	code, out, errs := run(t, "", nil, "ingest", "--db", db, escape, link, filepath.Join(dir, "enhancements"), huge)
	if code != exitBadInput {
		t.Fatalf("ingest of hostile sources: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitBadInput, out, errs)
	}
	for _, p := range []string{escape, link, filepath.Join(dir, "enhancements"), huge} {
		if !strings.Contains(errs, p) {
			t.Errorf("no warning names %s:\n%s", p, errs)
		}
	}
	if _, a := askJSON(t, db, "kep", "3866"); a.KEP == nil || a.KEP.SIG != "sig-network" {
		t.Errorf("after refused sources kep 3866 = %+v; the database must be as it was", a.KEP)
	}
}
