package etcdstore

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// The notice ledger in etcd, under the prefix:
//
//	ledger/seq          the last sequence given, decimal
//	ledger/format       "aliases" once the ledger has numbered by aliases
//	ledger/shard/NN     JSON map: alias (store.LedgerKey) → sequence, for
//	                    the aliases whose sha256 starts with byte NN mod 64
//
// Sharding keeps each value small and a whole observation one transaction
// (at most 64 shards, the counter and the format: within etcd's 128
// operations), so replicas observing at once never give two items one
// number: the transaction compares every shard it rewrites and the counter.
const ledgerShards = 64

// ObserveNotices numbers each identity as digest.NoticeLedger says,
// exactly as the bbolt store does: the smallest sequence any of its
// aliases or legacy keys (and, before the ledger first numbered by aliases,
// its LegacyAtUpgrade keys) holds, else the next one; aliases not recorded
// yet are recorded with it. When every alias is recorded it only reads.
func (s *Store) ObserveNotices(ctx context.Context, ids []digest.NoticeIdentity) ([]digest.NoticeSeq, error) {
	for range maxAttempts {
		l, err := s.readLedger(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]digest.NoticeSeq, len(ids))
		upgrade := !l.aliases
		for i, id := range ids {
			out[i] = l.observe(id, upgrade)
		}
		if len(l.dirty) == 0 && l.seq == l.readSeq && l.aliases {
			return out, nil
		}
		cmps := []clientv3.Cmp{unchanged(s.kLedgerSeq(), l.seqRev), unchanged(s.kLedgerFormat(), l.formatRev)}
		ops := []clientv3.Op{clientv3.OpPut(s.kLedgerSeq(), strconv.FormatUint(l.seq, 10)), clientv3.OpPut(s.kLedgerFormat(), "aliases")}
		for n := range l.dirty {
			raw, err := json.Marshal(l.shards[n])
			if err != nil {
				return nil, fmt.Errorf("observe notices: %w", err)
			}
			cmps = append(cmps, unchanged(s.kShard(n), l.revs[n]))
			ops = append(ops, clientv3.OpPut(s.kShard(n), string(raw)))
		}
		resp, err := s.txn(ctx, "observe notices", false, cmps, ops)
		if err != nil {
			return nil, err
		}
		if resp.Succeeded {
			return out, nil
		}
	}
	return nil, fmt.Errorf("observe notices: %w", errConflict)
}

func (s *Store) kShard(n int) string { return fmt.Sprintf("%sledger/shard/%02x", s.prefix, n) }

// ledger is the whole ledger as read, and what observing changed.
type ledger struct {
	shards    [ledgerShards]map[string]uint64
	revs      [ledgerShards]int64
	dirty     map[int]bool
	seq       uint64 // the last sequence given, observations included
	readSeq   uint64
	seqRev    int64
	aliases   bool // the ledger has numbered by aliases
	formatRev int64
}

func (s *Store) readLedger(parent context.Context) (*ledger, error) {
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Txn(ctx).Then(
		clientv3.OpGet(s.kLedgerSeq()),
		clientv3.OpGet(s.kLedgerFormat()),
		clientv3.OpGet(s.prefix+"ledger/shard/", clientv3.WithPrefix()),
	).Commit()
	if err != nil {
		return nil, fail(parent, "read the notice ledger", err)
	}
	l := &ledger{dirty: map[int]bool{}}
	if kvs := resp.Responses[0].GetResponseRange().Kvs; len(kvs) > 0 {
		l.seqRev = kvs[0].ModRevision
		if l.readSeq, err = strconv.ParseUint(string(kvs[0].Value), 10, 64); err != nil {
			return nil, fmt.Errorf("the notice ledger's counter is damaged: %w", err)
		}
		l.seq = l.readSeq
	}
	if kvs := resp.Responses[1].GetResponseRange().Kvs; len(kvs) > 0 {
		l.aliases, l.formatRev = string(kvs[0].Value) == "aliases", kvs[0].ModRevision
	}
	base := len(s.prefix + "ledger/shard/")
	for _, kv := range resp.Responses[2].GetResponseRange().Kvs {
		n, err := strconv.ParseUint(string(kv.Key[base:]), 16, 8)
		if err != nil || n >= ledgerShards {
			return nil, fmt.Errorf("the notice ledger has a shard %q it does not know", kv.Key)
		}
		m := map[string]uint64{}
		if err := json.Unmarshal(kv.Value, &m); err != nil {
			return nil, fmt.Errorf("the notice ledger's shard %q is damaged: %w", kv.Key, err)
		}
		l.shards[n], l.revs[n] = m, kv.ModRevision
	}
	return l, nil
}

func shardOf(k string) int {
	sum := sha256.Sum256([]byte(k))
	return int(sum[0]) % ledgerShards
}

func (l *ledger) get(alias string) (uint64, bool) {
	k := store.LedgerKey(alias)
	n, ok := l.shards[shardOf(k)][k]
	return n, ok
}

func (l *ledger) put(alias string, n uint64) {
	k := store.LedgerKey(alias)
	i := shardOf(k)
	if l.shards[i] == nil {
		l.shards[i] = map[string]uint64{}
	}
	l.shards[i][k] = n
	l.dirty[i] = true
}

// lookup returns the span of sequences keys hold and how many hold none.
func (l *ledger) lookup(keys []string) (seq digest.NoticeSeq, missing int) {
	for _, k := range keys {
		n, ok := l.get(k)
		if !ok {
			missing++
			continue
		}
		seq = seq.Join(digest.NoticeSeq{First: n, Last: n})
	}
	return seq, missing
}

// observe numbers one identity and records its aliases not recorded yet.
func (l *ledger) observe(id digest.NoticeIdentity, upgrade bool) digest.NoticeSeq {
	seq, missing := l.lookup(id.Aliases)
	old, _ := l.lookup(id.Legacy)
	seq = seq.Join(old)
	if upgrade {
		old, _ := l.lookup(id.LegacyAtUpgrade)
		seq = seq.Join(old)
	}
	if missing == 0 && seq.First > 0 {
		return seq
	}
	if seq.First == 0 {
		l.seq++
		seq = digest.NoticeSeq{First: l.seq, Last: l.seq}
	}
	for _, a := range id.Aliases {
		if _, ok := l.get(a); !ok {
			l.put(a, seq.First)
		}
	}
	return seq
}
