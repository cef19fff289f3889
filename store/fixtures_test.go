package store

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// Test values are written here by hand; none of their text comes from a
// real release note.

var (
	v1_2  = knowledge.MustVersion("1.2")
	v1_9  = knowledge.MustVersion("1.9")
	v1_10 = knowledge.MustVersion("1.10")
	v2_0  = knowledge.MustVersion("2.0")
)

// fixedNow is the clock of test stores.
var fixedNow = time.Date(2030, 4, 5, 6, 7, 8, 9, time.UTC)

// equateEmpty treats nil and empty slices and maps as equal: the codec
// gives back nil for an empty list.
var equateEmpty = cmpopts.EquateEmpty()

// sampleKnowledge has two sources, three releases given out of order,
// items of several stages interleaved, notices of every kind and KEPs whose
// numbers are out of order.
func sampleKnowledge() *knowledge.Knowledge {
	return &knowledge.Knowledge{
		Sources: []knowledge.Source{
			{ID: "notes-1.10.md", Name: "Test notes for one-ten", Kind: knowledge.SourceReleaseNote, Lang: "en", AsOf: "2031-03-01", Path: "notes/1.10.md"},
			{ID: "meta", Name: "Test KEP metadata", Kind: knowledge.SourceKEPYAML, URL: "https://example.test/keps"},
			{ID: "笔记-1.9", Name: "测试笔记", Kind: knowledge.SourceReleaseNote, Lang: "zh", AsOf: "2030-12-24"},
		},
		Releases: []knowledge.ReleaseRecord{
			{
				Release: knowledge.Release{Version: v1_10, Date: "2031-03-01", Theme: "Paper Boats",
					Enhancements: knowledge.Counts{Total: 5, Stable: 2, Beta: 1, Alpha: 2}, Sources: []string{"notes-1.10.md"},
					Lifecycle: &knowledge.Lifecycle{Release: v1_10, Released: "2031-03-01", EndOfSupport: "2032-03-01", EOL: "2032-05-01",
						Latest: "1.10.2", LatestDate: "2031-05-02", Source: "lifecycle"}},
				Patches: []knowledge.Patch{
					{Release: v1_10, Number: 0, Date: "2031-03-01", Source: "patches"},
					{Release: v1_10, Number: 2, Date: "2031-05-02", Source: "patches"},
					{Release: v1_10, Number: 10, Date: "2031-09-09", Source: "patches"},
				},
				Items: []knowledge.Item{
					{KEP: 7, Title: "Quiet pods", Stage: knowledge.StageAlpha, Release: v1_10, Text: "Pods can now whisper.", SIG: "sig-node", Source: "notes-1.10.md"},
					{KEP: 99, Title: "Round tables", Stage: knowledge.StageStable, Release: v1_10, Text: "Tables are round for good.", SIG: "sig-apps", Source: "notes-1.10.md"},
					{KEP: 100, Title: "Folded maps", Stage: knowledge.StageBeta, Release: v1_10, Source: "notes-1.10.md"},
					{KEP: 0, Title: "A change with no number", Stage: knowledge.StageNone, Release: v1_10, Text: "Something small moved."},
					{KEP: 1000, Title: "Paper boats", Stage: knowledge.StageStable, Release: v1_10, Text: "Boats float by default.", Rank: 3},
				},
				Notices: []knowledge.Notice{
					{Kind: knowledge.NoticeDeprecation, Release: v1_10, KEP: 7, Title: "Loud pods", Text: "Shouting is deprecated.", FeatureGates: []string{"LoudPods"}, Source: "notes-1.10.md", Line: 12},
					{Kind: knowledge.NoticeRemoval, Release: v1_10, Title: "boats.example.test/v1beta1", Source: "notes-1.10.md",
						API: &knowledge.APIChange{GroupVersion: "boats.example.test/v1beta1", Kinds: []string{"Boat", "Oar"}, ReplacedBy: "boats.example.test/v1", ReplacedFor: []string{"Boat"}}},
					{Kind: knowledge.NoticeUpgrade, Release: v1_10, Title: "Drain the pond first", Line: 40},
					{Kind: knowledge.NoticeDeprecation, Release: v1_10, KEP: 99, KEPVia: knowledge.KEPViaGate, Title: "Square tables"},
					{Kind: knowledge.NoticeDeprecation, Release: v1_10, KEP: 7, Title: "Deprecated the --loud flag.", PR: 5001,
						URL: "https://example.test/pull/5001", SIGs: []string{"sig-node"}, Source: "notes-1.10.json"},
					{Kind: knowledge.NoticeRemoval, Label: knowledge.NoticeDeprecation, Release: v1_10, Title: "Removed the --hush flag.", PR: 5003, Source: "notes-1.10.json"},
				},
				Changes: []knowledge.Change{
					{Release: v1_10, PR: 4999, Kinds: []string{"feature"}, SIGs: []string{"apps"}, KEPs: []int{99}, Text: "Tables turn round.", Source: "notes-1.10.json"},
					{Release: v1_10, PR: 5001, URL: "https://example.test/pull/5001", Kinds: []string{"deprecation"}, SIGs: []string{"node"},
						KEPs: []int{7}, Names: []string{"--loud"}, Notice: knowledge.NoticeDeprecation, Text: "Deprecated the --loud flag.", Source: "notes-1.10.json"},
				},
			},
			{
				Release: knowledge.Release{Version: v1_9, Date: "2030-12-24", Sources: []string{"笔记-1.9"}},
				Items: []knowledge.Item{
					{KEP: 99, Title: "圆桌", Stage: knowledge.StageBeta, Release: v1_9, SIG: "sig-apps", Source: "笔记-1.9"},
				},
			},
			{Release: knowledge.Release{Version: v1_2, Theme: "Old times"}},
		},
		KEPs: []knowledge.KEP{
			{Number: 1000, Title: "Paper boats", SIG: "sig-water", Stage: knowledge.StageStable},
			{
				Number: 99, Title: "Round tables", SIG: "sig-apps", Status: "implemented", Stage: knowledge.StageStable,
				Milestones:   map[string]knowledge.Version{"beta": v1_9, "stable": v1_10},
				FeatureGates: []string{"RoundTables", "RoundChairs"}, Path: "keps/sig-apps/99-round-tables", Source: "meta",
				History: []knowledge.Mention{
					{KEP: 99, Title: "圆桌", Stage: knowledge.StageBeta, Release: v1_9, SIG: "sig-apps", Section: "测试", Text: "桌子是圆的。", Source: "笔记-1.9", Line: 3},
					{KEP: 99, Title: "Round tables", Stage: knowledge.StageStable, Release: v1_10, FeatureGates: []string{"RoundTables"},
						Text: "Tables are round for good.", Link: "https://example.test/99", Source: "notes-1.10.md", Line: 20},
				},
			},
			{Number: 7, Title: "Quiet pods", SIG: "sig-node", Stage: knowledge.StageAlpha,
				History: []knowledge.Mention{{KEP: 7, Title: "Quiet pods", Stage: knowledge.StageAlpha, Release: v1_10, Source: "notes-1.10.md"}}},
			{Number: 100, Title: "Folded maps", Stage: knowledge.StageBeta},
		},
		Skipped: []knowledge.Skip{{Path: "notes/draft.md", Reason: "no release version in it"}},
	}
}

// normalized is k as a store gives it back: releases oldest first, KEPs by
// number, and no Skipped list (a store keeps only its count).
func normalized(k *knowledge.Knowledge) *knowledge.Knowledge {
	out := *k
	out.Releases = slices.Clone(k.Releases)
	slices.SortFunc(out.Releases, func(a, b knowledge.ReleaseRecord) int { return a.Version.Compare(b.Version) })
	out.KEPs = slices.Clone(k.KEPs)
	slices.SortFunc(out.KEPs, func(a, b knowledge.KEP) int { return a.Number - b.Number })
	out.Skipped = nil
	return &out
}

// openTest opens a new database in a temporary folder, closed at cleanup.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "kepbot.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.knowledge.now = func() time.Time { return fixedNow }
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

// readAll reads everything a store holds in one transaction, using the
// same helpers the exported methods use.
func readAll(tx *bolt.Tx) (*knowledge.Knowledge, error) {
	k := &knowledge.Knowledge{}
	var err error
	if k.Sources, err = listSources(tx); err != nil {
		return nil, err
	}
	releases, err := listReleases(tx)
	if err != nil {
		return nil, err
	}
	for _, r := range releases {
		rec := knowledge.ReleaseRecord{Release: r}
		if rec.Items, err = releaseItems(tx, r.Version, knowledge.StageNone); err != nil {
			return nil, err
		}
		if rec.Notices, err = releaseNotices(tx, r.Version, ""); err != nil {
			return nil, err
		}
		if rec.Changes, err = releaseValues(tx, bucketChanges, r.Version, "entry", readChange); err != nil {
			return nil, err
		}
		if rec.Patches, err = releaseValues(tx, bucketPatches, r.Version, "patch", readPatch); err != nil {
			return nil, err
		}
		k.Releases = append(k.Releases, rec)
	}
	keps, err := listKEPs(tx)
	if err != nil {
		return nil, err
	}
	for _, kp := range keps {
		k.KEPs = append(k.KEPs, *kp)
	}
	if raw := tx.Bucket(bucketAPIs).Get(keyAPIs); raw != nil {
		t, err := decodeAPIs(raw)
		if err != nil {
			return nil, err
		}
		k.APIs, k.APIReleases = t.Types, t.Releases
	}
	if raw := tx.Bucket(bucketFeatureGates).Get(keyFeatureGates); raw != nil {
		t, err := decodeFeatureGates(raw)
		if err != nil {
			return nil, err
		}
		k.FeatureGates, k.GateReads = t.Gates, t.Reads
	}
	if raw := tx.Bucket(bucketVulns).Get(keyVulns); raw != nil {
		vs, err := decodeVulns(raw)
		if err != nil {
			return nil, err
		}
		k.Vulns = vs
	}
	return k, nil
}

// snapshot is readAll in its own read transaction.
func snapshot(t testing.TB, db *DB) *knowledge.Knowledge {
	t.Helper()
	var k *knowledge.Knowledge
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		k, err = readAll(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// mustReplace replaces the knowledge of db with k or fails the test.
func mustReplace(t testing.TB, db *DB, k *knowledge.Knowledge) {
	t.Helper()
	if err := db.Knowledge().ReplaceKnowledge(t.Context(), k); err != nil {
		t.Fatal(err)
	}
}

// diffKnowledge compares what a store gave back with what it was given.
func diffKnowledge(want, got *knowledge.Knowledge) string {
	return cmp.Diff(normalized(want), got, equateEmpty)
}
