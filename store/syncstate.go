package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// keySync is the meta key of the SyncState, kept as JSON so that
// `bbolt get` shows it plainly.
var keySync = []byte("sync")

// SyncState is what `bot sync` remembers between runs: where it last read
// kep.yaml from, the ETag and commit it got, and when it last replaced the
// knowledge and last looked for news.
type SyncState struct {
	// URL is where the last sync read from: an https URL without user info
	// or query (it is stored and printed, so it never carries a token), or
	// a file:// URL for `bot sync --from`.
	URL string `json:"url,omitempty"`
	// ETag is the server's entity tag for what was read, sent back as
	// If-None-Match next time; empty for a local source.
	ETag string `json:"etag,omitempty"`
	// Commit is the kubernetes/enhancements commit read, when known.
	Commit string `json:"commit,omitempty"`
	// Synced is when a sync last replaced the knowledge.
	Synced time.Time `json:"synced,omitzero"`
	// Checked is when a sync last asked the source for news, whether or not
	// it found any.
	Checked time.Time `json:"checked,omitzero"`
}

// IsZero reports whether no sync ever ran.
func (st SyncState) IsZero() bool { return st == SyncState{} }

// validate refuses a state whose URL could carry a secret.
func (st SyncState) validate() error {
	if st.URL == "" {
		return nil
	}
	u, err := url.Parse(st.URL)
	if err != nil {
		return fmt.Errorf("sync state: the URL does not parse: %w", err)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("sync state: the URL carries user info, a query or a fragment; store it without them, as they may hold a token")
	}
	return nil
}

// SyncState returns what the last sync recorded; the zero SyncState before
// the first. It fails when the stored state cannot be decoded.
func (s *KnowledgeStore) SyncState(ctx context.Context) (SyncState, error) {
	var st SyncState
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		st, err = getSyncState(tx)
		return err
	})
	return st, err
}

// SaveSyncState records st alone, as a sync that found nothing new does:
// one small write to meta, the knowledge untouched. It fails when st.URL
// carries user info, a query or a fragment.
func (s *KnowledgeStore) SaveSyncState(ctx context.Context, st SyncState) error {
	if err := st.validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save sync state: %w", err)
	}
	err := s.db.bolt.Update(func(tx *bolt.Tx) error { return putSyncState(tx, st) })
	if err != nil {
		return fmt.Errorf("save sync state: %w", err)
	}
	return nil
}

// ReplaceWithSync is ReplaceKnowledge that records st in the same
// transaction: readers see the old knowledge and the old state, or the new
// knowledge, its corpus and the new state, never a mix. It fails as
// ReplaceKnowledge does, and when st.URL carries user info, a query or a
// fragment, leaving the database exactly as it was.
func (s *KnowledgeStore) ReplaceWithSync(ctx context.Context, k *knowledge.Knowledge, st SyncState) error {
	if err := st.validate(); err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	return s.replace(ctx, k, &st)
}

func putSyncState(tx *bolt.Tx, st SyncState) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode sync state: %w", err)
	}
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return fmt.Errorf("bucket %s is missing", bucketMeta)
	}
	if err := meta.Put(keySync, raw); err != nil {
		return fmt.Errorf("write sync state: %w", err)
	}
	return nil
}

func getSyncState(tx *bolt.Tx) (SyncState, error) {
	var st SyncState
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return st, nil
	}
	raw := meta.Get(keySync)
	if raw == nil {
		return st, nil
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return SyncState{}, fmt.Errorf("read sync state: %w: %v", errCorrupt, err)
	}
	return st, nil
}
