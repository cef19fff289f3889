package relnotes

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// ErrNoReleases means a folder holds no sig-release release folder.
var ErrNoReleases = errors.New("no release folder found; expected a kubernetes/sig-release copy holding releases/release-1.N/ " +
	"(with release-notes/release-notes-draft.json or README.md), the releases folder itself, or one release-1.N folder")

// ReadDir reads the sig-release files of fsys, which is a copy of the
// repository (holding releases/), its releases folder, or one release
// folder (whose release its README heading then names; use ReadRelease
// when the folder's name is known). In each release-1.N folder it reads
// NotesFile and PageFile when present. As-of dates come from a SOURCE.md
// at the root of fsys when there is one, else from stamp. A file that
// cannot be read or parsed is a Warning and a Skip, and the others are
// still read. It fails only when fsys holds no release folder.
func ReadDir(fsys fs.FS, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	prov := rootProvenance(fsys, stamp)
	dirs := ReleaseDirs(fsys)
	if len(dirs) == 0 {
		if !holdsRelease(fsys, ".") {
			return nil, nil, ErrNoReleases
		}
		return readRelease(fsys, ".", knowledge.Version{}, prov)
	}
	out := &knowledge.Corpus{}
	var warnings []Warning
	for _, d := range dirs {
		v, _ := ReleaseOf(d)
		c, ws, err := readRelease(fsys, d, v, prov)
		warnings = append(warnings, ws...)
		if err != nil {
			warnings = append(warnings, Warning{File: d, Problem: err.Error()})
			continue
		}
		out.Add(c)
	}
	return out, warnings, nil
}

// ReadRelease reads one release folder of release v: NotesFile and
// PageFile, each when present, as ReadDir does.
func ReadRelease(fsys fs.FS, v knowledge.Version, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	if v.IsZero() {
		return nil, nil, ErrNoRelease
	}
	return readRelease(fsys, ".", v, rootProvenance(fsys, stamp))
}

// ReleaseDirs lists the release folders of fsys that hold a notes file or
// a release page, oldest release first: releases/release-1.N, or
// release-1.N at the root.
func ReleaseDirs(fsys fs.FS) []string {
	var dirs []string
	for _, parent := range []string{"releases", "."} {
		entries, err := fs.ReadDir(fsys, parent)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			p := path.Join(parent, e.Name())
			if v, ok := ReleaseOf(e.Name()); ok && e.Name() == "release-"+v.String() && holdsRelease(fsys, p) {
				dirs = append(dirs, p)
			}
		}
		if len(dirs) > 0 {
			break
		}
	}
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := ReleaseOf(dirs[i])
		b, _ := ReleaseOf(dirs[j])
		return a.Less(b)
	})
	return dirs
}

// holdsRelease reports whether dir has the shape of a release folder: a
// notes file, or a release page whose first heading names a release.
func holdsRelease(fsys fs.FS, dir string) bool {
	if st, err := fs.Stat(fsys, path.Join(dir, NotesFile)); err == nil && st.Mode().IsRegular() {
		return true
	}
	data, err := readCapped(fsys, path.Join(dir, PageFile), MaxPageSize)
	if err != nil {
		return false
	}
	h, ok := firstHeading(bodyLines(splitLines(data)))
	if !ok {
		return false
	}
	v, _ := parseHeading(h)
	return !v.IsZero()
}

// readRelease reads the files of one release folder. v may be zero only
// when the page's heading is to name the release.
func readRelease(fsys fs.FS, dir string, v knowledge.Version, prov provenance.Provenance) (*knowledge.Corpus, []Warning, error) {
	out := &knowledge.Corpus{}
	var warnings []Warning
	fail := func(name string, err error) {
		warnings = append(warnings, Warning{File: name, Problem: err.Error()})
		out.Skipped = append(out.Skipped, knowledge.Skip{Path: name, Reason: err.Error()})
	}
	read := 0
	pageName := path.Join(dir, PageFile)
	if data, err := readCapped(fsys, pageName, MaxPageSize); err == nil {
		read++
		c, ws, err := ParsePage(v, pageName, data, prov.For(PageFile))
		warnings = append(warnings, ws...)
		switch {
		case err != nil:
			fail(pageName, err)
		default:
			out.Add(c)
			for _, r := range c.Releases {
				if v.IsZero() {
					v = r.Version
				}
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		read++
		fail(pageName, err)
	}
	notesName := path.Join(dir, NotesFile)
	if data, err := readCapped(fsys, notesName, MaxNotesSize); err == nil {
		read++
		c, ws, err := ParseNotes(v, notesName, data, prov.For(path.Base(NotesFile)))
		warnings = append(warnings, ws...)
		if err != nil {
			fail(notesName, err)
		} else {
			out.Add(c)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		read++
		fail(notesName, err)
	}
	if read == 0 {
		return nil, warnings, fmt.Errorf("%w (in %s)", ErrNoReleases, dir)
	}
	for i := range out.Sources {
		switch out.Sources[i].Kind {
		case knowledge.SourceReleasePage:
			out.Sources[i].Path = pageName
		case knowledge.SourceReleaseNotesData:
			out.Sources[i].Path = notesName
		}
	}
	return out, warnings, nil
}

// rootProvenance reads the SOURCE.md at the root of fsys; without one,
// stamp stands for every file.
func rootProvenance(fsys fs.FS, stamp provenance.Stamp) provenance.Provenance {
	data, err := readCapped(fsys, provenance.FileName, provenance.MaxSize)
	if err != nil {
		return provenance.Provenance{Stamp: stamp}
	}
	p := provenance.Parse(data)
	if p.Stamp.IsZero() {
		p.Stamp = stamp // for the files it does not name
	}
	return p
}

// readCapped reads a regular file of at most max bytes. It asks what name
// is before opening it: opening a named pipe would wait for a writer.
func readCapped(fsys fs.FS, name string, max int) ([]byte, error) {
	data, err := capped.ReadFile(fsys, name, int64(max))
	if errors.Is(err, capped.ErrTooLarge) {
		return nil, fileError(name, fmt.Errorf("%w: more than %d KiB", ErrTooLarge, max>>10))
	}
	return data, err
}

func splitLines(data []byte) []string {
	var lines []string
	start := 0
	for i, b := range data {
		if b == '\n' {
			lines = append(lines, string(data[start:i]))
			start = i + 1
		}
	}
	return append(lines, string(data[start:]))
}
