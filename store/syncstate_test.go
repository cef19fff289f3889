package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

func testState() SyncState {
	return SyncState{
		URL:     "https://example.test/enhancements.tar.gz",
		ETag:    `"abc123"`,
		Commit:  "abc123",
		Synced:  time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC),
		Checked: time.Date(2031, 1, 2, 3, 4, 6, 0, time.UTC),
	}
}

func syncStateOf(t *testing.T, db *DB) SyncState {
	t.Helper()
	st, err := db.Knowledge().SyncState(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSyncStateRoundTrip(t *testing.T) {
	db := openTest(t)
	if st := syncStateOf(t, db); !st.IsZero() {
		t.Fatalf("new database: sync state %+v; want the zero state", st)
	}
	mustReplace(t, db, sampleKnowledge())
	before := infoOf(t, db)

	want := testState()
	if err := db.Knowledge().SaveSyncState(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, syncStateOf(t, db)); diff != "" {
		t.Errorf("sync state (-saved +read):\n%s", diff)
	}
	// Saving a state touches nothing else.
	checkUnchanged(t, db, sampleKnowledge(), before)

	// A plain ReplaceKnowledge keeps the sync state.
	mustReplace(t, db, generation(1))
	if diff := cmp.Diff(want, syncStateOf(t, db)); diff != "" {
		t.Errorf("after ReplaceKnowledge (-saved +read):\n%s", diff)
	}
}

func TestReplaceWithSync(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	k := generation(2)
	k.Corpus = sampleCorpus()
	st := testState()
	if err := db.Knowledge().ReplaceWithSync(t.Context(), k, st); err != nil {
		t.Fatal(err)
	}
	withoutCorpus := *k
	withoutCorpus.Corpus = nil // compared below, through LoadCorpus
	if diff := diffKnowledge(&withoutCorpus, snapshot(t, db)); diff != "" {
		t.Errorf("knowledge (-given +read):\n%s", diff)
	}
	if diff := cmp.Diff(st, syncStateOf(t, db)); diff != "" {
		t.Errorf("sync state (-given +read):\n%s", diff)
	}
	c, err := db.Knowledge().LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampleCorpus(), c); diff != "" {
		t.Errorf("corpus (-given +read):\n%s", diff)
	}
	if info := infoOf(t, db); !info.Replaced.Equal(fixedNow) || info.Stats != k.Stats() {
		t.Errorf("info %+v; want the replace recorded", info)
	}
}

// TestFailedReplaceWithSyncKeepsTheOldState fails a sync's replace in each
// way it can fail: the knowledge, the corpus and the state must all be as
// they were.
func TestFailedReplaceWithSyncKeepsTheOldState(t *testing.T) {
	badKEP := generation(4)
	badKEP.KEPs = append(badKEP.KEPs, knowledge.KEP{Number: 1, Title: "again"})
	badKEP.Corpus = sampleCorpus()
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		k    *knowledge.Knowledge
		st   SyncState
		want string
	}{
		{"bad knowledge", t.Context(), badKEP, testState(), "KEP-1 is given twice"},
		{"cancelled", cancelled, generation(4), testState(), "context canceled"},
		{"token in the URL", t.Context(), generation(4), SyncState{URL: "https://example.test/x.tar.gz?access_token=s3cr3t"}, "user info, a query or a fragment"},
		{"user info in the URL", t.Context(), generation(4), SyncState{URL: "https://me:pw@example.test/x.tar.gz"}, "user info, a query or a fragment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			old := sampleKnowledge()
			old.Corpus = sampleCorpus()
			oldState := SyncState{URL: "https://example.test/old.tar.gz", ETag: `"old"`, Synced: fixedNow, Checked: fixedNow}
			if err := db.Knowledge().ReplaceWithSync(t.Context(), old, oldState); err != nil {
				t.Fatal(err)
			}
			before := infoOf(t, db)
			err := db.Knowledge().ReplaceWithSync(tc.ctx, tc.k, tc.st)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReplaceWithSync: %v; want an error saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "pw@") {
				t.Errorf("the error repeats the secret: %v", err)
			}
			old.Corpus = nil
			checkUnchanged(t, db, old, before)
			if diff := cmp.Diff(oldState, syncStateOf(t, db)); diff != "" {
				t.Errorf("sync state changed (-before +after):\n%s", diff)
			}
			if c, err := db.Knowledge().LoadCorpus(t.Context()); err != nil || len(c.Mentions) != 1 {
				t.Errorf("corpus after the failure: %v, %v; want the old one", c, err)
			}
		})
	}
}

func TestSaveSyncStateRefusesSecrets(t *testing.T) {
	db := openTest(t)
	for _, u := range []string{
		"https://example.test/x?token=s3cr3t",
		"https://user:s3cr3t@example.test/x",
		"https://example.test/x#s3cr3t",
		"https://example.test/%zz",
	} {
		err := db.Knowledge().SaveSyncState(t.Context(), SyncState{URL: u})
		if err == nil {
			t.Errorf("SaveSyncState(%q) succeeded", u)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("the error repeats the secret: %v", err)
		}
	}
	if st := syncStateOf(t, db); !st.IsZero() {
		t.Errorf("state %+v after refusals; want none saved", st)
	}
	if err := db.Knowledge().SaveSyncState(t.Context(), SyncState{URL: "file:///srv/enhancements.tar.gz"}); err != nil {
		t.Errorf("a file URL: %v", err)
	}
}

func TestDamagedSyncState(t *testing.T) {
	db := openTest(t)
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySync, []byte("{not json"))
	}); err != nil {
		t.Fatal(err)
	}
	_, err := db.Knowledge().SyncState(t.Context())
	if !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), "read sync state") {
		t.Errorf("SyncState: %v; want a corrupt-value error", err)
	}
}
