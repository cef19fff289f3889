package osv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// SourceID is the Source every record of the Go vulnerability database
// carries: a refresh replaces them all together.
const SourceID = "go-vulndb"

// SourceName is how answers name the database, with the license its data
// is under (CC-BY-4.0 asks for the attribution).
const SourceName = "Go vulnerability database (vuln.go.dev, CC-BY-4.0)"

// MaxRecordBytes caps one record read; the largest Kubernetes record is a
// few KiB.
const MaxRecordBytes = 1 << 20

// record is an OSV record as the Go vulnerability database writes it
// (OSV schema 1.3; ossf/osv-schema, docs/schema.md).
type record struct {
	SchemaVersion    string           `json:"schema_version"`
	ID               string           `json:"id"`
	Modified         string           `json:"modified"`
	Published        string           `json:"published"`
	Withdrawn        string           `json:"withdrawn"`
	Aliases          []string         `json:"aliases"`
	Summary          string           `json:"summary"`
	Details          string           `json:"details"`
	Affected         []affected       `json:"affected"`
	References       []reference      `json:"references"`
	DatabaseSpecific databaseSpecific `json:"database_specific"`
}

type affected struct {
	Package           pkg               `json:"package"`
	Ranges            []osvRange        `json:"ranges"`
	EcosystemSpecific ecosystemSpecific `json:"ecosystem_specific"`
}

type pkg struct {
	Name      string `json:"name"`
	Ecosystem string `json:"ecosystem"`
}

type osvRange struct {
	Type   string  `json:"type"`
	Events []event `json:"events"`
}

type event struct {
	Introduced   string `json:"introduced"`
	Fixed        string `json:"fixed"`
	LastAffected string `json:"last_affected"`
	Limit        string `json:"limit"`
}

type reference struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// ecosystemSpecific is what the Go database adds to an affected module:
// the packages (and symbols) it names, and ranges in the product's own
// releases where the module's versions cannot say.
type ecosystemSpecific struct {
	Imports []struct {
		Path string `json:"path"`
	} `json:"imports"`
	CustomRanges []osvRange `json:"custom_ranges"`
}

type databaseSpecific struct {
	URL          string `json:"url"`
	ReviewStatus string `json:"review_status"`
}

// IsRecord reports whether data looks like one OSV record: a JSON object
// with an id and affected modules (or a withdrawal).
func IsRecord(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	var probe struct {
		ID        string          `json:"id"`
		Affected  json.RawMessage `json:"affected"`
		Withdrawn string          `json:"withdrawn"`
	}
	if json.Unmarshal(t, &probe) != nil {
		return false
	}
	return probe.ID != "" && (len(probe.Affected) > 0 || probe.Withdrawn != "")
}

// Parse reads one OSV record, named name in errors. It fails on a record
// that is not JSON, has no ID, or whose events are not single events.
func Parse(name string, data []byte) (*knowledge.Vuln, error) {
	if len(data) > MaxRecordBytes {
		return nil, fmt.Errorf("%s: over %d KiB, larger than any OSV record", name, MaxRecordBytes>>10)
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not an OSV record: %v", name, err)
	}
	if strings.TrimSpace(r.ID) == "" {
		return nil, fmt.Errorf("%s: an OSV record needs an id", name)
	}
	v := &knowledge.Vuln{
		ID: r.ID, Aliases: r.Aliases, Summary: strings.TrimSpace(r.Summary), Details: strings.TrimSpace(r.Details),
		Published: realTime(r.Published), Modified: realTime(r.Modified), Withdrawn: realTime(r.Withdrawn),
		URL: r.DatabaseSpecific.URL, Review: r.DatabaseSpecific.ReviewStatus, Source: SourceID,
	}
	for _, a := range r.Affected {
		if a.Package.Name == "" {
			return nil, fmt.Errorf("%s: an affected entry names no package", name)
		}
		va := knowledge.VulnAffected{Module: a.Package.Name, Ecosystem: a.Package.Ecosystem}
		var err error
		if va.Ranges, err = ranges(a.Ranges); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, a.Package.Name, err)
		}
		if va.Custom, err = ranges(a.EcosystemSpecific.CustomRanges); err != nil {
			return nil, fmt.Errorf("%s: %s: custom ranges: %w", name, a.Package.Name, err)
		}
		for _, im := range a.EcosystemSpecific.Imports {
			if im.Path != "" {
				va.Packages = append(va.Packages, im.Path)
			}
		}
		v.Affected = append(v.Affected, va)
	}
	for _, ref := range r.References {
		if ref.URL != "" {
			v.References = append(v.References, knowledge.VulnReference{Type: ref.Type, URL: ref.URL})
		}
	}
	return v, nil
}

// ranges turns OSV ranges into the knowledge's, keeping the events in the
// record's order. Each event must set exactly one field.
func ranges(rs []osvRange) ([]knowledge.VulnRange, error) {
	var out []knowledge.VulnRange
	for _, r := range rs {
		kr := knowledge.VulnRange{Type: r.Type}
		for i, e := range r.Events {
			set := 0
			for _, f := range []string{e.Introduced, e.Fixed, e.LastAffected, e.Limit} {
				if f != "" {
					set++
				}
			}
			if set != 1 {
				return nil, fmt.Errorf("%s range, event %d: an event gives exactly one of introduced, fixed, last_affected and limit", r.Type, i+1)
			}
			kr.Events = append(kr.Events, knowledge.VulnEvent{Introduced: e.Introduced, Fixed: e.Fixed, LastAffected: e.LastAffected, Limit: e.Limit})
		}
		out = append(out, kr)
	}
	return out, nil
}

// realTime returns an RFC 3339 time in UTC, or "" for one that is missing,
// unreadable or a placeholder before 1970 (the copies in the shared tree
// say 0001-01-01).
func realTime(s string) string {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil || t.Year() < 1970 {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Source is the database as a Source, speaking for asOf (a day).
func Source(asOf string, stamp provenance.Stamp) knowledge.Source {
	return knowledge.Source{ID: SourceID, Name: SourceName, Kind: knowledge.SourceVulnDB, Lang: "en", AsOf: asOf,
		Commit: stamp.Commit, URL: "https://pkg.go.dev/vuln/"}
}

// newestDay is the day of the newest Modified among vs, "" when none
// gives one.
func newestDay(vs []knowledge.Vuln) string {
	newest := ""
	for _, v := range vs {
		if len(v.Modified) >= 10 {
			newest = max(newest, v.Modified[:10])
		}
	}
	return newest
}

// ErrNoRecords is a folder or download that holds no OSV record.
var ErrNoRecords = errors.New("no OSV record found")
