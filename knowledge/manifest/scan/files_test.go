package scan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadInputsWalksFolders: a folder gives its .yaml, .yml and .json
// files, sorted, hidden folders passed over; a missing path is a problem
// of its own and the others are still read; "-" reads stdin as "stdin".
func TestReadInputsWalksFolders(t *testing.T) {
	dir := t.TempDir()
	const cron = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n"
	for _, name := range []string{"b.yml", "a.yaml", "c.JSON", "deep/d.yaml", ".hidden/e.yaml", "notes.txt"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(cron), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing.yaml")
	read := ReadInputs(context.Background(), []string{dir, missing, StdinArg}, strings.NewReader(cron))
	var files []string
	for _, o := range read.Objects {
		files = append(files, strings.TrimPrefix(o.File, dir+string(filepath.Separator)))
	}
	want := []string{"a.yaml", "b.yml", "c.JSON", filepath.Join("deep", "d.yaml"), StdinName}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("read %q; want %q", files, want)
	}
	if len(read.Problems) != 1 || ProblemText(read.Problems[0]) != missing+": no such file or folder" {
		t.Errorf("problems %+v; want the missing file alone", read.Problems)
	}
}
