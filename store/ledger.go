package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// The notice ledger (bucket notice_ledger) maps each notice alias
// (digest.NoticeAliases, "removal|1.27|gate=ipv6dualstack") to the
// sequence of the digest item it was first numbered in, 8 bytes
// big-endian; the bucket's own sequence is the last one given. A ledger a
// kepbot before aliases wrote also holds that kepbot's keys
// (digest.NoticeKey then, "removal|1.27|kep:2079"): they are never
// written again, and ObserveNotices reads them as the items' legacy keys,
// so that what was delivered before the upgrade stays delivered. The key
// ledgerFormat marks a ledger that has numbered by aliases: from then on
// the keys an item has only at the upgrade (LegacyAtUpgrade) no longer
// count.
var ledgerFormat = []byte("\x00format") // → "aliases"; no alias or old key starts with a zero byte

// maxLedgerKey is the longest notice key kept as it is; longer ones are
// kept as their sha256, so a notice with a huge title stays a small key.
const maxLedgerKey = 512

// ObserveNotices numbers each identity as digest.NoticeLedger says: the
// smallest sequence any of its aliases or legacy keys (and, the first time
// after the upgrade, its LegacyAtUpgrade keys) holds, else the next one;
// aliases not recorded yet are recorded with it. When every alias is
// recorded it only reads.
func (s *SubscriptionStore) ObserveNotices(ctx context.Context, ids []digest.NoticeIdentity) ([]digest.NoticeSeq, error) {
	var out []digest.NoticeSeq
	complete := false
	err := userView(ctx, s.db, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLedger)
		if b == nil || b.Get(ledgerFormat) == nil {
			return nil
		}
		out = make([]digest.NoticeSeq, len(ids))
		for i, id := range ids {
			seq, missing := lookupIdentity(b, id)
			if missing > 0 || len(id.Aliases) == 0 {
				return nil
			}
			out[i] = seq
		}
		complete = true
		return nil
	})
	if err != nil || complete {
		return out, err
	}
	err = userUpdate(ctx, s.db, func(tx *bolt.Tx) (bool, error) {
		b, err := tx.CreateBucketIfNotExists(bucketLedger)
		if err != nil {
			return false, err
		}
		upgrade := b.Get(ledgerFormat) == nil
		out = make([]digest.NoticeSeq, len(ids))
		for i, id := range ids {
			if out[i], err = observe(b, id, upgrade); err != nil {
				return false, err
			}
		}
		return true, b.Put(ledgerFormat, []byte("aliases"))
	})
	if err != nil {
		return nil, fmt.Errorf("observe notices: %w", err)
	}
	return out, nil
}

// lookupIdentity returns the span of sequences id's aliases and legacy
// keys hold, and how many of its aliases hold none.
func lookupIdentity(b *bolt.Bucket, id digest.NoticeIdentity) (digest.NoticeSeq, int) {
	seq, missing := lookup(b, id.Aliases)
	old, _ := lookup(b, id.Legacy)
	return seq.Join(old), missing
}

// observe numbers one identity and records its aliases not recorded yet;
// at the upgrade, its LegacyAtUpgrade keys count too.
func observe(b *bolt.Bucket, id digest.NoticeIdentity, upgrade bool) (digest.NoticeSeq, error) {
	seq, missing := lookupIdentity(b, id)
	if upgrade {
		old, _ := lookup(b, id.LegacyAtUpgrade)
		seq = seq.Join(old)
	}
	if missing == 0 && seq.First > 0 {
		return seq, nil
	}
	if seq.First == 0 {
		n, err := b.NextSequence()
		if err != nil {
			return seq, err
		}
		seq = digest.NoticeSeq{First: n, Last: n}
	}
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], seq.First)
	for _, a := range id.Aliases {
		k := ledgerKey(a)
		if len(b.Get(k)) != 8 {
			if err := b.Put(k, v[:]); err != nil {
				return seq, err
			}
		}
	}
	return seq, nil
}

// lookup returns the smallest and largest sequence keys hold (zero when
// none does) and how many hold none.
func lookup(b *bolt.Bucket, keys []string) (seq digest.NoticeSeq, missing int) {
	for _, k := range keys {
		raw := b.Get(ledgerKey(k))
		if len(raw) != 8 {
			missing++
			continue
		}
		n := binary.BigEndian.Uint64(raw)
		seq = seq.Join(digest.NoticeSeq{First: n, Last: n})
	}
	return seq, missing
}

func ledgerKey(k string) []byte {
	if len(k) <= maxLedgerKey && k != "" {
		return []byte(k)
	}
	sum := sha256.Sum256([]byte(k))
	return []byte("sha256:" + hex.EncodeToString(sum[:]))
}
