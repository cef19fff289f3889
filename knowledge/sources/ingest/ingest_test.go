package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
)

func TestLoadSeedsFolder(t *testing.T) {
	res, err := Load([]string{sharedtest.Path(t, "seeds")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 5 || len(res.Warnings) != 0 {
		t.Fatalf("read %d files with warnings %v; want the 5 seeds and no warning", res.Files, res.Warnings)
	}
	if len(res.Corpus.Releases) != 5 || len(res.Corpus.Sources) != 5 {
		t.Errorf("%d releases, %d sources; want 5 each", len(res.Corpus.Releases), len(res.Corpus.Sources))
	}
	for _, s := range res.Corpus.Sources {
		if !strings.HasPrefix(s.Path, sharedtest.Path(t, "seeds")) {
			t.Errorf("source %s does not record the path it was read from: %q", s.ID, s.Path)
		}
	}
}

func TestLoadWarnsAndGoesOn(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, b []byte) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	seed, err := os.ReadFile(sharedtest.Path(t, "seeds", "001_734cae5d6bd047d8.txt"))
	if err != nil {
		t.Fatal(err)
	}
	good := write("notes/good.md", seed)
	bin := write("notes/binary.md", []byte("\x00\x01\x02ELF\x00"))
	latin := write("notes/latin1.txt", []byte("Kubernetes 1.29 \xe9\xe9\xe9"))
	write("notes/node_modules/pkg/README.md", []byte("# not ours"))
	write("notes/.git/HEAD.md", []byte("# not ours"))
	write("notes/image.png", []byte("\x89PNG"))
	big := write("big.md", make([]byte, MaxDocumentBytes+1))
	missing := filepath.Join(dir, "missing.md")

	res, err := Load([]string{filepath.Join(dir, "notes"), big, missing})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 1 || len(res.Corpus.Releases) != 1 {
		t.Errorf("read %d files; want only %s", res.Files, good)
	}
	got := map[string]string{}
	for _, w := range res.Warnings {
		got[w.Path] = w.Problem
	}
	for path, want := range map[string]string{bin: "", latin: "UTF-8", big: "too large", missing: "no such file"} {
		problem, ok := got[path]
		if !ok {
			t.Errorf("no warning names %s (warnings: %v)", path, res.Warnings)
			continue
		}
		if !strings.Contains(problem, want) {
			t.Errorf("warning for %s = %q; want it to say %q", path, problem, want)
		}
	}
	if len(res.Warnings) != 4 {
		t.Errorf("%d warnings, want 4 (hidden folders, node_modules and non-documents are passed over): %v", len(res.Warnings), res.Warnings)
	}
}

func TestLoadNothing(t *testing.T) {
	if _, err := Load(nil); err == nil {
		t.Error("Load(nil) did not fail")
	}
	if _, err := Load([]string{filepath.Join(t.TempDir(), "nope")}); err == nil || !strings.Contains(err.Error(), "none of the paths exist") {
		t.Errorf("Load(missing) = %v", err)
	}
}

// TestLoadFolderThroughLink: a folder named on the command line by a
// symbolic link to it is read (`bot ingest ../shared` where ../shared is
// a link), while a link met inside a folder is still passed over.
func TestLoadFolderThroughLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "seeds")
	if err := os.Symlink(sharedtest.Path(t, "seeds"), link); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	res, err := Load([]string{link})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 5 || len(res.Corpus.Releases) != 5 {
		t.Fatalf("read %d files, %d releases through the link; want the 5 seeds", res.Files, len(res.Corpus.Releases))
	}
	res, err = Load([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 0 {
		t.Errorf("read %d files through a link inside the folder; want none", res.Files)
	}
}
