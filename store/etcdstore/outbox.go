package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// The outbox in etcd, under the prefix:
//
//	digests/ID                                  JSON digest.Digest
//	outbox/d/DELIVERY-KEY                       JSON digest.Delivery
//	outbox/due/PLATFORM/NEXT-ATTEMPT/KEY        "" (pending, soonest first)
//	outbox/sending/KEY                          "" (a post may be under way)
//
// The states and their moves are the bbolt outbox's; each move is one
// transaction comparing the delivery's revision, so two replicas can never
// both move the same delivery.

// enqueueBatch is how many deliveries one enqueue transaction writes (three
// operations each, within etcd's default of 128).
const enqueueBatch = 32

// EnqueueDigest stores d and the deliveries ds, each only if absent, and
// records each queued delivery's Seen in its subscription in the same
// transaction as the delivery. Deliveries go in batches of a few dozen:
// a crash between batches leaves the rest owed, and the next trigger
// (which is idempotent) queues them. A delivery whose subscription is gone,
// paused or past the Rev it was built from is left out (Stale). It fails
// with EBADINPUT when a delivery does not belong to d.
func (s *Store) EnqueueDigest(ctx context.Context, d digest.Digest, ds []digest.Delivery) (digest.Enqueued, error) {
	var res digest.Enqueued
	if err := digest.CheckEnqueue(d, ds); err != nil {
		return res, err
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return res, fmt.Errorf("encode digest %s: %w", d.ID, err)
	}
	now := time.Now().UTC()
	for start := 0; start < len(ds); start += enqueueBatch {
		batch := ds[start:min(len(ds), start+enqueueBatch)]
		r, err := s.enqueueBatch(ctx, d.ID, string(raw), batch, now)
		if err != nil {
			return digest.Enqueued{}, fmt.Errorf("enqueue digest %s: %w", d.ID, err)
		}
		res.DigestNew = res.DigestNew || r.DigestNew
		res.Created += r.Created
		res.Existing += r.Existing
		res.Stale += r.Stale
	}
	return res, nil
}

func (s *Store) enqueueBatch(ctx context.Context, id, encoded string, ds []digest.Delivery, now time.Time) (digest.Enqueued, error) {
	for range maxAttempts {
		var res digest.Enqueued
		reads := make([]clientv3.Op, 0, 2*len(ds))
		for i := range ds {
			reads = append(reads, clientv3.OpGet(s.kSub(ds[i].Subscription)), clientv3.OpGet(s.kDelivery(ds[i].Key)))
		}
		rctx, cancel := s.ctx(ctx)
		got, err := s.c.Txn(rctx).Then(reads...).Commit()
		cancel()
		if err != nil {
			return res, fail(ctx, "read subscriptions", err)
		}
		var cmps []clientv3.Cmp
		var ops []clientv3.Op
		for i, dv := range ds {
			sub, subRev, err := decodeOne[digest.Subscription](got.Responses[2*i])
			if err != nil {
				return res, err
			}
			existing := len(got.Responses[2*i+1].GetResponseRange().Kvs) > 0
			current := sub != nil && sub.Active() && sub.Rev == dv.BasedOn
			switch {
			case existing:
				res.Existing++
				if current && sub.Seen.Behind(dv.Seen) { // told already, through a repeat
					sub.Seen.CatchUp(dv.Seen)
					sub.Rev++
					cmps = append(cmps, unchanged(s.kSub(sub.ID), subRev))
					ops = append(ops, putJSON(s.kSub(sub.ID), sub))
				}
				continue
			case !current:
				res.Stale++
				continue
			}
			dv.Queue(sub, now)
			cmps = append(cmps, unchanged(s.kSub(sub.ID), subRev), unchanged(s.kDelivery(dv.Key), 0))
			ops = append(ops, s.putDelivery(&dv)...)
			ops = append(ops, putJSON(s.kSub(sub.ID), sub))
			res.Created++
		}
		if len(ops) == 0 {
			return res, nil
		}
		nested := 0
		if res.Created > 0 { // the digest goes with its first delivery, if absent
			nested = len(ops)
			ops = append(ops, clientv3.OpTxn([]clientv3.Cmp{unchanged(s.kDigest(id), 0)},
				[]clientv3.Op{clientv3.OpPut(s.kDigest(id), encoded)}, nil))
		}
		resp, err := s.txn(ctx, "enqueue", false, cmps, ops)
		if err != nil {
			return res, err
		}
		if resp.Succeeded {
			if res.Created > 0 {
				res.DigestNew = resp.Responses[nested].GetResponseTxn().Succeeded
			}
			return res, nil
		}
	}
	return digest.Enqueued{}, errConflict
}

// decodeOne decodes the single value a get returned, with its revision.
func decodeOne[T any](r *etcdserverpb.ResponseOp) (*T, int64, error) {
	kvs := r.GetResponseRange().Kvs
	if len(kvs) == 0 {
		return nil, 0, nil
	}
	v := new(T)
	if err := json.Unmarshal(kvs[0].Value, v); err != nil {
		return nil, 0, fmt.Errorf("%q is damaged: %w", kvs[0].Key, err)
	}
	return v, kvs[0].ModRevision, nil
}

func putJSON(key string, v any) clientv3.Op {
	raw, _ := json.Marshal(v) // kepbot's own values always encode
	return clientv3.OpPut(key, string(raw))
}

// putDelivery writes dv and its index entry for its state.
func (s *Store) putDelivery(dv *digest.Delivery) []clientv3.Op {
	ops := []clientv3.Op{putJSON(s.kDelivery(dv.Key), dv)}
	switch dv.State {
	case digest.DeliveryPending:
		ops = append(ops, clientv3.OpPut(s.kDue(dv), ""))
	case digest.DeliverySending:
		ops = append(ops, clientv3.OpPut(s.kSending(dv.Key), ""))
	}
	return ops
}

// dropIndex removes the index entry of dv as it was stored.
func (s *Store) dropIndex(dv *digest.Delivery) []clientv3.Op {
	switch dv.State {
	case digest.DeliveryPending:
		return []clientv3.Op{clientv3.OpDelete(s.kDue(dv))}
	case digest.DeliverySending:
		return []clientv3.Op{clientv3.OpDelete(s.kSending(dv.Key))}
	}
	return nil
}

// delivery reads one delivery and its revision; nil, 0 when absent.
func (s *Store) delivery(ctx context.Context, key string) (*digest.Delivery, int64, error) {
	raw, rev, err := s.get(ctx, "read delivery "+key, s.kDelivery(key))
	if err != nil || raw == nil {
		return nil, 0, err
	}
	var dv digest.Delivery
	if err := json.Unmarshal(raw, &dv); err != nil {
		return nil, 0, fmt.Errorf("delivery %q is damaged: %w", key, err)
	}
	return &dv, rev, nil
}

// killPending returns what gives up every pending delivery to ch but skip:
// a comparison of each one's revision, and its rewrite as dead.
func (s *Store) killPending(parent context.Context, ch digest.ChannelRef, reason string, at time.Time, skip ...string) ([]clientv3.Cmp, []clientv3.Op, error) {
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Get(ctx, s.kDelivery(ch.ID()+"/"), clientv3.WithPrefix())
	if err != nil {
		return nil, nil, fail(parent, "read the channel's deliveries", err)
	}
	var cmps []clientv3.Cmp
	var ops []clientv3.Op
	for _, kv := range resp.Kvs {
		var dv digest.Delivery
		if err := json.Unmarshal(kv.Value, &dv); err != nil {
			return nil, nil, fmt.Errorf("delivery %q is damaged: %w", kv.Key, err)
		}
		if dv.State != digest.DeliveryPending || (len(skip) > 0 && dv.Key == skip[0]) {
			continue
		}
		cmps = append(cmps, unchanged(string(kv.Key), kv.ModRevision))
		ops = append(ops, s.dropIndex(&dv)...)
		dv.State, dv.Reason, dv.UpdatedAt = digest.DeliveryDead, reason, at
		ops = append(ops, s.putDelivery(&dv)...)
	}
	return cmps, ops, nil
}
