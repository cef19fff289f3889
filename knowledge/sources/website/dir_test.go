package website

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// TestParseDirShared reads the whole website folder: one source per
// document, SOURCE.md skipped, the guide's URL taken from SOURCE.md, and
// the corpus compiling into the six releases.
func TestParseDirShared(t *testing.T) {
	dir := sharedtest.Path(t, "data", "website")
	c, err := ParseDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sources) != len(docNames) {
		t.Errorf("got %d sources, want %d", len(c.Sources), len(docNames))
	}
	for _, s := range c.Sources {
		if s.Path != filepath.Join(dir, s.ID) || s.URL == "" || s.Lang != "en" {
			t.Errorf("source %+v: want its path, a URL and lang en", s)
		}
		if s.ID == guideName && s.URL != "https://kubernetes.io/docs/reference/using-api/deprecation-guide/" {
			t.Errorf("guide URL %q, want the kubernetes.io page SOURCE.md points to", s.URL)
		}
	}
	if len(c.Skipped) != 1 || filepath.Base(c.Skipped[0].Path) != "SOURCE.md" || c.Skipped[0].Reason != ReasonDescribesSources {
		t.Errorf("skipped %+v, want only SOURCE.md with reason %q", c.Skipped, ReasonDescribesSources)
	}
	k := knowledge.Compile(c)
	var vs []string
	for _, r := range k.Releases {
		if r.Date != "" {
			vs = append(vs, r.Version.String()+" "+r.Theme)
		}
	}
	want := "1.27 Chill Vibes,1.28 Planternetes,1.29 Mandala,1.30 Uwubernetes,1.31 Elli,1.32 Penelope"
	if got := strings.Join(vs, ","); got != want {
		t.Errorf("compiled releases %q, want %q", got, want)
	}
}

// TestParseDirBadFiles checks that unreadable and unrecognised files become
// skips with their reason while the good ones are read.
func TestParseDirBadFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"good.md":    []byte("---\ntitle: 'Kubernetes v1.40: Good'\ndate: 2030-01-02\n---\n\nAnnouncing the release of Kubernetes v1.40.\n"),
		"empty.md":   nil,
		"binary.md":  {0x89, 'P', 'N', 'G', 0, 0, 1},
		"latin1.md":  []byte("# Caf\xe9\n"),
		"readme.md":  []byte("# Notes\n\nNothing about releases.\n"),
		"SOURCE.md":  []byte("# Source: here\n\n| file | repository path | commit |\n| --- | --- | --- |\n| `good.md` | `content/en/blog/_posts/good.md` | `0123456789abcdef0123456789abcdef01234567` |\n- Repository: https://github.com/kubernetes/website\n"),
		"notes.txt":  []byte("not Markdown, not read"),
		"sub/x.md":   []byte("# in a folder, not read"),
		"secret.md":  []byte("# unreadable"),
		"huge.md":    nil,
		"nested.MD":  []byte("---\ntitle: 'Kubernetes v1.41: Caps'\n---\n\nAnnouncing the release of Kubernetes v1.41.\n"),
		"ignored.go": []byte("package x"),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Truncate(filepath.Join(dir, "huge.md"), MaxSize+1); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "secret.md"), 0); err != nil {
		t.Fatal(err)
	}
	c, err := ParseDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Releases) != 2 || c.Sources[0].ID != "good.md" || c.Sources[1].ID != "nested.MD" {
		t.Fatalf("got releases %+v sources %+v, want good.md and nested.MD", c.Releases, c.Sources)
	}
	if got := c.Sources[0].URL; got != "https://github.com/kubernetes/website/blob/0123456789abcdef0123456789abcdef01234567/content/en/blog/_posts/good.md" {
		t.Errorf("URL from SOURCE.md %q", got)
	}
	reasons := map[string]string{}
	for _, s := range c.Skipped {
		reasons[filepath.Base(s.Path)] = s.Reason
	}
	wantWords := map[string]string{
		"empty.md":  "empty",
		"binary.md": "binary",
		"latin1.md": "UTF-8",
		"readme.md": "expected a release announcement",
		"SOURCE.md": ReasonDescribesSources,
		"huge.md":   "larger than",
	}
	wantWords["secret.md"] = "permission denied"
	if os.Geteuid() == 0 { // root reads a file whatever its mode: then it is merely unrecognised
		wantWords["secret.md"] = "expected a release announcement"
	}
	for name, word := range wantWords {
		if !strings.Contains(reasons[name], word) {
			t.Errorf("%s: reason %q, want one saying %q", name, reasons[name], word)
		}
	}
	if len(reasons) != len(wantWords) {
		t.Errorf("skipped %v, want exactly %v", reasons, wantWords)
	}
}

func TestParseDirMissing(t *testing.T) {
	_, err := ParseDir(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("got %v, want an error naming the folder", err)
	}
}
