package upstreamtest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// proxyFolder is where the fake serves the Go module proxy.
const proxyFolder = "/proxy"

// GatesPath is the module proxy's path of module's zip at version
// (k8s.io/kubernetes, v1.37.0); ext ".info" for its tag time.
func GatesPath(module, version, ext string) string {
	return proxyFolder + "/" + module + "/@v/" + version + ext
}

// packGates packs each release of the feature-gates data as the module
// proxy serves it: k8s.io/kubernetes' zip at v1.N.0 (its folder's files,
// under k8s.io/kubernetes@v1.N.0/) and k8s.io/client-go's at v0.N.0, each
// with its .info (the tag time VERSIONS.tsv gives). The staging modules
// other than client-go are not served: from 1.32 the generated list of
// k8s.io/kubernetes holds their gates.
func packGates(t testing.TB, root string) map[string][]byte {
	t.Helper()
	times := map[string]string{} // module@version → tag time
	if f, err := os.Open(filepath.Join(root, "VERSIONS.tsv")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if p := strings.Split(sc.Text(), "\t"); len(p) == 3 {
				times[p[0]+"@"+p[1]] = p[2]
			}
		}
		f.Close()
	}
	out := map[string][]byte{}
	for _, m := range []struct{ module, dir, major string }{
		{"k8s.io/kubernetes", "k8s.io_kubernetes", "v1."}, {"k8s.io/client-go", "k8s.io_client-go", "v0."},
	} {
		rels, err := os.ReadDir(filepath.Join(root, m.dir))
		if err != nil {
			continue // no such data: nothing served
		}
		for _, r := range rels {
			minor, ok := strings.CutPrefix(r.Name(), "release-1.")
			if !ok {
				continue
			}
			version := m.major + minor + ".0"
			out[GatesPath(m.module, version, ".zip")] = packModule(t, filepath.Join(root, m.dir, r.Name()), m.module, version)
			if at := times[m.module+"@"+version]; at != "" {
				out[GatesPath(m.module, version, ".info")] = fmt.Appendf(nil, `{"Version":%q,"Time":%q}`, version, at)
			}
		}
	}
	return out
}

// packModule zips dir as the module proxy serves module@version: every
// file under module@version/, with a go.mod.
func packModule(t testing.TB, dir, module, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		w, err := zw.Create(module + "@" + version + "/" + name)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	err := add("go.mod", []byte("module "+module+"\n"))
	if err == nil {
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			return add(filepath.ToSlash(rel), b)
		})
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
