package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// SchemaVersion is the layout of buckets, keys and values this package
// reads and writes. Open refuses a database whose meta bucket names a later
// one, so an old kepbot never misreads what a new one wrote.
//
// Version 2 added the gates and corpus buckets, the sync state in meta and
// KEP values with Disagreements. Open upgrades a version 1 database in place
// (see upgradeFromV1): it stays readable, without a corpus until the next
// `bot ingest`.
//
// Version 3 added the release_changes and release_patches buckets, and new
// layouts of KEP, release and notice values (with release-note entries,
// lifecycle dates and PR links); the older layouts are still read, so a
// version 2 database needs only the new buckets, which stay empty until the
// next ingest or sync.
//
// Version 4 added KEPVia to notice values and numbers the notice ledger by
// notice aliases (ledger.go). Nothing is rewritten on open: schema 3
// notices still read (their KEP counts as their document's until the next
// replace), and the ledger's schema 3 keys are still read. An older
// kepbot must not open it: it would number every notice again by its own
// keys and send it as new.
//
// Version 5 added the apis bucket (the joined API lifecycle table). Opening
// a version 4 database adds it empty: the next ingest or sync fills it.
//
// Version 6 added the vulns bucket (the vulnerability records). Opening a
// version 5 database adds it empty: the next ingest or sync fills it. An
// older kepbot must not open it: its replace would leave the records of
// the knowledge it replaced behind.
//
// Version 7 added Label to notice values (the kind of notice upstream's
// label gives a release-note entry kepbot reads otherwise) with the kinds
// an API's replacement is for, and ToldBy to item values (every source
// that tells one graduation). Version 6 values still read, without them,
// until the next ingest or sync; an older kepbot must not open it, since
// it cannot read the new values.
//
// Version 8 added the feature_gates bucket (the feature gates each
// release's code declares) and KEP values with what shipped (format 'm':
// YAMLThrough and Shipped; 'l' values still read, without them). Opening a
// version 5, 6 or 7 database adds the bucket empty: the next ingest or
// sync fills it. An older kepbot must not open it: its replace would leave
// the gates of the knowledge it replaced behind.
const SchemaVersion = 8

// Bucket names. The knowledge buckets are dropped and rebuilt by every
// ReplaceKnowledge. meta belongs to the database; the user-state buckets a
// later schema adds (subscriptions, outbox) must never join knowledgeBuckets,
// so a knowledge replace cannot touch them.
var (
	bucketMeta     = []byte("meta")
	bucketKEPs     = []byte("keps")
	bucketReleases = []byte("releases")
	bucketItems    = []byte("release_items")
	bucketNotices  = []byte("release_notices")
	bucketSources  = []byte("sources")
	bucketGates    = []byte("gates")
	bucketCorpus   = []byte("corpus")
	bucketChanges  = []byte("release_changes")
	bucketPatches  = []byte("release_patches")
	bucketAPIs     = []byte("apis")
	bucketVulns    = []byte("vulns")
	// bucketFeatureGates is the releases' declared gates (featuregates.go);
	// bucketGates is kep.yaml's gate names indexed to their KEPs (gates.go).
	bucketFeatureGates = []byte("feature_gates")

	knowledgeBuckets = [][]byte{bucketKEPs, bucketReleases, bucketItems, bucketNotices, bucketSources, bucketGates, bucketCorpus,
		bucketChanges, bucketPatches, bucketAPIs, bucketVulns, bucketFeatureGates}
)

// Keys in the meta bucket.
var (
	keySchemaVersion = []byte("schema_version") // decimal text, e.g. "2"
	keyLastReplace   = []byte("last_replace")   // JSON replaceSummary
	// keySources, keyGeneration and keySync are in sources.go.
)

// replaceSummary is what meta keeps about the last ReplaceKnowledge. It is
// JSON so that `bbolt get` shows it plainly; it is read only for reports.
type replaceSummary struct {
	At      time.Time       `json:"at"`
	Stats   knowledge.Stats `json:"stats"`
	Sources []string        `json:"sources,omitempty"` // Source.IDs
}

// schemaProblem is why a database cannot be used: a kind (ErrNotDatabase,
// ErrNewerSchema) and a message for the person who gave its path.
type schemaProblem struct {
	kind error
	msg  string
}

func (p *schemaProblem) Error() string { return p.msg }

// readSchema returns the schema version a database holds, or 0 for a
// database with no buckets at all (a new file). It returns *schemaProblem
// for a bbolt file kepbot did not write or cannot read.
func readSchema(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		var other []byte
		_ = tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			other = append([]byte(nil), name...)
			return errStopIteration
		})
		if other == nil {
			return 0, nil
		}
		return 0, &schemaProblem{ErrNotDatabase, fmt.Sprintf(
			"this is a bbolt database, but not kepbot's: it has a bucket %q and no meta bucket; "+
				"use --db with the path of a kepbot database, or a path that does not exist yet to start a new one", other)}
	}
	raw := meta.Get(keySchemaVersion)
	if raw == nil {
		return 0, &schemaProblem{ErrNotDatabase,
			"this database's meta bucket has no schema_version, so kepbot did not write it or it is damaged; " +
				"use --db with another path, or restore a backup"}
	}
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 1 {
		return 0, &schemaProblem{ErrNotDatabase, fmt.Sprintf(
			"this database's schema_version is %q, not a version number, so it is damaged; use --db with another path, or restore a backup", raw)}
	}
	if v > SchemaVersion {
		return v, &schemaProblem{ErrNewerSchema, fmt.Sprintf(
			"this database was written by a newer kepbot (schema version %d; this kepbot reads version %d and older); "+
				"upgrade kepbot, or use --db with another path", v, SchemaVersion)}
	}
	return v, nil
}

// needsSetup reports whether setupSchema has anything to do.
func needsSetup(tx *bolt.Tx, version int) bool {
	if version != SchemaVersion {
		return true
	}
	for _, name := range knowledgeBuckets {
		if tx.Bucket(name) == nil {
			return true
		}
	}
	return false
}

// setupSchema makes a new database a kepbot one, and brings an older
// schema up to SchemaVersion. It also recreates any knowledge bucket that
// is missing, so readers can rely on them.
func setupSchema(tx *bolt.Tx, from int) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketMeta, err)
	}
	for _, name := range knowledgeBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	if from == 1 {
		if err := upgradeFromV1(tx); err != nil {
			return err
		}
	}
	if err := meta.Put(keySchemaVersion, []byte(strconv.Itoa(SchemaVersion))); err != nil {
		return fmt.Errorf("write schema version: %w", err)
	}
	return nil
}

// upgradeFromV1 builds the feature gate index from the KEPs a version 1
// database holds. Their values keep the version 1 layout, which decodeKEP
// reads (with no Disagreements); the next replace rewrites them. Version 1
// kept no corpus, so LoadCorpus says to re-run `bot ingest`.
func upgradeFromV1(tx *bolt.Tx) error {
	var keps []knowledge.KEP
	err := tx.Bucket(bucketKEPs).ForEach(func(k, raw []byte) error {
		kp, err := decodeKEP(raw)
		if err != nil {
			if n, kerr := kepFromKey(k); kerr == nil {
				return fmt.Errorf("KEP-%d: %w", n, err)
			}
			return fmt.Errorf("KEP key %x: %w", k, err)
		}
		keps = append(keps, *kp)
		return nil
	})
	if err == nil {
		w := &writer{ctx: context.Background(), tx: tx}
		err = w.gates(tx.Bucket(bucketGates), keps)
	}
	if err != nil {
		return &schemaProblem{ErrNotDatabase, fmt.Sprintf(
			"this database was written by an older kepbot (schema version 1) and cannot be upgraded (%v); "+
				"move it aside and re-run `bot ingest`, or use --db with another path", err)}
	}
	return nil
}

// putReplaceSummary records a knowledge replace in meta.
func putReplaceSummary(tx *bolt.Tx, sum replaceSummary) error {
	raw, err := json.Marshal(sum)
	if err != nil {
		return fmt.Errorf("encode replace summary: %w", err)
	}
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return fmt.Errorf("bucket %s is missing", bucketMeta)
	}
	if err := meta.Put(keyLastReplace, raw); err != nil {
		return fmt.Errorf("write replace summary: %w", err)
	}
	return nil
}

// getReplaceSummary reads what putReplaceSummary wrote; ok is false before
// the first replace.
func getReplaceSummary(tx *bolt.Tx) (sum replaceSummary, ok bool, err error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return sum, false, nil
	}
	raw := meta.Get(keyLastReplace)
	if raw == nil {
		return sum, false, nil
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		return sum, false, fmt.Errorf("read replace summary: %w: %v", errCorrupt, err)
	}
	return sum, true, nil
}
