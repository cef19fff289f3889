package store

// The outbox's reads (digests, deliveries, schedule runs) and the record
// and index helpers its transactions share.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// FindDigest returns the stored digest id. It fails with ENOTFOUND when
// there is none.
func (o *Outbox) FindDigest(ctx context.Context, id string) (*digest.Digest, error) {
	var d *digest.Digest
	err := userView(ctx, o.db, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDigests)
		var raw []byte
		if b != nil {
			raw = b.Get([]byte(id))
		}
		if raw == nil {
			return knowledge.Errorf(knowledge.ENOTFOUND, "There is no digest %s.", id)
		}
		d = new(digest.Digest)
		if err := json.Unmarshal(raw, d); err != nil {
			return fmt.Errorf("digest %s: %w: %v", id, errCorrupt, err)
		}
		return nil
	})
	return d, err
}

// FindDelivery returns the delivery key. It fails with ENOTFOUND when
// there is none.
func (o *Outbox) FindDelivery(ctx context.Context, key string) (*digest.Delivery, error) {
	var dv *digest.Delivery
	err := userView(ctx, o.db, func(tx *bolt.Tx) error {
		var err error
		if dv, err = getDelivery(tx, key); err == nil && dv == nil {
			err = knowledge.Errorf(knowledge.ENOTFOUND, "There is no delivery %s.", key)
		}
		return err
	})
	return dv, err
}

// ListDeliveries returns every delivery, by key.
func (o *Outbox) ListDeliveries(ctx context.Context) ([]digest.Delivery, error) {
	return listJSON[digest.Delivery](ctx, o.db, bucketOutbox, "delivery")
}

// LastRun returns when the schedule name last ran, or the zero time.
func (o *Outbox) LastRun(ctx context.Context, name string) (time.Time, error) {
	var t time.Time
	err := userView(ctx, o.db, func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketSchedule); b != nil {
			if raw := b.Get([]byte(name)); raw != nil {
				if err := t.UnmarshalText(raw); err != nil {
					return fmt.Errorf("last run of %s: %w: %v", name, errCorrupt, err)
				}
			}
		}
		return nil
	})
	return t, err
}

// SetLastRun records that the schedule name ran for the time at.
func (o *Outbox) SetLastRun(ctx context.Context, name string, at time.Time) error {
	raw, _ := at.UTC().MarshalText() // a time between years 0 and 9999 always marshals
	return userUpdate(ctx, o.db, func(tx *bolt.Tx) (bool, error) {
		b, err := tx.CreateBucketIfNotExists(bucketSchedule)
		if err != nil {
			return false, err
		}
		return true, b.Put([]byte(name), raw)
	})
}

// timeKey is t as 8 big-endian bytes of Unix nanoseconds, so that index
// keys sort by time; times before 1970 sort first.
func timeKey(t time.Time) [8]byte {
	var k [8]byte
	if n := t.UnixNano(); n > 0 {
		binary.BigEndian.PutUint64(k[:], uint64(n))
	}
	return k
}

// dueKey is a pending delivery's entry in its platform's due index.
func dueKey(dv *digest.Delivery) []byte {
	tk := timeKey(dv.NextAttempt)
	return append(tk[:], dv.Key...)
}

// dueBucket returns platform's due index, or nil before its first entry.
func dueBucket(tx *bolt.Tx, platform string) *bolt.Bucket {
	b := tx.Bucket(bucketDue)
	if b == nil {
		return nil
	}
	return b.Bucket([]byte(platform))
}

// getDelivery returns the delivery key, or nil.
func getDelivery(tx *bolt.Tx, key string) (*digest.Delivery, error) {
	return getJSON[digest.Delivery](tx, bucketOutbox, key, "delivery")
}

// putDelivery writes dv and, for a pending or sending one, its index entry.
// The caller has dropped any earlier entry (dropIndex).
func putDelivery(tx *bolt.Tx, dv *digest.Delivery, index digest.DeliveryState) error {
	raw, err := json.Marshal(dv)
	if err != nil {
		return fmt.Errorf("encode delivery %s: %w", dv.Key, err)
	}
	b, err := tx.CreateBucketIfNotExists(bucketOutbox)
	if err != nil {
		return err
	}
	if err := b.Put([]byte(dv.Key), raw); err != nil {
		return err
	}
	switch index {
	case digest.DeliveryPending:
		due, err := tx.CreateBucketIfNotExists(bucketDue)
		if err != nil {
			return err
		}
		pb, err := due.CreateBucketIfNotExists([]byte(dv.Platform))
		if err != nil {
			return err
		}
		return pb.Put(dueKey(dv), nil)
	case digest.DeliverySending:
		sb, err := tx.CreateBucketIfNotExists(bucketSending)
		if err != nil {
			return err
		}
		return sb.Put([]byte(dv.Key), nil)
	}
	return nil
}

// dropIndex removes the index entry of dv as it was stored.
func dropIndex(tx *bolt.Tx, dv *digest.Delivery) error {
	switch dv.State {
	case digest.DeliveryPending:
		if pb := dueBucket(tx, dv.Platform); pb != nil {
			return pb.Delete(dueKey(dv))
		}
	case digest.DeliverySending:
		if sb := tx.Bucket(bucketSending); sb != nil {
			return sb.Delete([]byte(dv.Key))
		}
	}
	return nil
}

// killPending gives up every pending delivery to channel ch with reason.
func killPending(tx *bolt.Tx, ch digest.ChannelRef, reason string, now time.Time) error {
	b := tx.Bucket(bucketOutbox)
	if b == nil {
		return nil
	}
	prefix := []byte(ch.ID() + "/")
	var dead []*digest.Delivery
	c := b.Cursor()
	for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
		var dv digest.Delivery
		if err := json.Unmarshal(raw, &dv); err != nil {
			return fmt.Errorf("delivery %q: %w: %v", k, errCorrupt, err)
		}
		if dv.State == digest.DeliveryPending {
			dead = append(dead, &dv)
		}
	}
	for _, dv := range dead {
		if err := dropIndex(tx, dv); err != nil {
			return err
		}
		dv.State, dv.Reason, dv.UpdatedAt = digest.DeliveryDead, reason, now
		if err := putDelivery(tx, dv, ""); err != nil {
			return err
		}
	}
	return nil
}
