package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// MaxDocumentBytes caps one release-note or website document. The real ones
// are under 40 KB.
const MaxDocumentBytes = 4 << 20

// Warning names a file that could not be read and why.
type Warning struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

func (w Warning) String() string { return w.Path + ": " + w.Problem }

// Result is what Load found.
type Result struct {
	Corpus   *knowledge.Corpus
	Files    int // documents, enhancements folders and archives read successfully
	Warnings []Warning
	// Notes name what was read around inside files that were read: an
	// entry skipped, a text cut short, two dates that disagree.
	Notes []Warning
	// APIReports describe each API lifecycle folder read (the
	// api-lifecycle data: k8s.io-api/release-1.N/...).
	APIReports []APIReport

	stamps map[string]*provenance.Provenance // SOURCE.md by folder, nil when none
}

// APIReport is what one API lifecycle folder held.
type APIReport struct {
	Path     string `json:"path"`
	Releases int    `json:"releases"` // module releases read, one knowledge.Source each
	Types    int    `json:"types"`    // API types (group/version/kind) merged from them
	Marked   int    `json:"marked"`   // of those, the types with lifecycle markers
	Skipped  int    `json:"skipped"`  // folders and files passed over, each also a note
}

// Load reads every path: a file or folder of any format of the registry
// (sources.Formats): a release note or post (Markdown, .md or .txt;
// Chinese ones are read as release notes, others as the official English
// posts and the deprecation guide), a kubernetes/enhancements checkout (a
// folder holding keps/) or its .tar.gz, kubernetes/sig-release's release
// notes as data and release pages, endoflife.date's Kubernetes lifecycle
// and patch list, the API lifecycle markers of the API modules (a folder
// holding k8s.io-api/release-1.N folders, read whole), or a folder of any
// of these (read recursively; hidden folders and node_modules are passed
// over). Each file takes its as-of date from the nearest SOURCE.md at or
// above it. It fails only when no path exists at all; what cannot be read
// becomes a warning.
func Load(paths []string) (*Result, error) {
	res := &Result{Corpus: &knowledge.Corpus{}}
	if len(paths) == 0 {
		return nil, errors.New("nothing to ingest: give one or more files or folders")
	}
	found := 0
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			res.warn(p, fsreason.Of(err))
			continue
		}
		found++
		if info.IsDir() {
			if !res.loadTree(p) {
				res.loadDir(p)
			}
			continue
		}
		res.loadFile(p)
	}
	if found == 0 {
		return res, fmt.Errorf("none of the paths exist: %s", strings.Join(paths, ", "))
	}
	return res, nil
}

func (r *Result) loadDir(dir string) {
	var files []string
	// A folder named on the command line is read even when the name is a
	// symbolic link to it (as ls and find -H do); links met inside it are
	// not followed. WalkDir does not follow a root that is a link unless
	// the name ends in a separator.
	root := dir
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		root = dir + string(filepath.Separator)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			r.warn(p, fsreason.Of(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return fs.SkipDir
			}
			if p != root && treeFormat(p) != nil {
				files = append(files, p)
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() {
			return nil
		}
		if picked(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		r.warn(dir, fsreason.Of(err))
	}
	sort.Strings(files)
	for _, f := range files {
		if !r.loadTree(f) {
			r.loadFile(f)
		}
	}
}

// treeFormat returns the format whose folders dir is one of (a
// kubernetes/enhancements checkout, an API lifecycle folder), or nil.
func treeFormat(dir string) *sources.Format {
	for i, f := range sources.Formats {
		if f.Tree != nil && f.Tree(dir) {
			return &sources.Formats[i]
		}
	}
	return nil
}

// picked reports whether a walk picks up the file at p: some format's.
func picked(p string) bool {
	for _, f := range sources.Formats {
		if f.Pick != nil && f.Pick(p) {
			return true
		}
	}
	return false
}

// loadTree reads p whole when it is a folder of a format read whole, and
// reports whether it was one.
func (r *Result) loadTree(p string) bool {
	f := treeFormat(p)
	if f == nil {
		return false
	}
	part, err := f.ReadTree(sources.Input{Name: p, Limits: kepyaml.DefaultLimits()})
	r.addWhole(f, p, part, err)
	return true
}

// addWhole adds a part read whole from a folder or an archive at path: one
// that failed, or that its format refuses, is a warning.
func (r *Result) addWhole(f *sources.Format, path string, part *sources.Part, err error) {
	if err == nil && f.Refuse != nil {
		err = f.Refuse(part)
	}
	if err != nil {
		r.warn(path, err.Error())
		return
	}
	r.Notes = append(r.Notes, warnings(part.Notes)...)
	c := part.Corpus
	for i := range c.Sources {
		if c.Sources[i].Path == "" {
			c.Sources[i].Path = path
		}
	}
	if isAPI(c) {
		r.APIReports = append(r.APIReports, apiReport(path, c))
	}
	r.Corpus.Add(c)
	r.Files++
}

// isAPI reports whether c holds API lifecycle sources.
func isAPI(c *knowledge.Corpus) bool {
	for _, s := range c.Sources {
		if s.Kind == knowledge.SourceAPILifecycle {
			return true
		}
	}
	return false
}

func apiReport(path string, c *knowledge.Corpus) APIReport {
	rep := APIReport{Path: path, Releases: len(c.Sources), Types: len(c.APITypes), Skipped: len(c.Skipped)}
	for _, t := range c.APITypes {
		if !t.MarkedIn.IsZero() {
			rep.Marked++
		}
	}
	return rep
}

// loadFile reads one file with the first format that takes it: an
// archive streamed, any other file read whole (within a cap) and matched
// by its path and content.
func (r *Result) loadFile(path string) {
	for i, f := range sources.Formats {
		if f.Stream != nil && f.Pick != nil && f.Pick(path) {
			r.loadStream(&sources.Formats[i], path)
			return
		}
	}
	limit := int64(MaxDocumentBytes)
	if sources.IsJSON(path) {
		limit = MaxDataBytes
	}
	data, err := readCapped(path, limit)
	if err != nil {
		r.warn(path, fsreason.Of(err))
		return
	}
	for _, fallback := range []bool{false, true} {
		for _, f := range sources.Formats {
			if f.Match == nil || f.Fallback != fallback || !f.Match(path, data) {
				continue
			}
			part, err := f.Read(sources.Input{Name: path, Data: data, Stamp: r.stampFor(path)})
			r.addParsed(path, part, err)
			return
		}
	}
	if sources.IsJSON(path) {
		r.warn(path, "not a file kepbot reads; expected a release-1.N/release-notes/release-notes-draft.json or release-data's kubernetes.json")
		return
	}
	r.warn(path, "not UTF-8 text; save it as UTF-8 Markdown") // any other text is a website document
}

func (r *Result) loadStream(f *sources.Format, path string) {
	file, err := os.Open(path)
	if err != nil {
		r.warn(path, fsreason.Of(err))
		return
	}
	defer file.Close()
	part, err := f.Stream(sources.Input{Name: path, Limits: kepyaml.DefaultLimits()}, file)
	r.addWhole(f, path, part, err)
}

func (r *Result) warn(path, problem string) {
	r.Warnings = append(r.Warnings, Warning{Path: path, Problem: problem})
}

// readCapped reads a file of at most max bytes.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := capped.Read(f, max)
	if errors.Is(err, capped.ErrTooLarge) {
		return nil, fmt.Errorf("larger than %d MiB, too large for a document of its kind", max>>20)
	}
	return data, err
}
