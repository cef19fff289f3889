package store

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// Info describes the knowledge a store holds, for `bot ingest` reports and
// readiness checks.
type Info struct {
	Path          string             `json:"path"`
	SchemaVersion int                `json:"schema_version"`
	Replaced      time.Time          `json:"replaced"` // the last ReplaceKnowledge; zero before the first
	Stats         knowledge.Stats    `json:"stats"`    // as counted by the last ReplaceKnowledge
	Sources       []knowledge.Source `json:"sources,omitempty"`
}

// Info returns the schema version, when the knowledge was last replaced,
// what that replace counted and the sources it came from, all from one
// transaction. It fails if meta or a source cannot be decoded.
func (s *KnowledgeStore) Info(ctx context.Context) (Info, error) {
	info := Info{Path: s.db.path}
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v, err := readSchema(tx)
		if err != nil {
			return err
		}
		info.SchemaVersion = v
		sum, ok, err := getReplaceSummary(tx)
		if err != nil {
			return err
		}
		if ok {
			info.Replaced = sum.At
			info.Stats = sum.Stats
		}
		info.Sources, err = listSources(tx)
		return err
	})
	return info, err
}

// IsEmpty reports whether the store knows nothing yet: no KEP, no release
// and no source. The bot loads its built-in snapshot into an empty store.
func (s *KnowledgeStore) IsEmpty(ctx context.Context) (bool, error) {
	empty := true
	err := s.view(ctx, func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketKEPs, bucketReleases, bucketSources} {
			if b := tx.Bucket(name); b != nil {
				if k, _ := b.Cursor().First(); k != nil {
					empty = false
				}
			}
		}
		return nil
	})
	return empty, err
}
