package ingest

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/lifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
)

// MaxDataBytes caps one JSON data file: release notes as data (the real
// ones are under 400 KB) and the patch list.
const MaxDataBytes = relnotes.MaxNotesSize

// notesBase is the file name of a release's notes as data.
var notesBase = filepath.Base(relnotes.NotesFile)

func isJSON(path string) bool { return strings.EqualFold(filepath.Ext(path), ".json") }

// isDataFile reports whether a walk should pick up a JSON file: a
// release's notes as data in a release-1.N folder, or a file whose start
// is release-data's patch list. Other JSON files are passed over.
func isDataFile(path string) bool {
	if !isJSON(path) {
		return false
	}
	if _, ok := relnotes.ReleaseOf(filepath.ToSlash(path)); ok && filepath.Base(path) == notesBase {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4<<10)
	n, _ := f.Read(head)
	return lifecycle.IsPatches(head[:n])
}

// routeRelease reads path with the parser of the release data it holds,
// if any, and reports whether it did. It tells the files by their shape
// and content, not their names alone:
//
//   - release-notes-draft.json in a release-1.N folder: sig-release's
//     notes as data of 1.N;
//   - a README.md in a release-1.N folder, or any Markdown file whose
//     first heading names a release and which gives the day of "v1.N.0
//     released": a sig-release release page;
//   - Markdown with YAML front matter listing releaseCycle entries:
//     endoflife.date's lifecycle;
//   - a JSON object with a versions object: release-data's patch list.
//
// Each takes its as-of date from the nearest SOURCE.md at or above it.
func (r *Result) routeRelease(path string, data []byte) bool {
	slash := filepath.ToSlash(path)
	base := filepath.Base(path)
	rel, inRelease := relnotes.ReleaseOf(filepath.ToSlash(filepath.Dir(path)))
	switch {
	case isJSON(path) && base == notesBase:
		v, ok := relnotes.ReleaseOf(slash)
		if !ok {
			return false
		}
		c, ws, err := relnotes.ParseNotes(v, path, data, r.stampFor(path))
		r.addParsed(path, c, notes(ws), err)
	case isJSON(path) && lifecycle.IsPatches(data):
		c, ws, err := lifecycle.ParsePatches(path, data, r.stampFor(path))
		r.addParsed(path, c, lifeNotes(ws), err)
	case isJSON(path):
		return false
	case strings.EqualFold(base, relnotes.PageFile) && inRelease:
		c, ws, err := relnotes.ParsePage(rel, path, data, r.stampFor(path))
		r.addParsed(path, c, notes(ws), err)
	case lifecycle.IsLifecycle(data):
		c, ws, err := lifecycle.ParseLifecycle(path, data, r.stampFor(path))
		r.addParsed(path, c, lifeNotes(ws), err)
	default:
		v, ok := relnotes.PageRelease(data)
		if !ok {
			return false
		}
		c, ws, err := relnotes.ParsePage(v, path, data, r.stampFor(path))
		r.addParsed(path, c, notes(ws), err)
	}
	return true
}

// addParsed adds what one parser read from path: a file that failed is a
// warning; one passed over (a Skip and nothing else) is not counted read.
func (r *Result) addParsed(path string, c *knowledge.Corpus, ns []Warning, err error) {
	r.Notes = append(r.Notes, ns...)
	if err != nil {
		r.warn(path, err.Error())
		return
	}
	for i := range c.Sources {
		c.Sources[i].Path = path
	}
	r.Corpus.Add(c)
	if len(c.Sources) > 0 {
		r.Files++
	}
}

// stampFor returns the stamp the nearest SOURCE.md at or above path's
// folder gives the file (its own line, else the folder's); the zero Stamp
// when there is none or it names no date.
func (r *Result) stampFor(path string) provenance.Stamp {
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for range maxSourceLevels {
		if p, ok := r.provenanceIn(dir); ok {
			return p.For(filepath.Base(path))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return provenance.Stamp{}
}

// maxSourceLevels is how many folders up a SOURCE.md is looked for: a
// release page lies three below sig-release's.
const maxSourceLevels = 5

// provenanceIn reads dir's SOURCE.md once; false when dir has none. A
// SOURCE.md that names no date still ends the search: nothing says one.
func (r *Result) provenanceIn(dir string) (provenance.Provenance, bool) {
	if r.stamps == nil {
		r.stamps = map[string]*provenance.Provenance{}
	}
	if p, ok := r.stamps[dir]; ok {
		return deref(p)
	}
	var p *provenance.Provenance
	if data, err := readCapped(filepath.Join(dir, provenance.FileName), provenance.MaxSize); err == nil {
		parsed := provenance.Parse(data)
		p = &parsed
	}
	r.stamps[dir] = p
	return deref(p)
}

func deref(p *provenance.Provenance) (provenance.Provenance, bool) {
	if p == nil {
		return provenance.Provenance{}, false
	}
	return *p, true
}

func notes(ws []relnotes.Warning) []Warning {
	out := make([]Warning, 0, len(ws))
	for _, w := range ws {
		out = append(out, noteOf(w.File, w.Entry, w.Problem))
	}
	return out
}

func lifeNotes(ws []lifecycle.Warning) []Warning {
	out := make([]Warning, 0, len(ws))
	for _, w := range ws {
		out = append(out, noteOf(w.File, w.Entry, w.Problem))
	}
	return out
}

func noteOf(file, entry, problem string) Warning {
	if entry != "" {
		problem = "entry " + entry + ": " + problem
	}
	return Warning{Path: file, Problem: problem}
}
