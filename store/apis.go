package store

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// The apis bucket keeps the joined API lifecycle table in one value:
//
//	apis   "table"   → 'A' JSON of apiTable
//
// One value, since every reader wants all of it at once (`bot scan`, the
// engine's catalog) and it is a few hundred kilobytes. It is rebuilt with
// the rest of the knowledge; a database written before schema 5 has the
// bucket empty until the next ingest or sync.

// fmtAPIs starts the stored table value.
const fmtAPIs byte = 0x41 // 'A'

var keyAPIs = []byte("table")

// apiTable is the stored form of a Knowledge's API lifecycle.
type apiTable struct {
	Releases []knowledge.Version      `json:"releases,omitempty"`
	Types    []knowledge.APILifecycle `json:"types,omitempty"`
}

func encodeAPIs(k *knowledge.Knowledge) ([]byte, error) {
	raw, err := json.Marshal(apiTable{Releases: k.APIReleases, Types: k.APIs})
	if err != nil {
		return nil, fmt.Errorf("encode API lifecycle: %w", err)
	}
	return append([]byte{fmtAPIs}, raw...), nil
}

func decodeAPIs(b []byte) (*apiTable, error) {
	if len(b) == 0 || b[0] != fmtAPIs {
		return nil, fmt.Errorf("%w: API lifecycle value does not start with format byte 0x%02x", errCorrupt, fmtAPIs)
	}
	var t apiTable
	if err := json.Unmarshal(b[1:], &t); err != nil {
		return nil, fmt.Errorf("%w: API lifecycle value: %v", errCorrupt, err)
	}
	return &t, nil
}

// ListAPIs returns the joined API lifecycle of every API type, by group,
// version and kind, and the releases whose API modules were read, oldest
// first. Both are empty when the knowledge holds no API lifecycle (a
// database from before schema 5, or one ingested without the API modules).
func (s *KnowledgeStore) ListAPIs(ctx context.Context) ([]knowledge.APILifecycle, []knowledge.Version, error) {
	var t *apiTable
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketAPIs)
		if b == nil {
			return nil
		}
		raw := b.Get(keyAPIs)
		if raw == nil {
			return nil
		}
		var err error
		t, err = decodeAPIs(raw)
		return err
	})
	if err != nil || t == nil {
		return nil, nil, err
	}
	return t.Types, t.Releases, nil
}
