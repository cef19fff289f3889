package apilifecycle

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// Release is one release of one API module as read: the group/versions it
// carries, their kinds and markers. ReadRelease and ReadModuleTarGz make
// it; Merge joins several.
type Release struct {
	Module string // the Go module: "k8s.io/api"
	// Tag is the module's tag, "v0.37.2" for Kubernetes 1.37.2; "" when
	// unknown (a folder its SOURCE.md gives no version for).
	Tag     string
	Release knowledge.Version // the Kubernetes minor release: 1.37
	AsOf    string            // 2006-01-02, from what the source says; "" when unknown
	Commit  string            // the commit read, when known
	Path    string            // where it was read from
	// APIs are the group/versions read, by group and version.
	APIs []GroupVersion
	// Skipped are the group/version folders and files passed over.
	Skipped []knowledge.Skip
}

// GroupVersion is one group/version package of a release.
type GroupVersion struct {
	Group   string // "" is the core group
	Version string // v1, v1beta1
	Dir     string // its folder inside the module: "networking/v1"
	// Kinds are the kinds it registers, sorted, without list types (a
	// kind ending in List whose base kind the package also registers).
	Kinds []string
	// Markers are the lifecycle markers by kind, for those of Kinds that
	// have any.
	Markers map[string]Markers
}

var (
	// tagRe is a module tag: v0.37.2, v0.37.0-rc.1.
	tagRe = lazyre.New(`^v0\.(\d{1,4})\.(\d{1,4})(?:-[0-9A-Za-z.-]{1,40})?$`)
	// releaseDirRe is a release folder: release-1.37.
	releaseDirRe = lazyre.New(`^release-1\.(\d{1,4})$`)
)

// ReleaseOfTag returns the Kubernetes minor release of a module tag:
// v0.37.2 is 1.37. ok is false for anything else.
func ReleaseOfTag(tag string) (knowledge.Version, bool) {
	m := tagRe().FindStringSubmatch(tag)
	if m == nil {
		return knowledge.Version{}, false
	}
	n, _ := strconv.Atoi(m[1])
	if n == 0 {
		return knowledge.Version{}, false
	}
	return knowledge.Version{Major: 1, Minor: n}, true
}

// SourceID is the release's knowledge.Source ID:
// knowledge.APISourceID(module, tag), "k8s.io/api@v0.37.2". When the tag
// is unknown it is written with the minor line alone, "k8s.io/api@v0.37":
// knowledge.APISourceRelease still reads it as 1.37, and it is no real tag,
// so it cannot be taken for one.
func (r *Release) SourceID() string {
	tag := r.Tag
	if tag == "" {
		tag = "v0." + strconv.Itoa(r.Release.Minor)
	}
	return knowledge.APISourceID(r.Module, tag)
}

// Source describes the release as a knowledge.Source: "k8s.io/api v0.37.2
// (Kubernetes 1.37)", linking to the module's GitHub mirror at the tag (at
// the release branch when the tag is unknown).
func (r *Release) Source() knowledge.Source {
	name := fmt.Sprintf("%s %s (Kubernetes %s)", r.Module, r.Tag, r.Release)
	ref := r.Tag
	if r.Tag == "" {
		name = fmt.Sprintf("%s (Kubernetes %s, module version unknown)", r.Module, r.Release)
		ref = "release-" + r.Release.String()
	}
	url := ""
	if repo := mirrorOf(r.Module); repo != "" {
		url = "https://github.com/" + repo + "/tree/" + ref
	}
	return knowledge.Source{
		ID: r.SourceID(), Name: name, Kind: knowledge.SourceAPILifecycle,
		AsOf: r.AsOf, Commit: r.Commit, Path: r.Path, URL: url,
	}
}

// mirrorOf returns the GitHub repository a k8s.io module is published to:
// k8s.io/api is kubernetes/api; "" for a module outside k8s.io.
func mirrorOf(module string) string {
	name, ok := strings.CutPrefix(module, "k8s.io/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return ""
	}
	return "kubernetes/" + name
}

// ReadRelease reads one release of an API module from fsys, whose root is
// the module's root (the folder holding <group>/<version>/register.go).
// Every folder two levels down named like an API version (v1, v1beta1) is
// a group/version package; other folders are not API packages and are
// passed over silently, hidden ones too. A package without a register.go,
// or whose files do not parse, is a Skip (a markers file that does not
// parse loses the package its markers, not its kinds), and the rest is
// read. It fails when fsys cannot be listed, holds no package, or none
// that could be read: a release read as empty would make every type look
// gone from it.
//
// Links are never followed: a register.go that is a symbolic link is a
// Skip. module and tag fill the Release (tag may be ""); Path, AsOf and
// Commit are the caller's to set.
func ReadRelease(fsys fs.FS, module string, release knowledge.Version, tag string) (*Release, error) {
	b := newBuilder(module, release, tag)
	groups, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", module, release, err)
	}
	for _, g := range groups {
		if !g.IsDir() || strings.HasPrefix(g.Name(), ".") {
			continue
		}
		versions, err := fs.ReadDir(fsys, g.Name())
		if err != nil {
			b.skip(g.Name(), "cannot be listed: "+fsreason.Of(err))
			continue
		}
		for _, v := range versions {
			if !v.IsDir() || !knowledge.IsAPIVersionName(v.Name()) {
				continue
			}
			dir := g.Name() + "/" + v.Name()
			files, err := fs.ReadDir(fsys, dir)
			if err != nil {
				b.found++
				b.skip(dir, "cannot be listed: "+fsreason.Of(err))
				continue
			}
			reg, err := readFile(fsys, dir, files, RegisterFile)
			if err != nil {
				b.found++
				b.skip(dir, err.Error())
				continue
			}
			marks, err := readFile(fsys, dir, files, MarkersFile)
			if errors.Is(err, fs.ErrNotExist) {
				marks, err = nil, nil
			}
			b.add(dir, reg, marks, err)
		}
	}
	return b.finish()
}

// readFile reads the regular file name of dir, whose entries are given,
// of at most MaxFileSize bytes. It asks what the name is before opening it: opening a named pipe would wait for a
// writer, and a link is not followed. A missing file is fs.ErrNotExist.
func readFile(fsys fs.FS, dir string, entries []fs.DirEntry, name string) ([]byte, error) {
	p := dir + "/" + name
	var ent fs.DirEntry
	for _, e := range entries {
		if e.Name() == name {
			ent = e
			break
		}
	}
	switch {
	case ent == nil:
		return nil, fmt.Errorf("no %s: %w", name, fs.ErrNotExist)
	case ent.Type()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link; links are never followed", name)
	case !ent.Type().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, fsreason.Of(err))
	}
	defer f.Close()
	var data []byte
	if st, err := f.Stat(); err == nil && st.Size() >= 0 && st.Size() <= MaxFileSize {
		data = make([]byte, 0, st.Size()+1) // one read, and one to see the end
	}
	data, err = readAllInto(data, io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, fsreason.Of(err))
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	return data, nil
}

// readAllInto is io.ReadAll appending to buf.
func readAllInto(buf []byte, r io.Reader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// builder gathers the packages of one release.
type builder struct {
	rel   *Release
	found int // packages met, read or skipped
}

func newBuilder(module string, release knowledge.Version, tag string) *builder {
	return &builder{rel: &Release{Module: module, Release: release, Tag: tag}}
}

func (b *builder) skip(dir, reason string) {
	b.rel.Skipped = append(b.rel.Skipped, knowledge.Skip{Path: dir, Reason: reason, Source: b.rel.SourceID()})
}

// add reads one package from its files: register.go, and the markers file
// (nil when there is none; markersErr when it could not be read).
func (b *builder) add(dir string, register, markers []byte, markersErr error) {
	b.found++
	info, err := parseRegister(register)
	if err != nil {
		b.skip(dir, RegisterFile+": "+err.Error())
		return
	}
	version := path.Base(dir)
	if info.version != "" && info.version != version {
		b.skip(dir, fmt.Sprintf("%s registers version %s, not the folder's %s", RegisterFile, info.version, version))
		return
	}
	gv := GroupVersion{Group: info.group, Version: version, Dir: dir, Kinds: dropLists(info.kinds)}
	if markersErr != nil {
		b.skip(dir+"/"+MarkersFile, markersErr.Error()+"; the kinds are read without markers")
	} else if markers != nil {
		ms, err := ParseMarkers(markers)
		if err != nil {
			b.skip(dir+"/"+MarkersFile, err.Error()+"; the kinds are read without markers")
		}
		for _, k := range gv.Kinds {
			if m, ok := ms[k]; ok && !m.IsZero() {
				if gv.Markers == nil {
					gv.Markers = map[string]Markers{}
				}
				gv.Markers[k] = m
			}
		}
	}
	b.rel.APIs = append(b.rel.APIs, gv)
}

// finish sorts what was read; it fails when no package was met at all.
func (b *builder) finish() (*Release, error) {
	r := b.rel
	if b.found == 0 && len(r.Skipped) == 0 {
		return nil, fmt.Errorf("%w: %s %s holds no <group>/<version>/%s", ErrNoPackages, r.Module, r.Release, RegisterFile)
	}
	if len(r.APIs) == 0 {
		return nil, fmt.Errorf("%w: no package of %s %s could be read (%d skipped, the first: %s: %s)",
			ErrNoPackages, r.Module, r.Release, len(r.Skipped), r.Skipped[0].Path, r.Skipped[0].Reason)
	}
	sort.Slice(r.APIs, func(i, j int) bool {
		a, c := r.APIs[i], r.APIs[j]
		if a.Group != c.Group {
			return a.Group < c.Group
		}
		if a.Version != c.Version {
			return a.Version < c.Version
		}
		return a.Dir < c.Dir
	})
	sort.Slice(r.Skipped, func(i, j int) bool { return r.Skipped[i].Path < r.Skipped[j].Path })
	return r, nil
}

// ErrNoPackages is returned for a release in which no group/version
// package could be read.
var ErrNoPackages = errors.New("no API package found")

// dropLists returns kinds sorted, without the list types: a kind ending in
// List whose base kind is registered too. Others ending in List (the core
// group's List) are kept.
func dropLists(kinds []string) []string {
	has := make(map[string]bool, len(kinds))
	for _, k := range kinds {
		has[k] = true
	}
	out := make([]string, 0, len(kinds))
	for _, k := range kinds {
		if base, ok := strings.CutSuffix(k, "List"); ok && has[base] {
			continue
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
