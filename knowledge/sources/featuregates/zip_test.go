package featuregates

import (
	"archive/zip"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// moduleZip packs a module release folder of the shared data as the module
// proxy serves it: every file under module@version/, with a few others
// around.
func moduleZip(t *testing.T, dir, module, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) {
		w, err := zw.Create(module + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	add("go.mod", []byte("module "+module+"\n"))
	add("README.md", []byte("hello"))
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		add(filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	add("pkg/features/kube_features_test.go", []byte("package features\nvar x = map[featuregate.Feature]featuregate.FeatureSpec{Bogus: {}}\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadModuleZip reads 1.34 from zips of k8s.io/kubernetes and
// k8s.io/client-go packed from the shared data: together they declare what
// the folder's 1.34 does.
func TestReadModuleZip(t *testing.T) {
	root := sharedtest.Path(t, "data", "feature-gates")
	kz, err := ReadModuleZip(bytes.NewReader(moduleZip(t, filepath.Join(root, "k8s.io_kubernetes", "release-1.34"), KubernetesModule, "v1.34.0")),
		"k8s.io/kubernetes@v1.34.0", "2025-08-27", ZipLimits{})
	if err != nil {
		t.Fatal(err)
	}
	cz, err := ReadModuleZip(bytes.NewReader(moduleZip(t, filepath.Join(root, "k8s.io_client-go", "release-1.34"), ClientGoModule, "v0.34.0")),
		"k8s.io/client-go@v0.34.0", "", ZipLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(kz.Skipped)+len(cz.Skipped) != 0 {
		t.Errorf("skipped %v %v", kz.Skipped, cz.Skipped)
	}
	if kz.Source.ID != "feature-gates/1.34/kubernetes" || kz.Source.AsOf != "2025-08-27" || cz.Source.ID != "feature-gates/1.34/client-go" || cz.Table.Source != cz.Source.ID {
		t.Errorf("sources %+v %+v", kz.Source, cz.Source)
	}
	folder := loadShared(t).GateTables[15]
	got := map[string]knowledge.GateDecl{}
	for _, d := range append(kz.Table.Gates, cz.Table.Gates...) {
		got[key(d)] = d
	}
	if len(got) != len(folder.Gates) {
		t.Errorf("%d gates from the zips, %d from the folder", len(got), len(folder.Gates))
	}
	for _, d := range folder.Gates {
		if got[key(d)].GateSpec != d.GateSpec {
			t.Errorf("%s: %+v from the zips, %+v from the folder", d.Name, got[key(d)], d)
		}
	}
	if !strings.Contains(strings.Join(kz.Table.Components, " "), knowledge.ComponentKubeadm) || strings.Contains(strings.Join(kz.Table.Components, " "), ClientGoModule) {
		t.Errorf("k8s.io/kubernetes' zip read %v; want kubeadm and the list's modules, not client-go", kz.Table.Components)
	}
}

func TestReadModuleZipRefuses(t *testing.T) {
	good := func() []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("k8s.io/kubernetes@v1.40.0/pkg/features/kube_features.go")
		w.Write([]byte("package features\n"))
		zw.Close()
		return buf.Bytes()
	}
	two := func() []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, n := range []string{"a", "b"} {
			w, _ := zw.Create("k8s.io/kubernetes@v1.40.0/" + n)
			w.Write([]byte("x"))
		}
		zw.Close()
		return buf.Bytes()
	}
	outside := func() []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("../../etc/passwd")
		w.Write([]byte("x"))
		zw.Close()
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name, at string
		data     []byte
		lim      ZipLimits
		want     error
	}{
		{"not a zip", "k8s.io/kubernetes@v1.40.0", []byte("<html>rate limited</html>"), ZipLimits{}, ErrNotZip},
		{"another module", "k8s.io/api@v0.40.0", good(), ZipLimits{}, ErrNotZip},
		{"kubernetes at a v0 tag", "k8s.io/kubernetes@v0.40.0", good(), ZipLimits{}, ErrNotZip},
		{"an entry outside the module", "k8s.io/kubernetes@v1.40.0", outside(), ZipLimits{}, ErrNotZip},
		{"over the cap", "k8s.io/kubernetes@v1.40.0", good(), ZipLimits{MaxZipBytes: 10}, ErrLimit},
		{"too many entries", "k8s.io/kubernetes@v1.40.0", two(), ZipLimits{MaxEntries: 1}, ErrLimit},
		{"a good one", "k8s.io/kubernetes@v1.40.0", good(), ZipLimits{}, nil},
	} {
		_, err := ReadModuleZip(bytes.NewReader(tc.data), tc.at, "", tc.lim)
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
	}
}
