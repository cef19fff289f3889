package ingest

import (
	"path/filepath"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
)

// MaxDataBytes caps one JSON data file: release notes as data (the real
// ones are under 400 KB) and the patch list.
const MaxDataBytes = relnotes.MaxNotesSize

// addParsed adds what one parser read from path: a file that failed is a
// warning; one passed over (a Skip and nothing else) is not counted read.
func (r *Result) addParsed(path string, part *sources.Part, err error) {
	if part != nil {
		r.Notes = append(r.Notes, warnings(part.Notes)...)
	}
	if err != nil {
		r.warn(path, err.Error())
		return
	}
	c := part.Corpus
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

// warnings turns a parser's notes into the ingest's: the entry in the
// problem, the file as the path.
func warnings(ws []knowledge.FileWarning) []Warning {
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
