package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// SaveSubscription creates the channel's subscription or replaces its
// filter, who, when and Seen, making it active again and keeping its
// delivery history, as the bbolt store does. It fails with EBADINPUT for
// what cannot be stored, and with ErrUnavailable when etcd does not answer.
func (s *Store) SaveSubscription(ctx context.Context, sub digest.Subscription) (*digest.Subscription, error) {
	if err := sub.PrepareSave(); err != nil {
		return nil, err
	}
	for range maxAttempts {
		old, rev, err := s.subscription(ctx, sub.ID)
		if err != nil {
			return nil, err
		}
		next := sub
		next.Replace(old)
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

// DeleteSubscription removes the channel's subscription and, in the same
// transaction, gives up its deliveries not yet posted. It fails with
// ENOTFOUND when the channel has none.
func (s *Store) DeleteSubscription(ctx context.Context, ch digest.ChannelRef) error {
	return s.changeSubscription(ctx, "delete subscription "+ch.ID(), ch, func(*digest.Subscription) (clientv3.Op, string, time.Time) {
		return clientv3.OpDelete(s.kSub(ch.ID())), "unsubscribed", time.Now().UTC()
	})
}

// PauseSubscription stops digests to the channel, records why, and gives
// up its deliveries not yet posted, in one transaction. It fails with
// ENOTFOUND when the channel has no subscription.
func (s *Store) PauseSubscription(ctx context.Context, ch digest.ChannelRef, reason string, at time.Time) error {
	return s.changeSubscription(ctx, "pause subscription "+ch.ID(), ch, func(sub *digest.Subscription) (clientv3.Op, string, time.Time) {
		sub.Pause(reason, at)
		raw, _ := json.Marshal(sub) // a decoded subscription always encodes
		return clientv3.OpPut(s.kSub(ch.ID()), string(raw)), "subscription paused: " + reason, at
	})
}

// changeSubscription rewrites (or deletes) the channel's subscription with
// the op change returns, and kills its pending deliveries with the reason
// it gives, in one transaction.
func (s *Store) changeSubscription(ctx context.Context, what string, ch digest.ChannelRef,
	change func(*digest.Subscription) (clientv3.Op, string, time.Time)) error {
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
func (s *Store) FindSubscriptionByChannel(ctx context.Context, ch digest.ChannelRef) (*digest.Subscription, error) {
	sub, _, err := s.subscription(ctx, ch.ID())
	if err == nil && sub == nil {
		err = knowledge.Errorf(knowledge.ENOTFOUND, "This channel has no subscription.")
	}
	return sub, err
}

// ListSubscriptions returns every subscription, by channel ID.
func (s *Store) ListSubscriptions(ctx context.Context) ([]digest.Subscription, error) {
	return listJSON[digest.Subscription](ctx, s, s.prefix+"subscriptions/", "subscription")
}

// subscription reads one subscription and its revision; nil, 0 when absent.
func (s *Store) subscription(ctx context.Context, id string) (*digest.Subscription, int64, error) {
	raw, rev, err := s.get(ctx, "read subscription "+id, s.kSub(id))
	if err != nil || raw == nil {
		return nil, 0, err
	}
	var sub digest.Subscription
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
