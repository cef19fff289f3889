package featuregates

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
)

// VersionsFile lists every module version read and its tag time.
const VersionsFile = "VERSIONS.tsv"

// MaxFileSize caps one file read: kube_features.go is about 100 KB.
const MaxFileSize = 4 << 20

// ErrNoTree is returned for a folder laid out otherwise.
var ErrNoTree = errors.New("no feature gate data found; expected a folder like ../shared/data/feature-gates: VERSIONS.tsv and k8s.io_kubernetes/release-1.N/pkg/features/kube_features.go")

// IsTree reports whether dir is laid out as the feature-gates data: a
// VERSIONS.tsv beside a k8s.io_kubernetes folder of release-1.N folders.
func IsTree(dir string) bool {
	if st, err := os.Stat(filepath.Join(dir, VersionsFile)); err != nil || !st.Mode().IsRegular() {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, dirOf(KubernetesModule)))
	return err == nil && st.IsDir()
}

// dirOf is a module's folder in the data: k8s.io_kubernetes.
func dirOf(module string) string { return strings.ReplaceAll(module, "/", "_") }

// moduleOfDir is the module of a folder of the data: k8s.io/apiserver for
// k8s.io_apiserver; "" for a folder that names no k8s.io module.
func moduleOfDir(name string) string {
	rest, ok := strings.CutPrefix(name, "k8s.io_")
	if !ok || rest == "" || strings.ContainsAny(rest, "_/") {
		return ""
	}
	return "k8s.io/" + rest
}

// versions are VERSIONS.tsv's rows: each module's version at a release and
// its tag time.
type versions map[string]map[knowledge.Version]tagged

type tagged struct {
	version string // v1.34.0, v0.34.0
	day     string // 2025-08-27
}

// parseVersions reads VERSIONS.tsv: a header, then module, version and
// tag time (RFC 3339) separated by tabs. A row it cannot read is a Skip.
func parseVersions(data []byte) (versions, []knowledge.Skip) {
	out := versions{}
	var skips []knowledge.Skip
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		if line == 1 && len(f) > 0 && f[0] == "module" || len(f) == 1 && f[0] == "" {
			continue
		}
		bad := func(why string) {
			skips = append(skips, knowledge.Skip{Path: VersionsFile + ":" + strconv.Itoa(line), Reason: why})
		}
		if len(f) != 3 {
			bad("not three fields: module, version, tag time")
			continue
		}
		v, ok := releaseOfTag(f[1])
		if !ok {
			bad(fmt.Sprintf("%q is not a module version like v1.34.0 or v0.34.0", clip(f[1])))
			continue
		}
		t, err := time.Parse(time.RFC3339, f[2])
		if err != nil {
			bad(fmt.Sprintf("%q is not a time like 2025-08-27T10:09:04Z", clip(f[2])))
			continue
		}
		if out[f[0]] == nil {
			out[f[0]] = map[knowledge.Version]tagged{}
		}
		out[f[0]][v] = tagged{version: f[1], day: t.UTC().Format(time.DateOnly)}
	}
	return out, skips
}

// releaseOfTag reads a module version: v1.34.0 (k8s.io/kubernetes) or
// v0.34.0 (its staging modules) is release 1.34.
func releaseOfTag(tag string) (knowledge.Version, bool) {
	t, ok := strings.CutPrefix(tag, "v")
	if !ok {
		return knowledge.Version{}, false
	}
	parts := strings.Split(t, ".")
	if len(parts) != 3 {
		return knowledge.Version{}, false
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n <= 0 || n > 999 {
		return knowledge.Version{}, false
	}
	if _, err := strconv.Atoi(parts[2]); err != nil {
		return knowledge.Version{}, false
	}
	switch parts[0] {
	case "0", "1":
		return knowledge.Version{Major: 1, Minor: n}, true
	}
	return knowledge.Version{}, false
}

// SourceID is the ID of the source of release v's gates read from the
// data or from k8s.io/kubernetes' module: "feature-gates/1.34".
func SourceID(v knowledge.Version) string {
	return string(knowledge.SourceFeatureGates) + "/" + v.String()
}

// LoadDir reads a folder laid out as the feature-gates data:
//
//	VERSIONS.tsv
//	k8s.io_<module>/release-1.N/<path in the module>
//
// Each release is one Source ("feature-gates/1.34", dated by
// k8s.io/kubernetes' tag of it in VERSIONS.tsv, never a file time) and one
// GateTable joining every module's files of that release (see Build). A
// file or row it cannot read is a Skip, and the rest is read. It fails
// when dir cannot be read or holds no release of k8s.io/kubernetes.
func LoadDir(dir string) (*knowledge.Corpus, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer root.Close()
	c, err := LoadFS(root.FS())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	for i := range c.Sources {
		c.Sources[i].Path = filepath.Join(dir, filepath.FromSlash(c.Sources[i].Path))
	}
	return c, nil
}

// LoadFS is LoadDir over an fs.FS whose root is the data's folder; paths
// are slash-separated, relative to it.
func LoadFS(fsys fs.FS) (*knowledge.Corpus, error) {
	c := &knowledge.Corpus{}
	vers := versions{}
	if data, err := capped.ReadFile(fsys, VersionsFile, MaxFileSize); err == nil {
		var skips []knowledge.Skip
		vers, skips = parseVersions(data)
		c.Skipped = append(c.Skipped, skips...)
	} else {
		c.Skipped = append(c.Skipped, knowledge.Skip{Path: VersionsFile, Reason: "not read (" + fsreason.Of(err) + "); releases are undated"})
	}
	top, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	releases := map[knowledge.Version]map[string]string{} // release → module → its folder
	for _, m := range top {
		module := moduleOfDir(m.Name())
		if !m.IsDir() || module == "" {
			continue
		}
		entries, err := fs.ReadDir(fsys, m.Name())
		if err != nil {
			c.Skipped = append(c.Skipped, knowledge.Skip{Path: m.Name(), Reason: "not read (" + fsreason.Of(err) + ")"})
			continue
		}
		for _, e := range entries {
			v, ok := releaseOfDir(e.Name())
			if !e.IsDir() || !ok {
				c.Skipped = append(c.Skipped, knowledge.Skip{Path: m.Name() + "/" + e.Name(), Reason: "not a release-1.N folder"})
				continue
			}
			if releases[v] == nil {
				releases[v] = map[string]string{}
			}
			releases[v][module] = m.Name() + "/" + e.Name()
		}
	}
	var vs []knowledge.Version
	for v, mods := range releases {
		if _, ok := mods[KubernetesModule]; ok {
			vs = append(vs, v)
		} else {
			c.Skipped = append(c.Skipped, knowledge.Skip{Path: "release-" + v.String(), Reason: "no k8s.io_kubernetes folder of this release; its gates are not read"})
		}
	}
	if len(vs) == 0 {
		return nil, ErrNoTree
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Less(vs[j]) })
	for _, v := range vs {
		src, table, skips := readRelease(fsys, v, releases[v], vers)
		c.Sources = append(c.Sources, src)
		c.GateTables = append(c.GateTables, table)
		c.Skipped = append(c.Skipped, skips...)
	}
	return c, nil
}

// releaseOfDir reads a release-1.N folder's name.
func releaseOfDir(name string) (knowledge.Version, bool) {
	rest, ok := strings.CutPrefix(name, "release-1.")
	if !ok {
		return knowledge.Version{}, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n <= 0 || n > 999 || strconv.Itoa(n) != rest {
		return knowledge.Version{}, false
	}
	return knowledge.Version{Major: 1, Minor: n}, true
}

// readRelease reads the files of release v from each module's folder.
func readRelease(fsys fs.FS, v knowledge.Version, folders map[string]string, vers versions) (knowledge.Source, knowledge.GateTable, []knowledge.Skip) {
	id := SourceID(v)
	var files []File
	var skips []knowledge.Skip
	var modules []string // the modules read: those VERSIONS.tsv names at v (a module with no gate file then declares none) and the folders
	for module, at := range vers {
		if _, ok := at[v]; ok {
			modules = append(modules, module)
		}
	}
	for _, module := range slices.Sorted(maps.Keys(folders)) {
		folder := folders[module]
		modules = append(modules, module)
		err := fs.WalkDir(fsys, folder, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				skips = append(skips, knowledge.Skip{Path: p, Reason: "not read (" + fsreason.Of(err) + ")", Source: id})
				return nil
			}
			if d.IsDir() {
				return nil
			}
			rel := strings.TrimPrefix(p, folder+"/")
			if !d.Type().IsRegular() {
				skips = append(skips, knowledge.Skip{Path: p, Reason: "not a regular file", Source: id})
				return nil
			}
			if !Wanted(module, rel) {
				return nil
			}
			data, err := capped.ReadFile(fsys, p, MaxFileSize)
			if err != nil {
				skips = append(skips, knowledge.Skip{Path: p, Reason: "not read (" + fsreason.Of(err) + ")", Source: id})
				return nil
			}
			files = append(files, File{Module: module, Path: rel, Data: data})
			return nil
		})
		if err != nil {
			skips = append(skips, knowledge.Skip{Path: folder, Reason: "not read (" + fsreason.Of(err) + ")", Source: id})
		}
	}
	sort.Slice(files, func(i, j int) bool {
		if files[i].Module != files[j].Module {
			return files[i].Module < files[j].Module
		}
		return files[i].Path < files[j].Path
	})
	table, more := Build(v, id, modules, files)
	tag := vers[KubernetesModule][v]
	src := Source(v, tag.version, tag.day)
	src.Path = path.Join(dirOf(KubernetesModule), "release-"+v.String())
	return src, table, append(skips, more...)
}

// Source is the Source of release v's gates: read from k8s.io/kubernetes
// at tag (v1.34.0; "" when unknown) and its staging modules, as of day.
func Source(v knowledge.Version, tag, day string) knowledge.Source {
	name := "Kubernetes " + v.String() + " code: feature gates"
	if tag != "" {
		name += " (" + KubernetesModule + " " + tag + ")"
	}
	return knowledge.Source{ID: SourceID(v), Name: name, Kind: knowledge.SourceFeatureGates, Lang: "en", AsOf: day}
}
