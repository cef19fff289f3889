package osv

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/internal/fsreason"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// RecordsDir is the folder of a copied database that holds the records,
// as golang/vulndb keeps them (data/osv).
const RecordsDir = "osv"

// IsTree reports whether dir is a copy of a vulnerability database: it
// holds an osv folder with at least one .json file.
func IsTree(dir string) bool {
	ents, err := os.ReadDir(filepath.Join(dir, RecordsDir))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".json") {
			return true
		}
	}
	return false
}

// LoadDir reads every record of the copy at dir (its osv folder), dated by
// its SOURCE.md (never by file times): the records, with one Source for
// the database, and a Skip for each file that is not a readable record.
// It fails when the folder cannot be listed or holds no record at all.
func LoadDir(dir string) (*knowledge.Corpus, error) {
	stamp := provenance.Stamp{}
	if data, err := capped.ReadPath(filepath.Join(dir, provenance.FileName), provenance.MaxSize); err == nil {
		stamp = provenance.Parse(data).Stamp
	}
	recDir := filepath.Join(dir, RecordsDir)
	ents, err := os.ReadDir(recDir)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", recDir, fsreason.Of(err))
	}
	c := &knowledge.Corpus{}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join(recDir, n)
		rel := RecordsDir + "/" + n
		data, err := capped.ReadPath(path, MaxRecordBytes)
		if err != nil {
			c.Skipped = append(c.Skipped, knowledge.Skip{Path: rel, Reason: fsreason.Of(err), Source: SourceID})
			continue
		}
		v, err := Parse(rel, data)
		if err != nil {
			c.Skipped = append(c.Skipped, knowledge.Skip{Path: rel, Reason: err.Error(), Source: SourceID})
			continue
		}
		c.Vulns = append(c.Vulns, *v)
	}
	if len(c.Vulns) == 0 {
		return nil, fmt.Errorf("%s: %w (%d .json files)", recDir, ErrNoRecords, len(names))
	}
	asOf := stamp.Date
	if asOf == "" {
		asOf = newestDay(c.Vulns)
	}
	c.Sources = []knowledge.Source{Source(asOf, stamp)}
	return c, nil
}

// ReadRecord reads one record file as a part of its own: the record and
// the database's Source, dated by stamp (its folder's SOURCE.md), else by
// the record's own modified time.
func ReadRecord(name string, data []byte, stamp provenance.Stamp) (*knowledge.Corpus, error) {
	v, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	asOf := stamp.Date
	if asOf == "" {
		asOf = newestDay([]knowledge.Vuln{*v})
	}
	return &knowledge.Corpus{Sources: []knowledge.Source{Source(asOf, stamp)}, Vulns: []knowledge.Vuln{*v}}, nil
}
