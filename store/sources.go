package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// Keys in meta for what the refresher remembers:
//
//	sources     JSON map[name]SourceState: each source's last request and outcome
//	generation  8 bytes, big-endian: bumped by every knowledge replace
//	sync        JSON of schema 2's single kep.yaml sync state; read once, as "kep.yaml"
var (
	keySources    = []byte("sources")
	keyGeneration = []byte("generation")
	keySync       = []byte("sync")
)

// maxSourceStates bounds the states kept; the registry has a few dozen.
const maxSourceStates = 1000

// SourcesReader is what reads a knowledge store's corpus, its sources and
// their states: the part a refresh and a replica's sync share
// (*KnowledgeStore is one).
type SourcesReader interface {
	LoadCorpus(ctx context.Context) (*knowledge.Corpus, error)
	IsEmpty(ctx context.Context) (bool, error)
	ListSources(ctx context.Context) ([]knowledge.Source, error)
	SourceStates(ctx context.Context) (map[string]SourceState, error)
}

var _ SourcesReader = (*KnowledgeStore)(nil)

// SourceState is what the refresher remembers of one source between runs:
// how to ask it for news cheaply (ETag, Last-Modified), which parts of the
// knowledge it gave (IDs, replaced at its next change), and how its last
// requests went, for backoff, metrics and staleness notes.
type SourceState struct {
	// URL is where it was last read from: an http(s) URL without user info,
	// query or fragment (it is stored and printed, so it never carries a
	// token), or a file:// URL for a local copy.
	URL          string `json:"url,omitempty"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	Commit       string `json:"commit,omitempty"` // the repository commit read, when known
	// IDs are the knowledge.Source IDs its last change gave the corpus.
	IDs []string `json:"ids,omitempty"`

	Checked   time.Time `json:"checked,omitzero"`   // last asked
	Succeeded time.Time `json:"succeeded,omitzero"` // last answered with news or with "nothing new"
	Changed   time.Time `json:"changed,omitzero"`   // last replaced its part of the knowledge
	// Result is how the last request went: "updated", "not modified",
	// "not published" (an optional source that does not exist yet) or
	// "failed"; Error says why it failed, redacted.
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
	// FailingSince is when the failures in a row began; zero when the
	// last request succeeded. Failures counts them; RetryAt is when the
	// source may be asked again (backoff, Retry-After, rate limits).
	FailingSince time.Time `json:"failing_since,omitzero"`
	Failures     int       `json:"failures,omitempty"`
	RetryAt      time.Time `json:"retry_at,omitzero"`
}

// validate refuses a state whose URL could carry a secret.
func (st SourceState) validate() error {
	if st.URL == "" {
		return nil
	}
	u, err := url.Parse(st.URL)
	if err != nil {
		return fmt.Errorf("the URL does not parse: %w", err)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("the URL carries user info, a query or a fragment; store it without them, as they may hold a token")
	}
	return nil
}

func validateStates(states map[string]SourceState) error {
	if len(states) > maxSourceStates {
		return fmt.Errorf("%d source states; at most %d are kept", len(states), maxSourceStates)
	}
	for _, name := range slices.Sorted(maps.Keys(states)) {
		if err := states[name].validate(); err != nil {
			return fmt.Errorf("source state %q: %w", name, err)
		}
	}
	return nil
}

// SourceStates returns what the refresher recorded of every source, by
// name; an empty map before the first refresh. A database an older kepbot
// synced gives its kep.yaml state under the name "kep.yaml". It fails when
// the stored states cannot be decoded.
func (s *KnowledgeStore) SourceStates(ctx context.Context) (map[string]SourceState, error) {
	var out map[string]SourceState
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = getSourceStates(tx)
		return err
	})
	return out, err
}

// SaveSourceStates records states alone, the knowledge untouched: a
// refresh that found nothing new, or only failures. It fails when a state's
// URL carries user info, a query or a fragment.
func (s *KnowledgeStore) SaveSourceStates(ctx context.Context, states map[string]SourceState) error {
	if err := validateStates(states); err != nil {
		return fmt.Errorf("save source states: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("save source states: %w", err)
	}
	if err := s.db.bolt.Update(func(tx *bolt.Tx) error { return putSourceStates(tx, states) }); err != nil {
		return fmt.Errorf("save source states: %w", err)
	}
	return nil
}

// ReplaceWithSources is ReplaceKnowledge that records states in the same
// transaction: readers see the old knowledge and the old states, or the
// new knowledge, its corpus and the new states, never a mix. It fails as
// ReplaceKnowledge does, and as SaveSourceStates does, leaving the
// database exactly as it was.
func (s *KnowledgeStore) ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]SourceState) error {
	if err := validateStates(states); err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	return s.replace(ctx, k, states)
}

// Generation returns the knowledge's generation: 0 for a database never
// replaced, bumped by every replace. Caches of answers key on it.
func (s *KnowledgeStore) Generation(ctx context.Context) (uint64, error) {
	var g uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		g = getGeneration(tx)
		return nil
	})
	return g, err
}

func getGeneration(tx *bolt.Tx) uint64 {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0
	}
	raw := meta.Get(keyGeneration)
	if len(raw) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(raw)
}

// bumpGeneration adds one to the generation in tx.
func bumpGeneration(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return fmt.Errorf("bucket %s is missing", bucketMeta)
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], getGeneration(tx)+1)
	if err := meta.Put(keyGeneration, b[:]); err != nil {
		return fmt.Errorf("write generation: %w", err)
	}
	return nil
}

func putSourceStates(tx *bolt.Tx, states map[string]SourceState) error {
	raw, err := json.Marshal(states)
	if err != nil {
		return fmt.Errorf("encode source states: %w", err)
	}
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return fmt.Errorf("bucket %s is missing", bucketMeta)
	}
	if err := meta.Put(keySources, raw); err != nil {
		return fmt.Errorf("write source states: %w", err)
	}
	if meta.Get(keySync) != nil {
		if err := meta.Delete(keySync); err != nil { // taken over by keySources
			return fmt.Errorf("drop the old sync state: %w", err)
		}
	}
	return nil
}

// legacySync is schema 2's sync state of kep.yaml alone.
type legacySync struct {
	URL     string    `json:"url,omitempty"`
	ETag    string    `json:"etag,omitempty"`
	Commit  string    `json:"commit,omitempty"`
	Synced  time.Time `json:"synced,omitzero"`
	Checked time.Time `json:"checked,omitzero"`
}

func getSourceStates(tx *bolt.Tx) (map[string]SourceState, error) {
	out := map[string]SourceState{}
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return out, nil
	}
	if raw := meta.Get(keySources); raw != nil {
		if err := json.Unmarshal(raw, &out); err != nil {
			return nil, fmt.Errorf("read source states: %w: %v", errCorrupt, err)
		}
		return out, nil
	}
	if raw := meta.Get(keySync); raw != nil {
		var old legacySync
		if err := json.Unmarshal(raw, &old); err != nil {
			return nil, fmt.Errorf("read sync state: %w: %v", errCorrupt, err)
		}
		out[LegacySyncName] = SourceState{URL: old.URL, ETag: old.ETag, Commit: old.Commit,
			Checked: old.Checked, Succeeded: old.Checked, Changed: old.Synced}
	}
	return out, nil
}

// LegacySyncName is the source name a schema 2 database's kep.yaml sync
// state is read under.
const LegacySyncName = "kep.yaml"
