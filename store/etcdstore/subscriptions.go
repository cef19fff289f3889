package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/store"
)

// SaveSubscription creates the channel's subscription or replaces its
// filter, who, when and Seen, making it active again and keeping its
// delivery history, as the bbolt store does. It fails with EBADINPUT for
// what cannot be stored, and with ErrUnavailable when etcd does not answer.
func (s *Store) SaveSubscription(ctx context.Context, sub knowledge.Subscription) (*knowledge.Subscription, error) {
	ref := sub.Ref()
	if err := ref.Validate(); err != nil {
		return nil, err
	}
	if sub.State == "" {
		sub.State = knowledge.SubscriptionActive
	}
	if err := validSubscription(&sub); err != nil {
		return nil, err
	}
	sub.ID = ref.ID()
	for range maxAttempts {
		old, rev, err := s.subscription(ctx, sub.ID)
		if err != nil {
			return nil, err
		}
		next := sub
		if old != nil {
			next.Rev = old.Rev
			next.LastDigestAt, next.LastDigestID, next.LastDeliveredAt = old.LastDigestAt, old.LastDigestID, old.LastDeliveredAt
		}
		next.Rev++
		next.PausedReason, next.PausedAt = "", time.Time{}
		raw, err := json.Marshal(&next)
		if err != nil {
			return nil, fmt.Errorf("encode subscription %s: %w", sub.ID, err)
		}
		resp, err := s.txn(ctx, "save subscription "+sub.ID, false,
			[]clientv3.Cmp{unchanged(s.kSub(sub.ID), rev)}, []clientv3.Op{clientv3.OpPut(s.kSub(sub.ID), string(raw))})
		if err != nil {
			return nil, err
		}
		if resp.Succeeded {
			return &next, nil
		}
	}
	return nil, fmt.Errorf("save subscription %s: %w", sub.ID, errConflict)
}

func validSubscription(sub *knowledge.Subscription) error {
	f := sub.Filter
	switch {
	case f.Schedule != knowledge.ScheduleRelease && f.Schedule != knowledge.ScheduleWeekly && f.Schedule != knowledge.ScheduleDaily:
		return knowledge.Errorf(knowledge.EBADINPUT, "A subscription's schedule must be release, weekly or daily, not %q.", f.Schedule)
	case f.Format != knowledge.FormatCompact && f.Format != knowledge.FormatFull:
		return knowledge.Errorf(knowledge.EBADINPUT, "A subscription's format must be compact or full, not %q.", f.Format)
	case sub.State != knowledge.SubscriptionActive:
		return knowledge.Errorf(knowledge.EBADINPUT, "A subscription is saved active; pause it with PauseSubscription.")
	}
	return nil
}

// DeleteSubscription removes the channel's subscription and, in the same
// transaction, gives up its deliveries not yet posted. It fails with
// ENOTFOUND when the channel has none.
func (s *Store) DeleteSubscription(ctx context.Context, ch knowledge.ChannelRef) error {
	return s.changeSubscription(ctx, "delete subscription "+ch.ID(), ch, func(*knowledge.Subscription) (clientv3.Op, string, time.Time) {
		return clientv3.OpDelete(s.kSub(ch.ID())), "unsubscribed", time.Now().UTC()
	})
}

// PauseSubscription stops digests to the channel, records why, and gives
// up its deliveries not yet posted, in one transaction. It fails with
// ENOTFOUND when the channel has no subscription.
func (s *Store) PauseSubscription(ctx context.Context, ch knowledge.ChannelRef, reason string, at time.Time) error {
	return s.changeSubscription(ctx, "pause subscription "+ch.ID(), ch, func(sub *knowledge.Subscription) (clientv3.Op, string, time.Time) {
		sub.State, sub.PausedReason, sub.PausedAt = knowledge.SubscriptionPaused, reason, at.UTC()
		sub.Rev++
		raw, _ := json.Marshal(sub) // a decoded subscription always encodes
		return clientv3.OpPut(s.kSub(ch.ID()), string(raw)), "subscription paused: " + reason, at
	})
}

// changeSubscription rewrites (or deletes) the channel's subscription with
// the op change returns, and kills its pending deliveries with the reason
// it gives, in one transaction.
func (s *Store) changeSubscription(ctx context.Context, what string, ch knowledge.ChannelRef,
	change func(*knowledge.Subscription) (clientv3.Op, string, time.Time)) error {
	for range maxAttempts {
		sub, rev, err := s.subscription(ctx, ch.ID())
		if err != nil {
			return err
		}
		if sub == nil {
			return knowledge.Errorf(knowledge.ENOTFOUND, "This channel has no subscription.")
		}
		op, reason, at := change(sub)
		cmps := []clientv3.Cmp{unchanged(s.kSub(ch.ID()), rev)}
		ops := []clientv3.Op{op}
		kc, ko, err := s.killPending(ctx, ch, reason, at)
		if err != nil {
			return err
		}
		resp, err := s.txn(ctx, what, false, append(cmps, kc...), append(ops, ko...))
		if err != nil {
			return err
		}
		if resp.Succeeded {
			return nil
		}
	}
	return fmt.Errorf("%s: %w", what, errConflict)
}

// FindSubscriptionByChannel returns the channel's subscription. It fails
// with ENOTFOUND when the channel has none.
func (s *Store) FindSubscriptionByChannel(ctx context.Context, ch knowledge.ChannelRef) (*knowledge.Subscription, error) {
	sub, _, err := s.subscription(ctx, ch.ID())
	if err == nil && sub == nil {
		err = knowledge.Errorf(knowledge.ENOTFOUND, "This channel has no subscription.")
	}
	return sub, err
}

// ListSubscriptions returns every subscription, by channel ID.
func (s *Store) ListSubscriptions(ctx context.Context) ([]knowledge.Subscription, error) {
	return listJSON[knowledge.Subscription](ctx, s, s.prefix+"subscriptions/", "subscription")
}

// subscription reads one subscription and its revision; nil, 0 when absent.
func (s *Store) subscription(ctx context.Context, id string) (*knowledge.Subscription, int64, error) {
	raw, rev, err := s.get(ctx, "read subscription "+id, s.kSub(id))
	if err != nil || raw == nil {
		return nil, 0, err
	}
	var sub knowledge.Subscription
	if err := json.Unmarshal(raw, &sub); err != nil {
		return nil, 0, fmt.Errorf("subscription %q is damaged: %w", id, err)
	}
	return &sub, rev, nil
}

// listJSON reads every value under prefix, in key order.
func listJSON[T any](parent context.Context, s *Store, prefix, what string) ([]T, error) {
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	if err != nil {
		return nil, fail(parent, "list "+what+"s", err)
	}
	out := make([]T, 0, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		var v T
		if err := json.Unmarshal(kv.Value, &v); err != nil {
			return nil, fmt.Errorf("%s %q is damaged: %w", what, kv.Key, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// ledgerBatch is how many new notice keys one transaction numbers: etcd
// allows 128 operations a transaction by default (--max-txn-ops).
const ledgerBatch = 60

// ObserveNotices numbers the keys not seen before, in the order given, and
// returns the sequence of every key. Replicas observing at once never give
// two keys one number: each batch compares the counter it read.
func (s *Store) ObserveNotices(ctx context.Context, keys []string) (map[string]uint64, error) {
	out := make(map[string]uint64, len(keys))
	for range maxAttempts {
		known, seq, seqRev, err := s.ledger(ctx)
		if err != nil {
			return nil, err
		}
		var missing []string
		seen := map[string]bool{}
		for _, k := range keys {
			lk := store.LedgerKey(k)
			if n, ok := known[lk]; ok {
				out[k] = n
			} else if !seen[lk] {
				seen[lk] = true
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			return out, nil
		}
		batch := missing[:min(len(missing), ledgerBatch)]
		cmps := []clientv3.Cmp{unchanged(s.kLedgerSeq(), seqRev)}
		var ops []clientv3.Op
		for i, k := range batch {
			cmps = append(cmps, unchanged(s.kLedger(k), 0))
			ops = append(ops, clientv3.OpPut(s.kLedger(k), strconv.FormatUint(seq+uint64(i)+1, 10)))
		}
		ops = append(ops, clientv3.OpPut(s.kLedgerSeq(), strconv.FormatUint(seq+uint64(len(batch)), 10)))
		if _, err := s.txn(ctx, "observe notices", false, cmps, ops); err != nil {
			return nil, err
		}
		// Succeeded or not, read again: the next batch, or the winner's numbers.
	}
	return nil, fmt.Errorf("observe notices: %w", errConflict)
}

// ledger reads every numbered key, by its ledger form (store.LedgerKey),
// and the counter with its revision.
func (s *Store) ledger(parent context.Context) (known map[string]uint64, seq uint64, seqRev int64, err error) {
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Txn(ctx).Then(
		clientv3.OpGet(s.kLedgerSeq()),
		clientv3.OpGet(s.prefix+"ledger/keys/", clientv3.WithPrefix()),
	).Commit()
	if err != nil {
		return nil, 0, 0, fail(parent, "read the notice ledger", err)
	}
	if kvs := resp.Responses[0].GetResponseRange().Kvs; len(kvs) > 0 {
		seqRev = kvs[0].ModRevision
		if seq, err = strconv.ParseUint(string(kvs[0].Value), 10, 64); err != nil {
			return nil, 0, 0, fmt.Errorf("the notice ledger's counter is damaged: %w", err)
		}
	}
	byLedgerKey := map[string]uint64{}
	base := len(s.prefix + "ledger/keys/")
	for _, kv := range resp.Responses[1].GetResponseRange().Kvs {
		n, err := strconv.ParseUint(string(kv.Value), 10, 64)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("the notice ledger's entry %q is damaged: %w", kv.Key, err)
		}
		byLedgerKey[string(kv.Key[base:])] = n
	}
	return byLedgerKey, seq, seqRev, nil
}
