package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// generation builds knowledge whose every value names generation g, and
// whose size depends on g, so a reader can tell a mix of two generations or
// a half-written one from a whole one.
func generation(g int) *knowledge.Knowledge {
	tag := fmt.Sprintf("gen %d", g)
	k := &knowledge.Knowledge{
		Sources: []knowledge.Source{{ID: "src", Name: tag, Kind: knowledge.SourceSnapshot}},
	}
	for r := range 2 + g%3 {
		v := knowledge.Version{Major: 1, Minor: 5 + r}
		rec := knowledge.ReleaseRecord{Release: knowledge.Release{Version: v, Theme: tag}}
		for i := range 3 + g%4 {
			rec.Items = append(rec.Items, knowledge.Item{KEP: 10 + i, Title: tag, Stage: knowledge.GraduationStages[i%3], Release: v})
		}
		for i := range 1 + g%2 {
			rec.Notices = append(rec.Notices, knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v, Title: fmt.Sprint(tag, " ", i)})
		}
		k.Releases = append(k.Releases, rec)
	}
	for n := range 40 + g%7 {
		k.KEPs = append(k.KEPs, knowledge.KEP{Number: n + 1, Title: tag,
			History: []knowledge.Mention{{KEP: n + 1, Title: tag, Text: strings.Repeat("words ", 20)}}})
	}
	return k
}

// TestReplaceIsAtomicForReaders replaces the knowledge again and again while
// a reader reads everything in one transaction at a time: every snapshot
// must be exactly one whole generation, with meta counts to match.
func TestReplaceIsAtomicForReaders(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, generation(0))

	type read struct {
		k     *knowledge.Knowledge
		stats knowledge.Stats
	}
	var (
		stop    atomic.Bool
		nreads  atomic.Int64
		reads   []read
		readErr error
		wg      sync.WaitGroup
	)
	wg.Go(func() {
		for !stop.Load() {
			var r read
			readErr = db.bolt.View(func(tx *bolt.Tx) error {
				var err error
				if r.k, err = readAll(tx); err != nil {
					return err
				}
				sum, _, err := getReplaceSummary(tx)
				r.stats = sum.Stats
				return err
			})
			if readErr != nil {
				return
			}
			reads = append(reads, r)
			nreads.Add(1)
		}
	})
	// At least a dozen replaces, and more until the reader has read often.
	g := 1
	for ; g <= 12 || (nreads.Load() < 200 && g <= 1000); g++ {
		mustReplace(t, db, generation(g))
	}
	stop.Store(true)
	wg.Wait()
	if readErr != nil {
		t.Fatal(readErr)
	}

	seen := map[int]int{}
	for i, r := range reads {
		var gen int
		if len(r.k.Sources) != 1 {
			t.Fatalf("read %d: %d sources; want 1", i, len(r.k.Sources))
		}
		if _, err := fmt.Sscanf(r.k.Sources[0].Name, "gen %d", &gen); err != nil {
			t.Fatalf("read %d: source name %q: %v", i, r.k.Sources[0].Name, err)
		}
		if diff := diffKnowledge(generation(gen), r.k); diff != "" {
			t.Fatalf("read %d is a mix, not generation %d (-want +got):\n%s", i, gen, diff)
		}
		if want := generation(gen).Stats(); r.stats != want {
			t.Fatalf("read %d: meta stats %+v do not match generation %d's %+v", i, r.stats, gen, want)
		}
		seen[gen]++
	}
	t.Logf("%d replaces, %d reads over %d generations", g-1, len(reads), len(seen))
	if len(seen) < 3 {
		t.Errorf("the reader saw only generations %v; the test needs it to overlap the replaces", seen)
	}
}

// TestFailedReplaceLeavesOldKnowledge gives ReplaceKnowledge knowledge that
// fails part-way through writing: the database must be as it was.
func TestFailedReplaceLeavesOldKnowledge(t *testing.T) {
	bad := func(change func(k *knowledge.Knowledge)) *knowledge.Knowledge {
		k := generation(5)
		change(k)
		return k
	}
	for _, tc := range []struct {
		name string
		k    *knowledge.Knowledge
		want string
	}{
		{"no knowledge", nil, "no knowledge given"},
		{"last KEP number negative", bad(func(k *knowledge.Knowledge) {
			k.KEPs = append(k.KEPs, knowledge.KEP{Number: -4})
		}), "KEP number -4 cannot be stored"},
		{"KEP given twice", bad(func(k *knowledge.Knowledge) {
			k.KEPs = append(k.KEPs, knowledge.KEP{Number: 3, Title: "again"})
		}), "KEP-3 is given twice"},
		{"release given twice", bad(func(k *knowledge.Knowledge) {
			k.Releases = append(k.Releases, knowledge.ReleaseRecord{Release: knowledge.Release{Version: knowledge.Version{Major: 1, Minor: 5}}})
		}), "release 1.5 is given twice"},
		{"release without a version", bad(func(k *knowledge.Knowledge) {
			k.Releases = append(k.Releases, knowledge.ReleaseRecord{})
		}), "release 0.0: a release needs a version"},
		{"item stage out of range", bad(func(k *knowledge.Knowledge) {
			k.Releases[1].Items = append(k.Releases[1].Items, knowledge.Item{KEP: 12, Stage: 300})
		}), "stage 300 cannot be stored"},
		{"notice kind too long", bad(func(k *knowledge.Knowledge) {
			k.Releases[1].Notices = append(k.Releases[1].Notices, knowledge.Notice{Kind: knowledge.NoticeKind(strings.Repeat("x", 300))})
		}), "longer than 255 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			old := sampleKnowledge()
			mustReplace(t, db, old)
			before := infoOf(t, db)
			err := db.Knowledge().ReplaceKnowledge(t.Context(), tc.k)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "replace knowledge: ") {
				t.Fatalf("ReplaceKnowledge: %v; want an error saying %q", err, tc.want)
			}
			checkUnchanged(t, db, old, before)
		})
	}
}

// TestCancelledReplaceLeavesOldKnowledge cancels a replace at every point
// where it looks at its context, from before the first write to just
// before the commit.
func TestCancelledReplaceLeavesOldKnowledge(t *testing.T) {
	next := generation(3)
	for range 4 { // enough values for several context checks
		next.KEPs = append(next.KEPs, generation(3).KEPs...)
	}
	for i := range next.KEPs {
		next.KEPs[i].Number = i + 1
	}

	probe := &countingContext{Context: t.Context(), cancelAt: -1}
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	if err := db.Knowledge().ReplaceKnowledge(probe, next); err != nil {
		t.Fatal(err)
	}
	checks := probe.calls
	if checks < 4 {
		t.Fatalf("ReplaceKnowledge looked at its context %d times; the test needs more values", checks)
	}
	for at := 1; at <= checks; at++ {
		t.Run(fmt.Sprint("cancelled at check ", at), func(t *testing.T) {
			db := openTest(t)
			old := sampleKnowledge()
			mustReplace(t, db, old)
			before := infoOf(t, db)
			ctx := &countingContext{Context: t.Context(), cancelAt: at}
			err := db.Knowledge().ReplaceKnowledge(ctx, next)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("ReplaceKnowledge: %v; want context.Canceled", err)
			}
			checkUnchanged(t, db, old, before)
		})
	}
}

// countingContext reports itself cancelled from its cancelAt'th Err call
// on (never when cancelAt is negative), and counts the calls.
type countingContext struct {
	context.Context
	calls    int
	cancelAt int
}

func (c *countingContext) Err() error {
	c.calls++
	if c.cancelAt >= 0 && c.calls >= c.cancelAt {
		return context.Canceled
	}
	return nil
}

func infoOf(t *testing.T, db *DB) Info {
	t.Helper()
	info, err := db.Knowledge().Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// checkUnchanged fails unless db still holds old, with the same meta.
func checkUnchanged(t *testing.T, db *DB, old *knowledge.Knowledge, before Info) {
	t.Helper()
	if diff := diffKnowledge(old, snapshot(t, db)); diff != "" {
		t.Errorf("knowledge changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(before, infoOf(t, db)); diff != "" {
		t.Errorf("info changed (-before +after):\n%s", diff)
	}
	if err := db.bolt.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	}); err != nil {
		t.Errorf("bbolt check: %v", err)
	}
}
