package store

import (
	"context"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// Shared is the state that every replica of kepbot must see alike: the
// subscriptions, the notice ledger, the digest outbox and its schedule
// runs, each source's refresh state and the knowledge generation. It has
// two implementations: the bbolt file of a single process ((*DB).Shared)
// and etcd for several replicas (package store/etcdstore). One contract
// suite (package store/storetest) runs against both.
//
// ReplaceWithSources replaces the knowledge and records the sources'
// states with it, bumping the generation: in bbolt that is the local
// knowledge itself; in etcd it publishes the corpus for every replica to
// load. Every method fails with a wrapped error when the state cannot be
// reached, and leaves nothing half-written.
type Shared interface {
	digest.SubscriptionStore
	digest.NoticeLedger
	digest.Outbox

	// FindDelivery returns one delivery; ENOTFOUND when there is none.
	FindDelivery(ctx context.Context, key string) (*digest.Delivery, error)
	// ListDeliveries returns every delivery, by key.
	ListDeliveries(ctx context.Context) ([]digest.Delivery, error)
	// LastRun returns when a digest schedule last ran, or the zero time.
	LastRun(ctx context.Context, name string) (time.Time, error)
	// SetLastRun records that a digest schedule ran for the time at.
	SetLastRun(ctx context.Context, name string, at time.Time) error

	// SourceStates returns what the refresher recorded of every source.
	SourceStates(ctx context.Context) (map[string]SourceState, error)
	// SaveSourceStates records states alone, the knowledge untouched.
	SaveSourceStates(ctx context.Context, states map[string]SourceState) error
	// ReplaceWithSources replaces the knowledge with k (its Corpus is what
	// replicas rebuild it from) and records states, in one step.
	ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]SourceState) error
	// Generation returns the knowledge's generation: 0 before the first
	// replace, bumped by each.
	Generation(ctx context.Context) (uint64, error)
}

// Shared returns the state of db as one Shared: the single-process
// implementation.
func (db *DB) Shared() Shared {
	return sharedDB{db.Subscriptions(), db.Outbox(), db.Knowledge()}
}

// sharedDB joins the bbolt stores into one Shared.
type sharedDB struct {
	*SubscriptionStore
	*Outbox
	kb *KnowledgeStore
}

func (s sharedDB) SourceStates(ctx context.Context) (map[string]SourceState, error) {
	return s.kb.SourceStates(ctx)
}

func (s sharedDB) SaveSourceStates(ctx context.Context, states map[string]SourceState) error {
	return s.kb.SaveSourceStates(ctx, states)
}

func (s sharedDB) ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]SourceState) error {
	return s.kb.ReplaceWithSources(ctx, k, states)
}

func (s sharedDB) Generation(ctx context.Context) (uint64, error) { return s.kb.Generation(ctx) }

// ValidateSourceStates refuses states a store must not keep: too many, or
// a URL that could carry a secret (user info, a query, a fragment).
func ValidateSourceStates(states map[string]SourceState) error { return validateStates(states) }

// EncodeCorpus returns the stored form of c: a format byte, then gzip of
// its JSON. Another store keeps the same bytes (etcd, in chunks).
func EncodeCorpus(c *knowledge.Corpus) ([]byte, error) { return encodeCorpus(c) }

// DecodeCorpus reads what EncodeCorpus wrote. It fails on anything else,
// including JSON that inflates past 1 GiB.
func DecodeCorpus(b []byte) (*knowledge.Corpus, error) { return decodeCorpus(b) }

// LedgerKey is the form a notice key is kept under in the ledger: as it
// is, or its sha256 when it is empty or over 512 bytes.
func LedgerKey(k string) string { return string(ledgerKey(k)) }
