package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/archive"
	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
	"github.com/kepbot/kepbot/knowledge/sources/releasenote"
	"github.com/kepbot/kepbot/knowledge/sources/website"
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
	// KEPReports describe each enhancements folder or archive read: how
	// many kep.yaml files, KEPs, and what was skipped and why.
	KEPReports []KEPReport
	// Notes name what was read around inside files that were read: an
	// entry skipped, a text cut short, two dates that disagree.
	Notes []Warning
	// APIReports describe each API lifecycle folder read (the
	// api-lifecycle data: k8s.io-api/release-1.N/...).
	APIReports []APIReport

	stamps map[string]*provenance.Provenance // SOURCE.md by folder, nil when none
}

// KEPReport is what one enhancements folder or archive held.
type KEPReport struct {
	Path   string
	Report kepyaml.Report
}

// APIReport is what one API lifecycle folder held.
type APIReport struct {
	Path     string
	Releases int // module releases read, one knowledge.Source each
	Types    int // API types (group/version/kind) merged from them
	Marked   int // of those, the types with lifecycle markers
	Skipped  int // folders and files passed over, each also a note
}

// Load reads every path: a release note or post (Markdown, .md or .txt;
// Chinese ones are read as release notes, others as the official English
// posts and the deprecation guide), a kubernetes/enhancements checkout (a
// folder holding keps/) or its .tar.gz, kubernetes/sig-release's release
// notes as data and release pages, endoflife.date's Kubernetes lifecycle
// and patch list (see routeRelease), the API lifecycle markers of the API
// modules (a folder holding k8s.io-api/release-1.N folders, read whole by
// apilifecycle.LoadDir), or a folder of any of these (read
// recursively; hidden folders and node_modules are passed over). It fails
// only when no path exists at all; what cannot be read becomes a warning.
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
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			r.warn(p, fsreason.Of(err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return fs.SkipDir
			}
			if p != dir && (isEnhancements(p) || apilifecycle.IsTree(p)) {
				files = append(files, p)
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 || !d.Type().IsRegular() {
			return nil
		}
		if isDocument(name) || isArchive(name) || isDataFile(p) {
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

// loadTree reads p whole when it is a kubernetes/enhancements checkout or
// a folder of API lifecycle markers (apilifecycle.IsTree), and reports
// whether it was one.
func (r *Result) loadTree(p string) bool {
	switch {
	case isEnhancements(p):
		r.loadEnhancements(p)
	case apilifecycle.IsTree(p):
		r.loadAPILifecycle(p)
	default:
		return false
	}
	return true
}

// isEnhancements reports whether dir is a kubernetes/enhancements checkout:
// it holds a keps folder.
func isEnhancements(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "keps"))
	return err == nil && st.IsDir()
}

// loadAPILifecycle reads an API lifecycle folder whole: its SOURCE.md
// gives the module versions and dates (never file times), and what it
// passes over is a Skip and a note.
func (r *Result) loadAPILifecycle(dir string) {
	c, err := apilifecycle.LoadDir(dir)
	if err != nil {
		r.warn(dir, err.Error())
		return
	}
	rep := APIReport{Path: dir, Releases: len(c.Sources), Types: len(c.APITypes), Skipped: len(c.Skipped)}
	for _, t := range c.APITypes {
		if !t.MarkedIn.IsZero() {
			rep.Marked++
		}
	}
	for _, s := range c.Skipped {
		r.Notes = append(r.Notes, Warning{Path: filepath.Join(dir, filepath.FromSlash(s.Path)), Problem: "passed over: " + s.Reason})
	}
	r.Corpus.Add(c)
	r.APIReports = append(r.APIReports, rep)
	r.Files++
}

func isArchive(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".tgz")
}

func (r *Result) loadEnhancements(dir string) {
	res, err := kepyaml.LoadDir(dir, kepyaml.DefaultLimits())
	if err != nil {
		r.warn(dir, err.Error())
		return
	}
	r.addKEPs(dir, res) // kepyaml dates it by its SOURCE.md or git HEAD, never by file times
}

func (r *Result) loadArchive(path string) {
	f, err := os.Open(path)
	if err != nil {
		r.warn(path, fsreason.Of(err))
		return
	}
	defer f.Close()
	res, err := archive.ReadTarGz(f, kepyaml.DefaultLimits())
	if err != nil {
		r.warn(path, err.Error())
		return
	}
	r.addKEPs(path, res)
}

func (r *Result) addKEPs(path string, res *kepyaml.Result) {
	if len(res.Corpus.KEPs) == 0 {
		r.warn(path, "no kep.yaml found; give a kubernetes/enhancements checkout or its .tar.gz")
		return
	}
	for i := range res.Corpus.Sources {
		if res.Corpus.Sources[i].Path == "" {
			res.Corpus.Sources[i].Path = path
		}
	}
	r.Corpus.Add(res.Corpus)
	r.KEPReports = append(r.KEPReports, KEPReport{Path: path, Report: res.Report})
	r.Files++
}

func isDocument(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}

func (r *Result) loadFile(path string) {
	if isArchive(path) {
		r.loadArchive(path)
		return
	}
	limit := int64(MaxDocumentBytes)
	if isJSON(path) {
		limit = MaxDataBytes
	}
	data, err := readCapped(path, limit)
	if err != nil {
		r.warn(path, fsreason.Of(err))
		return
	}
	if r.routeRelease(path, data) {
		return
	}
	if isJSON(path) {
		r.warn(path, "not a file kepbot reads; expected a release-1.N/release-notes/release-notes-draft.json or release-data's kubernetes.json")
		return
	}
	if !utf8.Valid(data) {
		r.warn(path, "not UTF-8 text; save it as UTF-8 Markdown")
		return
	}
	parse := website.Parse
	if hasHan(data) {
		parse = releasenote.Parse
	}
	c, err := parse(filepath.Base(path), data)
	if errors.Is(err, website.ErrDescribesSources) {
		r.Corpus.Skipped = append(r.Corpus.Skipped, knowledge.Skip{Path: path, Reason: "describes where the other documents came from"})
		return
	}
	if err != nil {
		r.warn(path, err.Error())
		return
	}
	for i := range c.Sources {
		if c.Sources[i].Path == "" {
			c.Sources[i].Path = path
		}
	}
	r.Corpus.Add(c)
	r.Files++
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

// hasHan reports whether s holds Chinese characters: such a document is read
// as a Chinese release note.
func hasHan(s []byte) bool {
	n := 0
	for _, r := range string(s) {
		if unicode.Is(unicode.Han, r) {
			n++
			if n > 20 {
				return true
			}
		}
	}
	return false
}
