package scan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
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

// TestReadInputsPassesOver: in a folder, a named pipe (which would wait
// for a writer for ever), a link to a folder, a Helm chart's folder and a
// kustomization file are passed over, each said; the rest is read. A
// Chart.yaml named alone is passed over too.
func TestReadInputsPassesOver(t *testing.T) {
	dir := t.TempDir()
	const cron = "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: nightly\n"
	files := map[string]string{
		"chart/Chart.yaml":             "apiVersion: v2\nname: web\nversion: 1.0.0\n",
		"chart/templates/ingress.yaml": "apiVersion: {{ .Values.api }}\nkind: Ingress\n",
		"kust/kustomization.yaml":      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cron.yaml]\n",
		"kust/cron.yaml":               cron,
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "kust", "pipe.yaml"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "kust", "loop.yaml")); err != nil {
		t.Fatal(err)
	}
	done := make(chan *knowledge.ManifestRead, 1)
	go func() {
		done <- ReadInputs(context.Background(), []string{dir, filepath.Join(dir, "chart", "Chart.yaml"), filepath.Join(dir, "chart", "templates", "ingress.yaml")}, strings.NewReader(""))
	}()
	var read *knowledge.ManifestRead
	select {
	case read = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the scan of a folder holding a named pipe hangs")
	}
	if len(read.Objects) != 1 || read.Objects[0].Kind != "CronJob" || len(read.Problems) != 0 {
		t.Errorf("objects %+v, problems %+v; want the CronJob alone", read.Objects, read.Problems)
	}
	want := map[string]string{
		"chart": ReasonChart, "kust/kustomization.yaml": ReasonKustomization, "kust/pipe.yaml": ReasonNotRegular,
		"kust/loop.yaml": ReasonLinkedFolder, "chart/Chart.yaml": ReasonChart, "chart/templates/ingress.yaml": ReasonChart,
	}
	got := map[string]string{}
	for _, s := range read.Skipped {
		rel, _ := filepath.Rel(dir, s.File)
		got[filepath.ToSlash(rel)] = s.Reason
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
