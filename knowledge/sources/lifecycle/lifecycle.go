package lifecycle

import (
	"errors"
	"fmt"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strconv"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// Limits. The real files are 6 KB and 40 KB.
const (
	// MaxLifecycleSize is the largest product file read.
	MaxLifecycleSize = 1 << 20
	// MaxPatchesSize is the largest release-data file read.
	MaxPatchesSize = 8 << 20
	// maxWarnings caps the warnings of one file; one more gives the count
	// of those left out.
	maxWarnings = 200
)

// Source IDs.
const (
	LifecycleSourceID = "endoflife.date/kubernetes.md"
	PatchesSourceID   = "endoflife.date/kubernetes.json"
)

// Errors the parse functions wrap with the file's name; test with errors.Is.
var (
	ErrTooLarge       = errors.New("the file is too large; expected endoflife.date's kubernetes.md (a few KiB) or release-data's kubernetes.json (a few dozen KiB)")
	ErrEmpty          = errors.New("the file is empty; expected endoflife.date's kubernetes.md or release-data's kubernetes.json")
	ErrNotUTF8        = errors.New("the file is not UTF-8 text; expected endoflife.date's kubernetes.md")
	ErrNoFrontMatter  = errors.New("the file has no YAML front matter between --- lines; expected endoflife.date's kubernetes.md")
	ErrNotYAML        = errors.New("the front matter is not valid YAML; expected endoflife.date's kubernetes.md")
	ErrNotKubernetes  = errors.New("the file is about another product; expected endoflife.date's kubernetes.md (title: Kubernetes)")
	ErrNoReleases     = errors.New("the front matter has no releases list; expected entries with releaseCycle, releaseDate, eoas, eol and latest")
	ErrNotJSON        = errors.New(`the file is not a JSON object; expected release-data's kubernetes.json ({"versions": {"1.30.2": {"name": ..., "date": ...}}})`)
	ErrNoVersions     = errors.New(`the file has no versions object; expected release-data's kubernetes.json ({"versions": {"1.30.2": {"name": ..., "date": ...}}})`)
	ErrNothingUsable  = errors.New("no entry of the file could be read; expected Kubernetes releases such as 1.30 or 1.30.2 with their dates")
	ErrNoLifecycleDir = errors.New("no lifecycle file found; expected endoflife.date's kubernetes.md or release-data's kubernetes.json")
)

// Warning is something in a file that was read around (see
// knowledge.FileWarning).
type Warning = knowledge.FileWarning

// warnings collects the warnings of one file, at most maxWarnings.
type warnings struct {
	file   string
	list   []Warning
	unsaid int
}

func (w *warnings) add(entry, problem string) {
	if len(w.list) == maxWarnings {
		w.unsaid++
		return
	}
	w.list = append(w.list, Warning{File: w.file, Entry: entry, Problem: problem})
}

func (w *warnings) done() []Warning {
	if w.unsaid > 0 {
		w.list = append(w.list, Warning{File: w.file, Problem: fmt.Sprintf("%d more warnings left out", w.unsaid)})
	}
	return w.list
}

func fileError(name string, err error) error {
	return fmt.Errorf("lifecycle file %s: %w", name, err)
}

// patchRe is a patch release's name: 1.30.2, v1.30.2.
var patchRe = lazyre.New(`^v?1\.(\d{1,3})\.(\d{1,4})$`)

// parsePatchName returns the release and patch number of "1.30.2".
func parsePatchName(s string) (knowledge.Version, int, bool) {
	m := patchRe().FindStringSubmatch(s)
	if m == nil {
		return knowledge.Version{}, 0, false
	}
	minor, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	return knowledge.Version{Major: 1, Minor: minor}, n, true
}

// day reads a date, 2006-01-02 or a full RFC 3339 time, as its UTC day.
func day(s string) (string, bool) {
	if t, err := time.Parse(time.DateOnly, s); err == nil && t.Year() >= 2014 {
		return t.Format(time.DateOnly), true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil && t.Year() >= 2014 {
		return t.UTC().Format(time.DateOnly), true
	}
	return "", false
}
