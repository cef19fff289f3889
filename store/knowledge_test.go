package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

func TestReplaceKnowledgeRoundTrip(t *testing.T) {
	db := openTest(t)
	want := sampleKnowledge()
	mustReplace(t, db, want)
	if diff := diffKnowledge(want, snapshot(t, db)); diff != "" {
		t.Errorf("stored knowledge differs (-given +read):\n%s", diff)
	}
}

func TestFindKEPByNumber(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	s := db.Knowledge()
	for _, want := range k.KEPs {
		got, err := s.FindKEPByNumber(t.Context(), want.Number)
		if err != nil {
			t.Fatalf("KEP-%d: %v", want.Number, err)
		}
		if diff := cmp.Diff(&want, got, equateEmpty); diff != "" {
			t.Errorf("KEP-%d (-want +got):\n%s", want.Number, diff)
		}
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{5, "I don't know KEP-5."},
		{0, "I don't know KEP-0."},
		{-1, "I don't know KEP--1."},
		{1 << 40, "I don't know KEP-1099511627776."},
	} {
		_, err := s.FindKEPByNumber(t.Context(), tc.n)
		checkNotFound(t, err, tc.want)
	}
}

func TestFindReleaseByVersion(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	s := db.Knowledge()
	for _, rec := range k.Releases {
		got, err := s.FindReleaseByVersion(t.Context(), rec.Version)
		if err != nil {
			t.Fatalf("%s: %v", rec.Version, err)
		}
		if diff := cmp.Diff(&rec.Release, got, equateEmpty); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rec.Version, diff)
		}
	}
	for _, tc := range []struct {
		v    knowledge.Version
		want string
	}{
		{knowledge.MustVersion("1.99"), "I don't know Kubernetes 1.99."},
		{knowledge.Version{}, "I don't know Kubernetes 0.0."},
		{knowledge.Version{Major: -1, Minor: 3}, "I don't know Kubernetes -1.3."},
	} {
		_, err := s.FindReleaseByVersion(t.Context(), tc.v)
		checkNotFound(t, err, tc.want)
	}
}

func TestFindReleaseItems(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	items10 := k.Releases[0].Items
	for _, tc := range []struct {
		name  string
		v     knowledge.Version
		stage knowledge.Stage
		want  []knowledge.Item
	}{
		{"stable keeps the given order", v1_10, knowledge.StageStable, []knowledge.Item{items10[1], items10[4]}},
		{"alpha", v1_10, knowledge.StageAlpha, []knowledge.Item{items10[0]}},
		{"beta", v1_10, knowledge.StageBeta, []knowledge.Item{items10[2]}},
		{"every stage, as given", v1_10, knowledge.StageNone, items10},
		{"no removed items", v1_10, knowledge.StageRemoved, nil},
		{"a stage past any known", v1_10, knowledge.Stage(200), nil},
		{"a stage with no key", v1_10, knowledge.Stage(-1), nil},
		{"other release", v1_9, knowledge.StageBeta, k.Releases[1].Items},
		{"other release has no stable", v1_9, knowledge.StageStable, nil},
		{"release without items", v1_2, knowledge.StageNone, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.Knowledge().FindReleaseItems(t.Context(), tc.v, tc.stage)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, equateEmpty); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := db.Knowledge().FindReleaseItems(t.Context(), knowledge.MustVersion("1.99"), knowledge.StageStable)
	checkNotFound(t, err, "I don't know Kubernetes 1.99.")
}

func TestFindNotices(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	n10 := k.Releases[0].Notices
	for _, tc := range []struct {
		name string
		v    knowledge.Version
		kind knowledge.NoticeKind
		want []knowledge.Notice
	}{
		{"deprecations in the given order", v1_10, knowledge.NoticeDeprecation, []knowledge.Notice{n10[0], n10[3], n10[4]}},
		{"removals (by their kind, whatever upstream labelled them)", v1_10, knowledge.NoticeRemoval, []knowledge.Notice{n10[1], n10[5]}},
		{"upgrade notes", v1_10, knowledge.NoticeUpgrade, []knowledge.Notice{n10[2]}},
		{"every kind, as given", v1_10, "", n10},
		{"a kind that is a prefix of another", v1_10, "dep", nil},
		{"unknown kind", v1_10, "surprise", nil},
		{"release without notices", v1_9, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.Knowledge().FindNotices(t.Context(), tc.v, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, equateEmpty); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := db.Knowledge().FindNotices(t.Context(), knowledge.MustVersion("1.99"), knowledge.NoticeRemoval)
	checkNotFound(t, err, "I don't know Kubernetes 1.99.")
}

func TestListsAreOrdered(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	k.Releases = append(k.Releases, knowledge.ReleaseRecord{Release: knowledge.Release{Version: v2_0}},
		knowledge.ReleaseRecord{Release: knowledge.Release{Version: knowledge.MustVersion("1.100")}})
	mustReplace(t, db, k)
	s := db.Knowledge()

	releases, err := s.ListReleases(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, r := range releases {
		versions = append(versions, r.Version.String())
	}
	if diff := cmp.Diff([]string{"1.2", "1.9", "1.10", "1.100", "2.0"}, versions); diff != "" {
		t.Errorf("release order (-want +got):\n%s", diff)
	}

	keps, err := s.ListKEPs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, k := range keps {
		numbers = append(numbers, k.Number)
	}
	if diff := cmp.Diff([]int{7, 99, 100, 1000}, numbers); diff != "" {
		t.Errorf("KEP order (-want +got):\n%s", diff)
	}

	sources, err := s.ListSources(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(k.Sources, sources); diff != "" {
		t.Errorf("sources keep the given order (-want +got):\n%s", diff)
	}
}

func TestNewStoreIsEmpty(t *testing.T) {
	db := openTest(t)
	s := db.Knowledge()
	ctx := t.Context()
	empty, err := s.IsEmpty(ctx)
	if err != nil || !empty {
		t.Fatalf("IsEmpty of a new store = %v, %v; want true", empty, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Info{Path: db.Path(), SchemaVersion: SchemaVersion}, info); diff != "" {
		t.Errorf("Info of a new store (-want +got):\n%s", diff)
	}
	_, err = s.FindKEPByNumber(ctx, 7)
	checkNotFound(t, err, "I don't know KEP-7.")
	_, err = s.FindReleaseItems(ctx, v1_10, knowledge.StageStable)
	checkNotFound(t, err, "I don't know Kubernetes 1.10.")
	for name, list := range map[string]func() (int, error){
		"ListReleases": func() (int, error) { l, err := s.ListReleases(ctx); return len(l), err },
		"ListKEPs":     func() (int, error) { l, err := s.ListKEPs(ctx); return len(l), err },
		"ListSources":  func() (int, error) { l, err := s.ListSources(ctx); return len(l), err },
	} {
		if n, err := list(); n != 0 || err != nil {
			t.Errorf("%s of a new store = %d values, %v; want none", name, n, err)
		}
	}
}

func TestInfoAfterReplace(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	s := db.Knowledge()
	empty, err := s.IsEmpty(t.Context())
	if err != nil || empty {
		t.Errorf("IsEmpty after a replace = %v, %v; want false", empty, err)
	}
	info, err := s.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := Info{Path: db.Path(), SchemaVersion: SchemaVersion, Replaced: fixedNow, Stats: k.Stats(), Sources: k.Sources}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
	if info.Stats.Skipped != 1 || info.Stats.KEPs != 4 || info.Stats.Notices != 6 || info.Stats.Changes != 2 || info.Stats.Patches != 3 {
		t.Errorf("Stats = %+v; want 1 skipped, 4 KEPs, 6 notices, 2 release-note entries, 3 patches", info.Stats)
	}
}

func TestIsEmptyAfterReplacingWithNothing(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	mustReplace(t, db, &knowledge.Knowledge{})
	empty, err := db.Knowledge().IsEmpty(t.Context())
	if err != nil || !empty {
		t.Errorf("IsEmpty after replacing with empty knowledge = %v, %v; want true", empty, err)
	}
}

func TestReplaceDropsWhatIsNoLongerKnown(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	next := &knowledge.Knowledge{
		Sources:  []knowledge.Source{{ID: "only", Name: "The only source", Kind: knowledge.SourceSnapshot}},
		Releases: []knowledge.ReleaseRecord{{Release: knowledge.Release{Version: v2_0, Theme: "New"}}},
		KEPs:     []knowledge.KEP{{Number: 5, Title: "Five"}},
	}
	mustReplace(t, db, next)
	if diff := diffKnowledge(next, snapshot(t, db)); diff != "" {
		t.Errorf("after the second replace (-want +got):\n%s", diff)
	}
	_, err := db.Knowledge().FindKEPByNumber(t.Context(), 99)
	checkNotFound(t, err, "I don't know KEP-99.")
}

func TestKnowledgeSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kepbot.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := sampleKnowledge()
	mustReplace(t, db, k)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if diff := diffKnowledge(k, snapshot(t, db)); diff != "" {
		t.Errorf("after reopening (-want +got):\n%s", diff)
	}
}

func TestReadsHonourContext(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s := db.Knowledge()
	for name, call := range map[string]func() error{
		"FindKEPByNumber":      func() error { _, err := s.FindKEPByNumber(ctx, 7); return err },
		"FindReleaseByVersion": func() error { _, err := s.FindReleaseByVersion(ctx, v1_9); return err },
		"FindReleaseItems":     func() error { _, err := s.FindReleaseItems(ctx, v1_9, 0); return err },
		"FindNotices":          func() error { _, err := s.FindNotices(ctx, v1_9, ""); return err },
		"ListReleases":         func() error { _, err := s.ListReleases(ctx); return err },
		"ListKEPs":             func() error { _, err := s.ListKEPs(ctx); return err },
		"ListSources":          func() error { _, err := s.ListSources(ctx); return err },
		"Info":                 func() error { _, err := s.Info(ctx); return err },
		"IsEmpty":              func() error { _, err := s.IsEmpty(ctx); return err },
	} {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v; want context.Canceled", name, err)
		}
	}
}

func TestMethodsFailAfterClose(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "kepbot.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = db.Knowledge().FindKEPByNumber(t.Context(), 7)
	if err == nil || knowledge.ErrorCode(err) != knowledge.EINTERNAL {
		t.Errorf("FindKEPByNumber after Close: %v; want an internal error", err)
	}
}

// checkNotFound fails unless err is a not-found domain error with message want.
func checkNotFound(t *testing.T, err error, want string) {
	t.Helper()
	if code := knowledge.ErrorCode(err); code != knowledge.ENOTFOUND {
		t.Errorf("error %v has code %q; want %q", err, code, knowledge.ENOTFOUND)
		return
	}
	if got := knowledge.ErrorMessage(err); got != want {
		t.Errorf("message %q; want %q", got, want)
	}
}

// TestFindChangesAndPatches: a release's entries come back in the order
// given, its patches by number (10 after 2), and an unknown release is a
// miss.
func TestFindChangesAndPatches(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	kb := db.Knowledge()
	cs, err := kb.FindChanges(t.Context(), v1_10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(k.Releases[0].Changes, cs, equateEmpty); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	ps, err := kb.FindPatches(t.Context(), v1_10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	if diff := cmp.Diff([]string{"1.10.0", "1.10.2", "1.10.10"}, got); diff != "" {
		t.Errorf("patches (-want +got):\n%s", diff)
	}
	if ps, err := kb.FindPatches(t.Context(), v1_9); err != nil || len(ps) != 0 {
		t.Errorf("1.9 patches = %v, %v; want none", ps, err)
	}
	for _, find := range []func() error{
		func() error { _, err := kb.FindChanges(t.Context(), knowledge.MustVersion("1.77")); return err },
		func() error { _, err := kb.FindPatches(t.Context(), knowledge.MustVersion("1.77")); return err },
	} {
		if err := find(); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
			t.Errorf("an unknown release: %v; want ENOTFOUND", err)
		}
	}
}
