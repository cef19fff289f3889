package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// Outbox buckets, created by the first write that needs them and never
// among knowledgeBuckets:
//
//	digests          Digest.ID                        → JSON digest.Digest
//	outbox           DeliveryKey                      → JSON digest.Delivery
//	outbox_due       platform/ next-attempt(8) key    → "" (pending deliveries, soonest first)
//	outbox_sending   DeliveryKey                      → "" (deliveries a post may be under way for)
//	digest_schedule  schedule name                    → RFC 3339 time of its last run
var (
	bucketDigests  = []byte("digests")
	bucketOutbox   = []byte("outbox")
	bucketDue      = []byte("outbox_due")
	bucketSending  = []byte("outbox_sending")
	bucketSchedule = []byte("digest_schedule")
)

// Outbox keeps digests and the deliveries owed to channels, so a promise
// survives a crash: the digest and its deliveries are written in one
// transaction, and each delivery moves pending → sending → sent or dead
// in transactions of its own. Get one from (*DB).Outbox.
type Outbox struct{ db *DB }

var _ digest.Outbox = (*Outbox)(nil)

// Outbox returns the outbox of digests and deliveries.
func (db *DB) Outbox() *Outbox { return &Outbox{db: db} }

// EnqueueDigest stores d and the deliveries ds in one transaction. Each is
// written only if absent, so repeating a call, or ten triggers racing,
// leaves one digest and one delivery per channel. A delivery is left out
// (Stale) when its subscription is gone, paused or no longer at the Rev
// the digest was built from; for each one queued, the subscription's Seen,
// LastDigestAt and LastDigestID are updated in the same transaction. The
// digest is stored only when some delivery refers to it. It fails with
// EBADINPUT when a delivery does not belong to d or names no channel.
func (o *Outbox) EnqueueDigest(ctx context.Context, d digest.Digest, ds []digest.Delivery) (digest.Enqueued, error) {
	var res digest.Enqueued
	if err := digest.CheckEnqueue(d, ds); err != nil {
		return res, err
	}
	now := time.Now().UTC()
	err := userUpdate(ctx, o.db, func(tx *bolt.Tx) (bool, error) {
		res = digest.Enqueued{}
		out, err := tx.CreateBucketIfNotExists(bucketOutbox)
		if err != nil {
			return false, err
		}
		changed := false
		for _, dv := range ds {
			sub, err := getSubscription(tx, dv.Subscription)
			if err != nil {
				return false, err
			}
			current := sub != nil && sub.Active() && sub.Rev == dv.BasedOn
			if out.Get([]byte(dv.Key)) != nil {
				res.Existing++
				// Queued before, and the subscription was saved again
				// since with the same news waiting: it has had this
				// digest, so record it as told.
				if current && sub.Seen.Behind(dv.Seen) {
					sub.Seen.CatchUp(dv.Seen)
					sub.Rev, changed = sub.Rev+1, true
					if err := putSubscription(tx, sub); err != nil {
						return false, err
					}
				}
				continue
			}
			if !current {
				res.Stale++
				continue
			}
			dv.Queue(sub, now)
			if err := putDelivery(tx, &dv, digest.DeliveryPending); err != nil {
				return false, err
			}
			if err := putSubscription(tx, sub); err != nil {
				return false, err
			}
			res.Created++
		}
		if res.Created == 0 {
			return changed, nil
		}
		digests, err := tx.CreateBucketIfNotExists(bucketDigests)
		if err != nil {
			return false, err
		}
		if digests.Get([]byte(d.ID)) == nil {
			raw, err := json.Marshal(d)
			if err != nil {
				return false, fmt.Errorf("encode digest %s: %w", d.ID, err)
			}
			res.DigestNew = true
			return true, digests.Put([]byte(d.ID), raw)
		}
		return true, nil
	})
	if err != nil {
		return digest.Enqueued{}, fmt.Errorf("enqueue digest %s: %w", d.ID, err)
	}
	return res, nil
}

// ClaimDue moves up to limit of platform's pending deliveries due by now
// to sending, soonest due first, and returns them. f.Ready sees each
// candidate's channel before the delivery is read, f.Accept the delivery
// just before it is claimed; refused ones stay pending. With f.InTurn each
// claimed delivery records the one claimed before it (ClaimedAfter). A
// candidate whose subscription is gone or paused becomes dead instead.
// When nothing changes, nothing is written.
func (o *Outbox) ClaimDue(ctx context.Context, platform string, now time.Time, limit int, f digest.ClaimFilter) ([]digest.Delivery, error) {
	var out []digest.Delivery
	if limit <= 0 {
		return nil, nil
	}
	err := userUpdate(ctx, o.db, func(tx *bolt.Tx) (bool, error) {
		out = out[:0]
		pb := dueBucket(tx, platform)
		if pb == nil {
			return false, nil
		}
		due := timeKey(now)
		var done [][]byte // index entries to drop once the cursor is finished
		var changed bool
		c := pb.Cursor()
		for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
			if len(k) <= 8 || bytes.Compare(k[:8], due[:]) > 0 {
				break
			}
			if ref, ok := digest.ParseDeliveryKey(string(k[8:])); ok && f.Ready != nil && !f.Ready(ref) {
				continue
			}
			dv, err := getDelivery(tx, string(k[8:]))
			if err != nil {
				return false, err
			}
			if dv == nil || dv.State != digest.DeliveryPending {
				done, changed = append(done, bytes.Clone(k)), true // a stale index entry
				continue
			}
			sub, err := getSubscription(tx, dv.Subscription)
			if err != nil {
				return false, err
			}
			if sub == nil || !sub.Active() {
				why := "unsubscribed"
				if sub != nil {
					why = "subscription paused: " + sub.PausedReason
				}
				dv.State, dv.Reason, dv.UpdatedAt = digest.DeliveryDead, why, now
				done, changed = append(done, bytes.Clone(k)), true
				if err := putDelivery(tx, dv, ""); err != nil {
					return false, err
				}
				continue
			}
			if f.Accept != nil && !f.Accept(dv) {
				continue
			}
			dv.State, dv.Attempts, dv.UpdatedAt, dv.ClaimedAfter = digest.DeliverySending, dv.Attempts+1, now, ""
			if f.InTurn && len(out) > 0 {
				dv.ClaimedAfter = out[len(out)-1].Key
			}
			if err := putDelivery(tx, dv, digest.DeliverySending); err != nil {
				return false, err
			}
			done, changed = append(done, bytes.Clone(k)), true
			out = append(out, *dv)
		}
		for _, k := range done {
			if err := pb.Delete(k); err != nil {
				return false, err
			}
		}
		return changed, nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim due deliveries: %w", err)
	}
	return out, nil
}

// MarkPartSent records that part (0-based) of parts was posted as
// messageID. After the last part the delivery is sent and its
// subscription's LastDeliveredAt is now; otherwise it is pending again at
// next. It fails with EBADINPUT unless the delivery is sending that part.
func (o *Outbox) MarkPartSent(ctx context.Context, key string, part, parts int, messageID string, now, next time.Time) (*digest.Delivery, error) {
	return o.move(ctx, key, digest.DeliverySending, func(tx *bolt.Tx, dv *digest.Delivery) (digest.DeliveryState, error) {
		if part != dv.PartsSent || part >= parts {
			return "", knowledge.Errorf(knowledge.EBADINPUT, "Delivery %s is at part %d, not %d of %d.", key, dv.PartsSent, part, parts)
		}
		dv.Parts, dv.PartsSent, dv.Failures, dv.Reason = parts, part+1, 0, ""
		dv.MessageIDs = append(dv.MessageIDs, messageID)
		if dv.PartsSent < parts {
			dv.NextAttempt = next
			return digest.DeliveryPending, nil
		}
		dv.SentAt = now
		sub, err := getSubscription(tx, dv.Subscription)
		if err != nil || sub == nil {
			return digest.DeliverySent, err
		}
		sub.LastDeliveredAt = now // not a change of what it asked for: Rev stays
		return digest.DeliverySent, putSubscription(tx, sub)
	}, now)
}

// MarkRetry moves a sending delivery back to pending at next, recording
// reason. A rate limit does not count as a failure. It fails with EBADINPUT
// unless the delivery is sending.
func (o *Outbox) MarkRetry(ctx context.Context, key string, next time.Time, reason string, rateLimited bool, now time.Time) (*digest.Delivery, error) {
	return o.move(ctx, key, digest.DeliverySending, func(_ *bolt.Tx, dv *digest.Delivery) (digest.DeliveryState, error) {
		if !rateLimited {
			dv.Failures++
		}
		dv.Reason, dv.NextAttempt = reason, next
		return digest.DeliveryPending, nil
	}, now)
}

// MarkDead gives up on a pending or sending delivery with reason. With
// pause, its subscription is paused with reason and the channel's other
// pending deliveries die too, all in the same transaction.
func (o *Outbox) MarkDead(ctx context.Context, key, reason string, pause bool, now time.Time) (*digest.Delivery, error) {
	return o.move(ctx, key, "", func(tx *bolt.Tx, dv *digest.Delivery) (digest.DeliveryState, error) {
		if dv.State != digest.DeliveryPending && dv.State != digest.DeliverySending {
			return "", knowledge.Errorf(knowledge.EBADINPUT, "Delivery %s is %s already.", key, dv.State)
		}
		if pause {
			// This delivery is written after fn, over what pauseTx wrote.
			if _, err := pauseTx(tx, dv.Ref(), reason, now); err != nil {
				return "", err
			}
		}
		dv.Reason = reason
		return digest.DeliveryDead, nil
	}, now)
}

// move loads the delivery key, checks it is in state from ("" for any),
// lets fn change it and name its next state, and writes it back with its
// index entries, all in one transaction.
func (o *Outbox) move(ctx context.Context, key string, from digest.DeliveryState, fn func(*bolt.Tx, *digest.Delivery) (digest.DeliveryState, error), now time.Time) (*digest.Delivery, error) {
	var out *digest.Delivery
	err := userUpdate(ctx, o.db, func(tx *bolt.Tx) (bool, error) {
		dv, err := getDelivery(tx, key)
		if err != nil {
			return false, err
		}
		if dv == nil {
			return false, knowledge.Errorf(knowledge.ENOTFOUND, "There is no delivery %s.", key)
		}
		if from != "" && dv.State != from {
			return false, knowledge.Errorf(knowledge.EBADINPUT, "Delivery %s is %s, not %s.", key, dv.State, from)
		}
		old := *dv
		next, err := fn(tx, dv)
		if err != nil {
			return false, err
		}
		if err := dropIndex(tx, &old); err != nil {
			return false, err
		}
		dv.State, dv.UpdatedAt, dv.ClaimedAfter = next, now, "" // only a claim in turn sets it
		out = dv
		return true, putDelivery(tx, dv, next)
	})
	if err != nil {
		return nil, fmt.Errorf("delivery %s: %w", key, err)
	}
	return out, nil
}

// Recover moves every delivery left sending, by a crash or a stop in the
// middle of a post, back to pending, due at now, and returns them. One
// claimed in turn behind a delivery also left sending had not begun
// (NotBegun); every other one may have been under way (InDoubt) and counts
// in its InDoubt. Call it once at start, before any worker claims.
func (o *Outbox) Recover(ctx context.Context, now time.Time) (digest.Recovered, error) {
	var out digest.Recovered
	err := userUpdate(ctx, o.db, func(tx *bolt.Tx) (bool, error) {
		out = digest.Recovered{}
		sb := tx.Bucket(bucketSending)
		if sb == nil {
			return false, nil
		}
		var keys []string
		if err := sb.ForEach(func(k, _ []byte) error { keys = append(keys, string(k)); return nil }); err != nil {
			return false, err
		}
		var found []*digest.Delivery
		sending := map[string]bool{}
		for _, k := range keys {
			if err := sb.Delete([]byte(k)); err != nil {
				return false, err
			}
			dv, err := getDelivery(tx, k)
			if err != nil {
				return false, err
			}
			if dv == nil || dv.State != digest.DeliverySending {
				continue
			}
			found = append(found, dv)
			sending[dv.Key] = true
		}
		for _, dv := range found {
			begun := dv.ClaimedAfter == "" || !sending[dv.ClaimedAfter]
			dv.TakeBack(begun, now)
			if err := putDelivery(tx, dv, digest.DeliveryPending); err != nil {
				return false, err
			}
			if begun {
				out.InDoubt = append(out.InDoubt, *dv)
			} else {
				out.NotBegun = append(out.NotBegun, *dv)
			}
		}
		return len(keys) > 0, nil
	})
	if err != nil {
		return digest.Recovered{}, fmt.Errorf("recover deliveries: %w", err)
	}
	return out, nil
}
