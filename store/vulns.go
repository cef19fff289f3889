package store

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// The vulns bucket keeps the vulnerability records in one value:
//
//	vulns   "records"   → 'V' JSON of []knowledge.Vuln
//
// One value, as for the API table: every reader wants all of them at once
// (the engine's catalog, the digests), and they are tens of kilobytes. It
// is rebuilt with the rest of the knowledge; a database written before
// schema 6 has the bucket empty until the next ingest or sync.

// fmtVulns starts the stored records value.
const fmtVulns byte = 0x56 // 'V'

var keyVulns = []byte("records")

func encodeVulns(vs []knowledge.Vuln) ([]byte, error) {
	raw, err := json.Marshal(vs)
	if err != nil {
		return nil, fmt.Errorf("encode vulnerability records: %w", err)
	}
	return append([]byte{fmtVulns}, raw...), nil
}

func decodeVulns(b []byte) ([]knowledge.Vuln, error) {
	if len(b) == 0 || b[0] != fmtVulns {
		return nil, fmt.Errorf("%w: vulnerability records value does not start with format byte 0x%02x", errCorrupt, fmtVulns)
	}
	var vs []knowledge.Vuln
	if err := json.Unmarshal(b[1:], &vs); err != nil {
		return nil, fmt.Errorf("%w: vulnerability records value: %v", errCorrupt, err)
	}
	return vs, nil
}

// ListVulns returns every vulnerability record, by ID: none when the
// knowledge holds none (a database from before schema 6, or one ingested
// without them).
func (s *KnowledgeStore) ListVulns(ctx context.Context) ([]knowledge.Vuln, error) {
	var vs []knowledge.Vuln
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketVulns)
		if b == nil {
			return nil
		}
		raw := b.Get(keyVulns)
		if raw == nil {
			return nil
		}
		var err error
		vs, err = decodeVulns(raw)
		return err
	})
	return vs, err
}
