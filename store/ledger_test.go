package store

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge/digest"
)

func ids(aliases ...[]string) []digest.NoticeIdentity {
	out := make([]digest.NoticeIdentity, len(aliases))
	for i, a := range aliases {
		out[i] = digest.NoticeIdentity{Aliases: a}
	}
	return out
}

func seqs(pairs ...uint64) []digest.NoticeSeq {
	var out []digest.NoticeSeq
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, digest.NoticeSeq{First: pairs[i], Last: pairs[i+1]})
	}
	return out
}

// lastTx is the ID of the database's last committed transaction.
func lastTx(t *testing.T, db *DB) int {
	t.Helper()
	var id int
	if err := db.bolt.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }); err != nil {
		t.Fatal(err)
	}
	return id
}

func observeOK(t *testing.T, s *SubscriptionStore, in []digest.NoticeIdentity) []digest.NoticeSeq {
	t.Helper()
	got, err := s.ObserveNotices(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestObserveNoticesNumbersItemsByAlias: items are numbered in the order
// given; an item sharing an alias with a numbered one takes its number and
// records its other aliases under it; an item joining two takes the
// smaller and reports the larger as Last. Observing again only reads.
func TestObserveNoticesNumbersItemsByAlias(t *testing.T) {
	db := openUserState(t)
	s := db.Subscriptions()
	long := strings.Repeat("x", 5000)
	got := observeOK(t, s, ids([]string{"b"}, []string{"a", long}))
	if diff := cmp.Diff(seqs(1, 1, 2, 2), got); diff != "" {
		t.Errorf("first (-want +got):\n%s", diff)
	}

	// "c" is told by a new document together with "b"'s alias.
	got = observeOK(t, s, ids([]string{"b", "c"}, []string{"a", long}, []string{"d"}))
	if diff := cmp.Diff(seqs(1, 1, 2, 2, 3, 3), got); diff != "" {
		t.Errorf("second (-want +got):\n%s", diff)
	}
	if got := observeOK(t, s, ids([]string{"c"})); got[0].First != 1 {
		t.Errorf("c alone: %+v; want the sequence it was recorded with, 1", got)
	}

	// One item now joins what were two.
	if got := observeOK(t, s, ids([]string{"a", "d"})); got[0] != (digest.NoticeSeq{First: 2, Last: 3}) {
		t.Errorf("a and d: %+v; want First 2, Last 3", got)
	}

	before := lastTx(t, db)
	again := observeOK(t, s, ids([]string{"b", "c"}, []string{"a", long}, []string{"d"}))
	if diff := cmp.Diff(seqs(1, 1, 2, 2, 3, 3), again); diff != "" {
		t.Errorf("again (-want +got):\n%s", diff)
	}
	if after := lastTx(t, db); after != before {
		t.Errorf("observing known aliases wrote (transaction %d → %d)", before, after)
	}
	if got := observeOK(t, s, nil); len(got) != 0 {
		t.Errorf("no identities gave %v", got)
	}
}

// oldLedger writes a ledger as kepbot wrote it before aliases: keys to
// sequences, the bucket's sequence at the last, and no format key.
func oldLedger(t *testing.T, db *DB, keys map[string]uint64) {
	t.Helper()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketLedger)
		if err != nil {
			return err
		}
		var top uint64
		for k, n := range keys {
			var v [8]byte
			binary.BigEndian.PutUint64(v[:], n)
			if err := b.Put(ledgerKey(k), v[:]); err != nil {
				return err
			}
			top = max(top, n)
		}
		return b.SetSequence(top)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestObserveNoticesReadsAnOldLedger: in a ledger an older kepbot wrote,
// an item takes the sequence of its legacy keys, and its aliases are
// recorded under it; legacy keys are never written, and count whenever an
// item carries them, also one that was not there at the upgrade, except
// those an item has only at the upgrade.
func TestObserveNoticesReadsAnOldLedger(t *testing.T) {
	db := openUserState(t)
	s := db.Subscriptions()
	oldLedger(t, db, map[string]uint64{
		"removal|1.27|gates:ipv6dualstack":            4,
		"removal|1.27|kep:2079":                       7,
		"removal|1.27|gates:localstoragecapacityisol": 3,
		strings.Repeat("y", 600):                      2, // the old ledger hashed long keys too
	})
	in := []digest.NoticeIdentity{
		{Aliases: []string{"removal|1.27|gate=ipv6dualstack"}, Legacy: []string{"removal|1.27|gates:ipv6dualstack", "removal|1.27|kep:563"}},
		{Aliases: []string{"removal|1.27|gate=networkpolicyendport"}, Legacy: []string{"removal|1.27|kep:2079"}},
		{Aliases: []string{"title=long"}, Legacy: []string{strings.Repeat("y", 600)}},
		{Aliases: []string{"removal|1.27|pr=1"}, LegacyAtUpgrade: []string{"removal|1.27|kep:2079"}},
		{Aliases: []string{"deprecation|1.31|pr=2"}},
	}
	got := observeOK(t, s, in)
	if diff := cmp.Diff(seqs(4, 4, 7, 7, 2, 2, 7, 7, 8, 8), got); diff != "" {
		t.Errorf("upgrade (-want +got):\n%s", diff)
	}
	// The aliases now hold those sequences on their own.
	got = observeOK(t, s, ids([]string{"removal|1.27|gate=ipv6dualstack"}, []string{"removal|1.27|gate=networkpolicyendport"}, []string{"title=long"}))
	if diff := cmp.Diff(seqs(4, 4, 7, 7, 2, 2), got); diff != "" {
		t.Errorf("after the upgrade, by alias alone (-want +got):\n%s", diff)
	}
	// A notice absent at the upgrade (its source taken away a while) comes
	// back: its old key still counts.
	back := []digest.NoticeIdentity{{Aliases: []string{"removal|1.27|gate=localstoragecapacityisol"}, Legacy: []string{"removal|1.27|gates:localstoragecapacityisol"}}}
	if got := observeOK(t, s, back); got[0] != (digest.NoticeSeq{First: 3, Last: 3}) {
		t.Errorf("a notice back after the upgrade: %+v; want its old sequence, 3", got)
	}
	// A release-note entry about KEP-2079 that comes after the upgrade is
	// new, though its old key is in the ledger: such keys count only at
	// the upgrade.
	later := []digest.NoticeIdentity{{Aliases: []string{"removal|1.27|pr=3"}, LegacyAtUpgrade: []string{"removal|1.27|kep:2079"}}}
	if got := observeOK(t, s, later); got[0].First != 9 {
		t.Errorf("an entry after the upgrade: %+v; want the next sequence, 9", got)
	}
	// Legacy keys are never written.
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketLedger).Get([]byte("removal|1.27|kep:563")); v != nil {
			t.Errorf("a legacy key was recorded: %x", v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
