package store

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// The feature_gates bucket keeps the feature gates the releases' code
// declares, in one value:
//
//	feature_gates   "table"   → 'F' JSON of gateTable
//
// One value, since its readers want all of it at once (the engine's
// catalog, `bot scan`) and it is some hundred kilobytes. It is rebuilt with
// the rest of the knowledge; a database written before schema 8 has the
// bucket empty until the next ingest or sync. (The gates bucket is
// another thing: kep.yaml's gate names, indexed to their KEPs.)

// fmtFeatureGates starts the stored table value.
const fmtFeatureGates byte = 0x46 // 'F'

var keyFeatureGates = []byte("table")

// gateTable is the stored form of a Knowledge's feature gates.
type gateTable struct {
	Reads []knowledge.GatesRead   `json:"reads,omitempty"`
	Gates []knowledge.FeatureGate `json:"gates,omitempty"`
}

func encodeFeatureGates(k *knowledge.Knowledge) ([]byte, error) {
	raw, err := json.Marshal(gateTable{Reads: k.GateReads, Gates: k.FeatureGates})
	if err != nil {
		return nil, fmt.Errorf("encode feature gates: %w", err)
	}
	return append([]byte{fmtFeatureGates}, raw...), nil
}

func decodeFeatureGates(b []byte) (*gateTable, error) {
	if len(b) == 0 || b[0] != fmtFeatureGates {
		return nil, fmt.Errorf("%w: feature gates value does not start with format byte 0x%02x", errCorrupt, fmtFeatureGates)
	}
	var t gateTable
	if err := json.Unmarshal(b[1:], &t); err != nil {
		return nil, fmt.Errorf("%w: feature gates value: %v", errCorrupt, err)
	}
	return &t, nil
}

// ListFeatureGates returns every feature gate the releases' code declares,
// by name, and the releases read, oldest first. Both are empty when the
// knowledge holds none (a database from before schema 8, or one ingested
// without the feature-gates data).
func (s *KnowledgeStore) ListFeatureGates(ctx context.Context) ([]knowledge.FeatureGate, []knowledge.GatesRead, error) {
	var t *gateTable
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketFeatureGates)
		if b == nil {
			return nil
		}
		raw := b.Get(keyFeatureGates)
		if raw == nil {
			return nil
		}
		var err error
		t, err = decodeFeatureGates(raw)
		return err
	})
	if err != nil || t == nil {
		return nil, nil, err
	}
	return t.Gates, t.Reads, nil
}
