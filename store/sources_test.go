package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

func TestSourceStatesRoundTrip(t *testing.T) {
	db := openTest(t)
	kb := db.Knowledge()
	if sts, err := kb.SourceStates(t.Context()); err != nil || len(sts) != 0 {
		t.Fatalf("a new database's states: %v, %v; want none", sts, err)
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	want := map[string]SourceState{
		"kep.yaml":           {URL: "https://api.github.com/repos/kubernetes/enhancements/tarball", ETag: `"abc"`, Commit: "64765b4", IDs: []string{"kubernetes/enhancements"}, Checked: at, Succeeded: at, Changed: at, Result: "updated"},
		"release-notes/1.36": {URL: "https://raw.githubusercontent.com/x/y.json", LastModified: "Wed, 21 Oct 2026 07:28:00 GMT", Checked: at, Result: "failed", Error: "HTTP 500", FailingSince: at, Failures: 2, RetryAt: at.Add(time.Minute)},
	}
	if err := kb.SaveSourceStates(t.Context(), want); err != nil {
		t.Fatal(err)
	}
	got, err := kb.SourceStates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
}

// TestSourceStatesRefuseSecrets: a URL that could carry a token is never
// stored, and the database is left as it was.
func TestSourceStatesRefuseSecrets(t *testing.T) {
	db := openTest(t)
	kb := db.Knowledge()
	for _, u := range []string{"https://x.test/t?access_token=SECRET", "https://user:SECRET@x.test/t", "https://x.test/t#SECRET"} {
		err := kb.SaveSourceStates(t.Context(), map[string]SourceState{"s": {URL: u}})
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("SaveSourceStates(%s): %v; want a refusal that does not echo the secret", u, err)
		}
		err = kb.ReplaceWithSources(t.Context(), sampleKnowledge(), map[string]SourceState{"s": {URL: u}})
		if err == nil {
			t.Errorf("ReplaceWithSources(%s) succeeded", u)
		}
	}
	if g, _ := kb.Generation(t.Context()); g != 0 {
		t.Errorf("generation %d after refused replaces; want 0", g)
	}
}

// TestReplaceBumpsGenerationAndKeepsStatesTogether: every replace bumps the
// generation; ReplaceWithSources writes the states in the same transaction,
// and a replace that fails leaves knowledge, states and generation as they
// were.
func TestReplaceBumpsGenerationAndKeepsStatesTogether(t *testing.T) {
	db := openTest(t)
	kb := db.Knowledge()
	mustReplace(t, db, sampleKnowledge())
	sts := map[string]SourceState{"lifecycle": {URL: "https://x.test/k.md", Result: "updated"}}
	if err := kb.ReplaceWithSources(t.Context(), sampleKnowledge(), sts); err != nil {
		t.Fatal(err)
	}
	if g, err := kb.Generation(t.Context()); err != nil || g != 2 {
		t.Fatalf("generation %d, %v; want 2", g, err)
	}
	bad := sampleKnowledge()
	bad.KEPs = append(bad.KEPs, bad.KEPs[0]) // a KEP given twice: refused
	err := kb.ReplaceWithSources(t.Context(), bad, map[string]SourceState{"lifecycle": {Result: "failed"}})
	if err == nil {
		t.Fatal("a replace with a KEP given twice succeeded")
	}
	if g, _ := kb.Generation(t.Context()); g != 2 {
		t.Errorf("generation %d after a failed replace; want 2", g)
	}
	got, _ := kb.SourceStates(t.Context())
	if diff := cmp.Diff(sts, got); diff != "" {
		t.Errorf("states after a failed replace (-want +got):\n%s", diff)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := kb.ReplaceWithSources(ctx, sampleKnowledge(), nil); err == nil {
		t.Error("a replace with a cancelled context succeeded")
	}
}

// TestLegacySyncStateIsReadAsKEPYAML: a schema 2 database synced by an
// older kepbot keeps its kep.yaml ETag and commit, so the first refresh
// asks "anything new?" instead of downloading the tarball again; the next
// save takes its place.
func TestLegacySyncStateIsReadAsKEPYAML(t *testing.T) {
	db := openTest(t)
	kb := db.Knowledge()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySync, []byte(`{"url":"https://api.github.com/repos/kubernetes/enhancements/tarball","etag":"\"e1\"","commit":"abc1234","synced":"2030-01-02T03:04:05Z","checked":"2030-01-02T03:04:05Z"}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	sts, err := kb.SourceStates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := SourceState{URL: "https://api.github.com/repos/kubernetes/enhancements/tarball", ETag: `"e1"`, Commit: "abc1234", Checked: at, Succeeded: at, Changed: at}
	if diff := cmp.Diff(map[string]SourceState{LegacySyncName: want}, sts); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if err := kb.SaveSourceStates(t.Context(), map[string]SourceState{"kep.yaml": {ETag: `"e2"`}}); err != nil {
		t.Fatal(err)
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta).Get(keySync) != nil {
			t.Error("the old sync state is still there after a save")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
