package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// User-state buckets of subscriptions. They are created by the first write
// that needs them and are never among knowledgeBuckets, so a knowledge
// replace cannot touch them.
//
//	subscriptions  ChannelRef.ID                 → JSON digest.Subscription
//	notice_ledger  notice alias (hashed when long) → sequence(8), big-endian (see ledger.go)
var (
	bucketSubscriptions = []byte("subscriptions")
	bucketLedger        = []byte("notice_ledger")
)

// SubscriptionStore keeps channels' subscriptions and the notice ledger in
// bbolt. Get one from (*DB).Subscriptions. Every exported method is one
// transaction; misses are *knowledge.Error with code ENOTFOUND.
type SubscriptionStore struct{ db *DB }

var (
	_ digest.SubscriptionStore = (*SubscriptionStore)(nil)
	_ digest.NoticeLedger      = (*SubscriptionStore)(nil)
)

// Subscriptions returns the store of subscriptions and the notice ledger.
func (db *DB) Subscriptions() *SubscriptionStore { return &SubscriptionStore{db: db} }

// SaveSubscription creates the subscription of s's channel, or replaces its
// filter, who, when and Seen, making it active again. The ID is the
// channel's; the delivery history (last digest, last delivered) of a
// replaced subscription is kept. It fails with EBADINPUT when s names no
// channel, a filter field is not one kepbot knows, or s is not active.
func (s *SubscriptionStore) SaveSubscription(ctx context.Context, sub digest.Subscription) (*digest.Subscription, error) {
	if err := sub.PrepareSave(); err != nil {
		return nil, err
	}
	err := userUpdate(ctx, s.db, func(tx *bolt.Tx) (bool, error) {
		old, err := getSubscription(tx, sub.ID)
		if err != nil {
			return false, err
		}
		sub.Replace(old)
		return true, putSubscription(tx, &sub)
	})
	if err != nil {
		return nil, fmt.Errorf("save subscription %s: %w", sub.ID, err)
	}
	return &sub, nil
}

// DeleteSubscription removes the channel's subscription and, in the same
// transaction, gives up the deliveries not yet posted to it. It fails with
// ENOTFOUND when the channel has none.
func (s *SubscriptionStore) DeleteSubscription(ctx context.Context, ch digest.ChannelRef) error {
	err := userUpdate(ctx, s.db, func(tx *bolt.Tx) (bool, error) {
		b := tx.Bucket(bucketSubscriptions)
		if b == nil || b.Get([]byte(ch.ID())) == nil {
			return false, noSubscription()
		}
		if err := b.Delete([]byte(ch.ID())); err != nil {
			return false, err
		}
		return true, killPending(tx, ch, "unsubscribed", time.Now().UTC())
	})
	if err != nil && knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		return fmt.Errorf("delete subscription %s: %w", ch.ID(), err)
	}
	return err
}

// FindSubscriptionByChannel returns the channel's subscription. It fails
// with ENOTFOUND when the channel has none.
func (s *SubscriptionStore) FindSubscriptionByChannel(ctx context.Context, ch digest.ChannelRef) (*digest.Subscription, error) {
	var sub *digest.Subscription
	err := userView(ctx, s.db, func(tx *bolt.Tx) error {
		var err error
		sub, err = getSubscription(tx, ch.ID())
		if err == nil && sub == nil {
			err = noSubscription()
		}
		return err
	})
	return sub, err
}

// ListSubscriptions returns every subscription, by channel ID.
func (s *SubscriptionStore) ListSubscriptions(ctx context.Context) ([]digest.Subscription, error) {
	return listJSON[digest.Subscription](ctx, s.db, bucketSubscriptions, "subscription")
}

// PauseSubscription stops digests to the channel, records why, and gives
// up its deliveries not yet posted, in one transaction: what the adapters
// call when the platform says the channel is gone. It fails with ENOTFOUND
// when the channel has no subscription.
func (s *SubscriptionStore) PauseSubscription(ctx context.Context, ch digest.ChannelRef, reason string, at time.Time) error {
	return userUpdate(ctx, s.db, func(tx *bolt.Tx) (bool, error) {
		found, err := pauseTx(tx, ch, reason, at)
		if err == nil && !found {
			err = noSubscription()
		}
		return found, err
	})
}

// pauseTx pauses the channel's subscription, if it has one, and gives up
// its pending deliveries.
func pauseTx(tx *bolt.Tx, ch digest.ChannelRef, reason string, at time.Time) (bool, error) {
	sub, err := getSubscription(tx, ch.ID())
	if err != nil || sub == nil {
		return false, err
	}
	sub.Pause(reason, at)
	if err := putSubscription(tx, sub); err != nil {
		return false, err
	}
	return true, killPending(tx, ch, "subscription paused: "+reason, at)
}

func noSubscription() error {
	return knowledge.Errorf(knowledge.ENOTFOUND, "This channel has no subscription.")
}

// getSubscription returns the subscription with id, or nil.
func getSubscription(tx *bolt.Tx, id string) (*digest.Subscription, error) {
	return getJSON[digest.Subscription](tx, bucketSubscriptions, id, "subscription")
}

func putSubscription(tx *bolt.Tx, sub *digest.Subscription) error {
	b, err := tx.CreateBucketIfNotExists(bucketSubscriptions)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(sub)
	if err != nil {
		return fmt.Errorf("encode subscription %s: %w", sub.ID, err)
	}
	return b.Put([]byte(sub.ID), raw)
}

// userView runs fn in one read transaction, unless ctx is already done.
func userView(ctx context.Context, db *DB, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.View(fn)
}

// getJSON decodes the JSON value of key in bucket, or returns nil when
// there is none; a value that does not decode is reported as corrupt,
// naming what and its key.
func getJSON[T any](tx *bolt.Tx, bucket []byte, key, what string) (*T, error) {
	b := tx.Bucket(bucket)
	if b == nil {
		return nil, nil
	}
	raw := b.Get([]byte(key))
	if raw == nil {
		return nil, nil
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s %q: %w: %v", what, key, errCorrupt, err)
	}
	return &v, nil
}

// listJSON decodes every JSON value of bucket, in key order; a value that
// does not decode is reported as corrupt, naming what and its key.
func listJSON[T any](ctx context.Context, db *DB, bucket []byte, what string) ([]T, error) {
	var out []T
	err := userView(ctx, db, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, raw []byte) error {
			var v T
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("%s %q: %w: %v", what, k, errCorrupt, err)
			}
			out = append(out, v)
			return nil
		})
	})
	return out, err
}

// userUpdate runs fn in one write transaction and commits it only when fn
// reports a change, so a call that finds nothing to do costs no disk sync.
func userUpdate(ctx context.Context, db *DB, fn func(tx *bolt.Tx) (bool, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	tx, err := db.bolt.Begin(true)
	if err != nil {
		return fmt.Errorf("write %s: %w", db.path, err)
	}
	changed, err := fn(tx)
	if err != nil || !changed {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit %s: %w", db.path, err)
	}
	return nil
}
