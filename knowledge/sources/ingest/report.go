package ingest

import (
	"encoding/json"
	"io"

	"github.com/kepbot/kepbot/knowledge"
)

// Report is `bot ingest`'s report for scripts (--json): what WriteSummary
// says, as one object, with the exit code the command ends with. When the
// ingest failed, Error says why and the counts are zero.
type Report struct {
	Database   string          `json:"database"`
	Files      int             `json:"files"` // documents, folders and archives read
	Generation uint64          `json:"generation,omitempty"`
	Stats      knowledge.Stats `json:"stats"`
	// Announced are the releases a document announces.
	Announced []string `json:"releases_announced"`
	// Sources are every source read, with the commit and date each says.
	Sources []knowledge.Source `json:"sources"`
	// Changes, Lifecycles and Patches count the release notes as data,
	// the minor releases' lifecycles and the patch releases read.
	Changes    int         `json:"release_note_entries"`
	Lifecycles int         `json:"lifecycles"`
	Patches    int         `json:"patches"`
	APIs       []APIReport `json:"api_modules,omitempty"`
	Warnings   []Warning   `json:"warnings"` // files that could not be read
	Notes      []Warning   `json:"notes"`    // what was read around inside files
	Exit       int         `json:"exit"`
	Error      string      `json:"error,omitempty"`
}

// NewReport is the report of an ingest into the database at path that
// read res (nil when Load failed) and made k (nil when nothing was made).
func NewReport(path string, res *Result, k *knowledge.Knowledge) Report {
	r := Report{Database: path, Announced: []string{}, Sources: []knowledge.Source{}, Warnings: []Warning{}, Notes: []Warning{}}
	if res != nil {
		r.Files, r.APIs = res.Files, res.APIReports
		r.Warnings = append(r.Warnings, res.Warnings...)
		r.Notes = append(r.Notes, res.Notes...)
		if c := res.Corpus; c != nil {
			r.Changes, r.Lifecycles, r.Patches = len(c.Changes), len(c.Lifecycles), len(c.Patches)
		}
	}
	if k != nil {
		r.Stats = k.Stats()
		r.Sources = append(r.Sources, k.Sources...)
		for _, rel := range k.Releases {
			if len(rel.Sources) > 0 {
				r.Announced = append(r.Announced, rel.Version.String())
			}
		}
	}
	return r
}

// WriteJSON writes r as one JSON object and a newline.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
