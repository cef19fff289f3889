package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

var subsNow = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// openUserState opens a new database in a temporary folder; at cleanup it
// checks the file's pages with tx.Check and closes it.
func openUserState(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "kepbot.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		checkPages(t, db)
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// checkPages fails t when bbolt finds a page unreachable or twice referenced.
func checkPages(t testing.TB, db *DB) {
	t.Helper()
	err := db.bolt.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("tx.Check: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

func channel(platform, ws, ch string) digest.ChannelRef {
	return digest.ChannelRef{Platform: platform, Workspace: ws, Channel: ch}
}

func newSub(ref digest.ChannelRef, f digest.Filter) digest.Subscription {
	if f.Schedule == "" {
		f.Schedule = digest.ScheduleRelease
	}
	if f.Format == "" {
		f.Format = digest.FormatCompact
	}
	return digest.Subscription{Platform: ref.Platform, Workspace: ref.Workspace, Channel: ref.Channel,
		Filter: f, CreatedBy: "U1", CreatedByName: "ada", CreatedAt: subsNow}
}

func TestSubscriptionsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openUserState(t)
	s := db.Subscriptions()
	ref := channel("slack", "T1", "C1")

	if _, err := s.FindSubscriptionByChannel(ctx, ref); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Fatalf("find before save: %v, want ENOTFOUND", err)
	}
	saved, err := s.SaveSubscription(ctx, newSub(ref, digest.Filter{SIG: "network", From: knowledge.MustVersion("1.29")}))
	if err != nil {
		t.Fatal(err)
	}
	if saved.ID != "slack/T1/C1" || saved.Rev != 1 || saved.State != digest.SubscriptionActive {
		t.Errorf("saved %+v", saved)
	}
	got, err := s.FindSubscriptionByChannel(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(saved, got); diff != "" {
		t.Errorf("find (-saved +found):\n%s", diff)
	}

	// Pause, then subscribe again: active, Rev moves on, history kept.
	if err := s.PauseSubscription(ctx, ref, "is_archived", subsNow); err != nil {
		t.Fatal(err)
	}
	got, _ = s.FindSubscriptionByChannel(ctx, ref)
	if got.State != digest.SubscriptionPaused || got.PausedReason != "is_archived" || got.Rev != 2 {
		t.Errorf("paused: %+v", got)
	}
	again, err := s.SaveSubscription(ctx, newSub(ref, digest.Filter{Schedule: digest.ScheduleWeekly}))
	if err != nil {
		t.Fatal(err)
	}
	if again.State != digest.SubscriptionActive || again.PausedReason != "" || again.Rev != 3 || again.Filter.SIG != "" {
		t.Errorf("subscribed again: %+v", again)
	}

	other := channel("discord", "G1", "42")
	if _, err := s.SaveSubscription(ctx, newSub(other, digest.Filter{})); err != nil {
		t.Fatal(err)
	}
	all, err := s.ListSubscriptions(ctx)
	if err != nil || len(all) != 2 || all[0].ID != "discord/G1/42" || all[1].ID != "slack/T1/C1" {
		t.Fatalf("list = %+v, %v", all, err)
	}
	if err := s.DeleteSubscription(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSubscription(ctx, ref); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("second delete: %v, want ENOTFOUND", err)
	}
	if err := s.PauseSubscription(ctx, ref, "x", subsNow); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("pause of none: %v, want ENOTFOUND", err)
	}
}

func TestSaveSubscriptionRefusesWhatItCannotKeep(t *testing.T) {
	ctx := context.Background()
	s := openUserState(t).Subscriptions()
	tests := []struct {
		name string
		sub  digest.Subscription
		want string
	}{
		{"no channel", newSub(channel("slack", "T1", ""), digest.Filter{}), "Slack and Discord channels"},
		{"slash in a part", newSub(channel("slack", "T/1", "C1"), digest.Filter{}), "cannot hold"},
		{"hourly", newSub(channel("slack", "T1", "C1"), digest.Filter{Schedule: "hourly"}), "release, weekly or daily"},
		{"tiny", newSub(channel("slack", "T1", "C1"), digest.Filter{Format: "tiny"}), "compact or full"},
	}
	for _, tt := range tests {
		_, err := s.SaveSubscription(ctx, tt.sub)
		if knowledge.ErrorCode(err) != knowledge.EBADINPUT || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want EBADINPUT saying %q", tt.name, err, tt.want)
		}
	}
	if all, _ := s.ListSubscriptions(ctx); len(all) != 0 {
		t.Errorf("refused saves stored %d subscriptions", len(all))
	}
}

// TestKnowledgeReplaceLeavesSubscriptions: a new ingest must not drop
// what channels asked for or what they were told.
func TestKnowledgeReplaceLeavesSubscriptions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "kepbot.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref := channel("slack", "T1", "C1")
	if _, err := db.Subscriptions().SaveSubscription(ctx, newSub(ref, digest.Filter{})); err != nil {
		t.Fatal(err)
	}
	ids := []digest.NoticeIdentity{{Aliases: []string{"k"}}}
	if _, err := db.Subscriptions().ObserveNotices(ctx, ids); err != nil {
		t.Fatal(err)
	}
	k := &knowledge.Knowledge{Releases: []knowledge.ReleaseRecord{{Release: knowledge.Release{Version: knowledge.MustVersion("1.40")}}}}
	for range 2 {
		if err := db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Subscriptions().FindSubscriptionByChannel(ctx, ref); err != nil {
		t.Errorf("subscription lost to a knowledge replace: %v", err)
	}
	if seq, err := db.Subscriptions().ObserveNotices(ctx, ids); err != nil || seq[0].First != 1 {
		t.Errorf("ledger lost to a knowledge replace: %v %v", seq, err)
	}
	checkPages(t, db)
}
