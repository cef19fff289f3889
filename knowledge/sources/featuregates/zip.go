package featuregates

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
)

// ZipLimits bound what ReadModuleZip reads. A zero field takes its
// default.
type ZipLimits struct {
	MaxZipBytes int64 // the zip, read whole: a zip is read from its end
	MaxEntries  int   // entries listed in its directory
}

// DefaultZipLimits fit the Go module proxy's zip of k8s.io/kubernetes
// (some 21 MB and 8,400 files at v1.34.0) several times over: 128 MiB and
// 100,000 entries. A file read is at most MaxFileSize.
func DefaultZipLimits() ZipLimits { return ZipLimits{MaxZipBytes: 128 << 20, MaxEntries: 100_000} }

// Errors of ReadModuleZip; test with errors.Is.
var (
	ErrLimit  = errors.New("over a limit")
	ErrNotZip = errors.New("not a module zip")
)

// ModuleZip is what ReadModuleZip read: a release's gate table from one
// module, its Source, and what it passed over.
type ModuleZip struct {
	Source  knowledge.Source
	Table   knowledge.GateTable
	Skipped []knowledge.Skip
	Files   int // the files read
}

// ModuleVersion reads module@version as a module proxy names a zip: the
// module (k8s.io/kubernetes, k8s.io/client-go) and its release (v1.34.0
// and v0.34.0 are 1.34's). ok is false for any other module or version.
func ModuleVersion(s string) (module, version string, v knowledge.Version, ok bool) {
	module, version, found := strings.Cut(s, "@")
	if !found || (module != KubernetesModule && module != ClientGoModule) {
		return "", "", knowledge.Version{}, false
	}
	v, ok = releaseOfTag(version)
	if ok && (module == KubernetesModule) != strings.HasPrefix(version, "v1.") {
		ok = false // k8s.io/kubernetes is tagged v1.N.P, its staging modules v0.N.P
	}
	return module, version, v, ok
}

// ZipSourceID is the source of release v's gates read from one module's
// zip: "feature-gates/1.38/kubernetes", "feature-gates/1.38/client-go"
// (the feature-gates data's one source a release is SourceID(v)).
func ZipSourceID(module string, v knowledge.Version) string {
	return SourceID(v) + "/" + strings.TrimPrefix(module, "k8s.io/")
}

// ReadModuleZip reads release v's gates from the Go module proxy's zip of
// module at version (k8s.io/kubernetes@v1.38.0: the Go files that declare
// gates, kubeadm's, and the generated list; k8s.io/client-go@v0.38.0: its
// features package), as the proxy serves it (every entry under
// module@version/). The zip is read whole into memory, up to
// MaxZipBytes, since a zip's directory is at its end; only the files gates
// are read from are opened, each at most MaxFileSize, and nothing is
// written to disk. day dates the Source ("" when unknown).
func ReadModuleZip(r io.Reader, moduleAtVersion, day string, lim ZipLimits) (*ModuleZip, error) {
	module, version, v, ok := ModuleVersion(moduleAtVersion)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not k8s.io/kubernetes@v1.N.P or k8s.io/client-go@v0.N.P", ErrNotZip, clip(moduleAtVersion))
	}
	d := DefaultZipLimits()
	if lim.MaxZipBytes <= 0 {
		lim.MaxZipBytes = d.MaxZipBytes
	}
	if lim.MaxEntries <= 0 {
		lim.MaxEntries = d.MaxEntries
	}
	data, err := capped.Read(r, lim.MaxZipBytes)
	if errors.Is(err, capped.ErrTooLarge) {
		return nil, fmt.Errorf("%w: the zip is over %d MiB", ErrLimit, lim.MaxZipBytes>>20)
	}
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotZip, err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, fmt.Errorf("%w: %d entries, more than %d", ErrLimit, len(zr.File), lim.MaxEntries)
	}
	id := ZipSourceID(module, v)
	prefix := module + "@" + version + "/"
	out := &ModuleZip{}
	var files []File
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			return nil, fmt.Errorf("%w: entry %q is not under %s", ErrNotZip, clip(f.Name), prefix)
		}
		if !f.Mode().IsRegular() || !Wanted(module, rel) {
			continue
		}
		if f.UncompressedSize64 > MaxFileSize {
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: module + "/" + rel, Reason: fmt.Sprintf("over %d MiB; not read", MaxFileSize>>20), Source: id})
			continue
		}
		rc, err := f.Open()
		if err != nil {
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: module + "/" + rel, Reason: "not read: " + err.Error(), Source: id})
			continue
		}
		b, err := capped.Read(rc, MaxFileSize)
		rc.Close()
		if err != nil {
			out.Skipped = append(out.Skipped, knowledge.Skip{Path: module + "/" + rel, Reason: "not read: " + err.Error(), Source: id})
			continue
		}
		files = append(files, File{Module: module, Path: rel, Data: b})
	}
	if module == KubernetesModule && !hasKubeFeatures(files) {
		return nil, fmt.Errorf("%w: %s holds no pkg/features/kube_features.go", ErrNotZip, prefix)
	}
	t, skips := Build(v, id, []string{module}, files)
	out.Table, out.Files = t, len(files)
	out.Skipped = append(out.Skipped, skips...)
	out.Source = Source(v, version, day)
	out.Source.ID = id
	if module != KubernetesModule {
		out.Source.Name = "Kubernetes " + v.String() + " code: feature gates (" + module + " " + version + ")"
	}
	return out, nil
}

func hasKubeFeatures(files []File) bool {
	for _, f := range files {
		if f.Module == KubernetesModule && f.Path == "pkg/features/kube_features.go" {
			return true
		}
	}
	return false
}
