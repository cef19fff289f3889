package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// claimPage is how many due index entries ClaimDue reads at a time.
const claimPage = 64

// ClaimDue moves up to limit of platform's pending deliveries due by now
// to sending, soonest due first, in one fenced transaction, and returns
// them. f.Ready sees each candidate's channel before it is read, f.Accept
// the delivery just before it is claimed; with f.InTurn each claimed
// delivery records the one claimed before it (ClaimedAfter). A candidate whose subscription is
// gone or paused becomes dead instead. When another writer changed a
// candidate meanwhile it fails (the worker frees what Accept reserved and
// claims again); through a fenced Store that lost leadership it fails with
// ErrNotLeader.
func (s *Store) ClaimDue(ctx context.Context, platform string, now time.Time, limit int, f digest.ClaimFilter) ([]digest.Delivery, error) {
	if limit <= 0 {
		return nil, nil
	}
	prefix := s.kDuePrefix(platform)
	end := prefix + timeHex(now.Add(time.Nanosecond))
	from := prefix
	var out []digest.Delivery
	var cmps []clientv3.Cmp
	var ops []clientv3.Op
	subs := map[string]*digest.Subscription{}
	for len(out) < limit && len(ops) < 96 {
		rctx, cancel := s.ctx(ctx)
		page, err := s.c.Get(rctx, from, clientv3.WithRange(end), clientv3.WithLimit(claimPage), clientv3.WithKeysOnly())
		cancel()
		if err != nil {
			return nil, fail(ctx, "claim due deliveries", err)
		}
		for _, kv := range page.Kvs {
			if len(out) >= limit || len(ops) >= 96 {
				break
			}
			ik := string(kv.Key)
			_, key, ok := strings.Cut(ik[len(prefix):], "/")
			if !ok {
				continue
			}
			if ref, ok := digest.ParseDeliveryKey(key); ok && f.Ready != nil && !f.Ready(ref) {
				continue
			}
			dv, rev, err := s.delivery(ctx, key)
			if err != nil {
				return nil, err
			}
			if dv == nil || dv.State != digest.DeliveryPending || s.kDue(dv) != ik {
				ops = append(ops, clientv3.OpDelete(ik)) // a stale index entry
				continue
			}
			sub, ok := subs[dv.Subscription]
			if !ok {
				if sub, _, err = s.subscription(ctx, dv.Subscription); err != nil {
					return nil, err
				}
				subs[dv.Subscription] = sub
			}
			cmps = append(cmps, unchanged(s.kDelivery(key), rev))
			if sub == nil || !sub.Active() {
				why := "unsubscribed"
				if sub != nil {
					why = "subscription paused: " + sub.PausedReason
				}
				ops = append(ops, clientv3.OpDelete(ik))
				dv.State, dv.Reason, dv.UpdatedAt = digest.DeliveryDead, why, now
				ops = append(ops, s.putDelivery(dv)...)
				continue
			}
			if f.Accept != nil && !f.Accept(dv) {
				cmps = cmps[:len(cmps)-1]
				continue
			}
			ops = append(ops, clientv3.OpDelete(ik))
			dv.State, dv.Attempts, dv.UpdatedAt, dv.ClaimedAfter = digest.DeliverySending, dv.Attempts+1, now, ""
			if f.InTurn && len(out) > 0 {
				dv.ClaimedAfter = out[len(out)-1].Key
			}
			ops = append(ops, s.putDelivery(dv)...)
			out = append(out, *dv)
		}
		if len(page.Kvs) < claimPage || !page.More {
			break
		}
		from = string(page.Kvs[len(page.Kvs)-1].Key) + "\x00"
	}
	if len(ops) == 0 {
		return nil, nil
	}
	resp, err := s.txn(ctx, "claim due deliveries", true, cmps, ops)
	if err != nil {
		return nil, err
	}
	if !resp.Succeeded {
		return nil, fmt.Errorf("claim due deliveries: %w", errConflict)
	}
	return out, nil
}

// MarkPartSent records that part (0-based) of parts was posted as
// messageID: sent after the last part (the subscription's LastDeliveredAt
// is now), else pending again at next. It fails with EBADINPUT unless the
// delivery is sending that part.
func (s *Store) MarkPartSent(ctx context.Context, key string, part, parts int, messageID string, now, next time.Time) (*digest.Delivery, error) {
	return s.move(ctx, key, digest.DeliverySending, now, func(dv *digest.Delivery) (digest.DeliveryState, []clientv3.Cmp, []clientv3.Op, error) {
		if part != dv.PartsSent || part >= parts {
			return "", nil, nil, knowledge.Errorf(knowledge.EBADINPUT, "Delivery %s is at part %d, not %d of %d.", key, dv.PartsSent, part, parts)
		}
		dv.Parts, dv.PartsSent, dv.Failures, dv.Reason = parts, part+1, 0, ""
		dv.MessageIDs = append(dv.MessageIDs, messageID)
		if dv.PartsSent < parts {
			dv.NextAttempt = next
			return digest.DeliveryPending, nil, nil, nil
		}
		dv.SentAt = now
		sub, rev, err := s.subscription(ctx, dv.Subscription)
		if err != nil || sub == nil {
			return digest.DeliverySent, nil, nil, err
		}
		sub.LastDeliveredAt = now // not a change of what it asked for: Rev stays
		return digest.DeliverySent, []clientv3.Cmp{unchanged(s.kSub(sub.ID), rev)}, []clientv3.Op{putJSON(s.kSub(sub.ID), sub)}, nil
	})
}

// MarkRetry moves a sending delivery back to pending at next, recording
// reason; a rate limit does not count as a failure.
func (s *Store) MarkRetry(ctx context.Context, key string, next time.Time, reason string, rateLimited bool, now time.Time) (*digest.Delivery, error) {
	return s.move(ctx, key, digest.DeliverySending, now, func(dv *digest.Delivery) (digest.DeliveryState, []clientv3.Cmp, []clientv3.Op, error) {
		if !rateLimited {
			dv.Failures++
		}
		dv.Reason, dv.NextAttempt = reason, next
		return digest.DeliveryPending, nil, nil, nil
	})
}

// MarkDead gives up on a pending or sending delivery; with pause, its
// subscription is paused with reason and the channel's other pending
// deliveries die too, in the same transaction.
func (s *Store) MarkDead(ctx context.Context, key, reason string, pause bool, now time.Time) (*digest.Delivery, error) {
	return s.move(ctx, key, "", now, func(dv *digest.Delivery) (digest.DeliveryState, []clientv3.Cmp, []clientv3.Op, error) {
		if dv.State != digest.DeliveryPending && dv.State != digest.DeliverySending {
			return "", nil, nil, knowledge.Errorf(knowledge.EBADINPUT, "Delivery %s is %s already.", key, dv.State)
		}
		dv.Reason = reason
		if !pause {
			return digest.DeliveryDead, nil, nil, nil
		}
		sub, rev, err := s.subscription(ctx, dv.Subscription)
		if err != nil || sub == nil {
			return digest.DeliveryDead, nil, nil, err
		}
		sub.Pause(reason, now)
		cmps, ops, err := s.killPending(ctx, dv.Ref(), "subscription paused: "+reason, now, dv.Key)
		if err != nil {
			return "", nil, nil, err
		}
		return digest.DeliveryDead, append(cmps, unchanged(s.kSub(sub.ID), rev)), append(ops, putJSON(s.kSub(sub.ID), sub)), nil
	})
}

// move reads delivery key, checks it is in state from ("" for any), lets
// fn change it, name its next state and add what else to compare and
// write, and writes it all in one fenced transaction, reading again when
// another writer came first.
func (s *Store) move(ctx context.Context, key string, from digest.DeliveryState, now time.Time,
	fn func(*digest.Delivery) (digest.DeliveryState, []clientv3.Cmp, []clientv3.Op, error)) (*digest.Delivery, error) {
	for range maxAttempts {
		dv, rev, err := s.delivery(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("delivery %s: %w", key, err)
		}
		if dv == nil {
			return nil, knowledge.Errorf(knowledge.ENOTFOUND, "There is no delivery %s.", key)
		}
		if from != "" && dv.State != from {
			return nil, knowledge.Errorf(knowledge.EBADINPUT, "Delivery %s is %s, not %s.", key, dv.State, from)
		}
		old := *dv
		next, cmps, ops, err := fn(dv)
		if err != nil {
			return nil, fmt.Errorf("delivery %s: %w", key, err)
		}
		ops = append(ops, s.dropIndex(&old)...)
		dv.State, dv.UpdatedAt, dv.ClaimedAfter = next, now, "" // only a claim in turn sets it
		ops = append(ops, s.putDelivery(dv)...)
		resp, err := s.txn(ctx, "delivery "+key, true, append(cmps, unchanged(s.kDelivery(key), rev)), ops)
		if err != nil {
			return nil, err
		}
		if resp.Succeeded {
			return dv, nil
		}
	}
	return nil, fmt.Errorf("delivery %s: %w", key, errConflict)
}

// recoverBatch is how many deliveries one Recover transaction moves.
const recoverBatch = 30

// Recover moves every delivery left sending (by a crash, or by a leader
// that lost its lease) back to pending, due at now, and returns them. One
// claimed in turn behind a delivery also left sending had not begun
// (NotBegun); every other one may have been under way (InDoubt) and counts
// in its InDoubt. The leader calls it once it is elected, before its
// worker claims.
func (s *Store) Recover(ctx context.Context, now time.Time) (digest.Recovered, error) {
	var out digest.Recovered
	rctx, cancel := s.ctx(ctx)
	resp, err := s.c.Get(rctx, s.prefix+"outbox/sending/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	cancel()
	if err != nil {
		return out, fail(ctx, "recover deliveries", err)
	}
	type found struct {
		dv  *digest.Delivery
		rev int64
		key string // its sending index entry
	}
	var all []found
	var stale []string
	sending := map[string]bool{}
	base := len(s.prefix + "outbox/sending/")
	for _, kv := range resp.Kvs {
		key := string(kv.Key[base:])
		dv, rev, err := s.delivery(ctx, key)
		if err != nil {
			return digest.Recovered{}, err
		}
		if dv == nil || dv.State != digest.DeliverySending {
			stale = append(stale, string(kv.Key))
			continue
		}
		all = append(all, found{dv, rev, string(kv.Key)})
		sending[dv.Key] = true
	}
	var cmps []clientv3.Cmp
	ops := make([]clientv3.Op, 0, len(stale))
	for _, k := range stale {
		ops = append(ops, clientv3.OpDelete(k))
	}
	var batch digest.Recovered
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		r, err := s.txn(ctx, "recover deliveries", true, cmps, ops)
		if err != nil {
			return err
		}
		if !r.Succeeded {
			return fmt.Errorf("recover deliveries: %w", errConflict)
		}
		out.InDoubt = append(out.InDoubt, batch.InDoubt...)
		out.NotBegun = append(out.NotBegun, batch.NotBegun...)
		cmps, ops, batch = nil, nil, digest.Recovered{}
		return nil
	}
	for _, f := range all {
		dv := f.dv
		begun := dv.ClaimedAfter == "" || !sending[dv.ClaimedAfter]
		dv.TakeBack(begun, now)
		if begun {
			batch.InDoubt = append(batch.InDoubt, *dv)
		} else {
			batch.NotBegun = append(batch.NotBegun, *dv)
		}
		cmps = append(cmps, unchanged(s.kDelivery(dv.Key), f.rev))
		ops = append(ops, clientv3.OpDelete(f.key), putJSON(s.kDelivery(dv.Key), dv), clientv3.OpPut(s.kDue(dv), ""))
		if len(cmps) >= recoverBatch {
			if err := flush(); err != nil {
				return digest.Recovered{}, err
			}
		}
	}
	if err := flush(); err != nil {
		return digest.Recovered{}, err
	}
	return out, nil
}

// FindDigest returns the stored digest id; ENOTFOUND when there is none.
func (s *Store) FindDigest(ctx context.Context, id string) (*digest.Digest, error) {
	raw, _, err := s.get(ctx, "read digest "+id, s.kDigest(id))
	if err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "There is no digest %s.", id)
	}
	var d digest.Digest
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("digest %s is damaged: %w", id, err)
	}
	return &d, nil
}

// FindDelivery returns the delivery key; ENOTFOUND when there is none.
func (s *Store) FindDelivery(ctx context.Context, key string) (*digest.Delivery, error) {
	dv, _, err := s.delivery(ctx, key)
	if err == nil && dv == nil {
		err = knowledge.Errorf(knowledge.ENOTFOUND, "There is no delivery %s.", key)
	}
	return dv, err
}

// ListDeliveries returns every delivery, by key.
func (s *Store) ListDeliveries(ctx context.Context) ([]digest.Delivery, error) {
	return listJSON[digest.Delivery](ctx, s, s.prefix+"outbox/d/", "delivery")
}

// LastRun returns when the schedule name last ran, or the zero time.
func (s *Store) LastRun(ctx context.Context, name string) (time.Time, error) {
	var t time.Time
	raw, _, err := s.get(ctx, "read schedule "+name, s.kSchedule(name))
	if err != nil || raw == nil {
		return t, err
	}
	if err := t.UnmarshalText(raw); err != nil {
		return t, fmt.Errorf("last run of %s is damaged: %w", name, err)
	}
	return t, nil
}

// SetLastRun records that the schedule name ran for the time at (fenced).
func (s *Store) SetLastRun(ctx context.Context, name string, at time.Time) error {
	raw, _ := at.UTC().MarshalText()
	resp, err := s.txn(ctx, "record schedule "+name, true, nil, []clientv3.Op{clientv3.OpPut(s.kSchedule(name), string(raw))})
	if err == nil && !resp.Succeeded {
		err = ErrNotLeader
	}
	return err
}
