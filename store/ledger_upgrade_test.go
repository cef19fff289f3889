package store

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
)

// oldNoticeKey is digest.NoticeKey as kepbot computed it before notice
// aliases (schema 3), copied here so that the test keeps the old form even
// if the code that reads it changes.
func oldNoticeKey(n knowledge.Notice) string {
	lowerSorted := func(ss []string) string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = strings.ToLower(s)
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	var id string
	switch {
	case n.API != nil && n.API.GroupVersion != "":
		id = "api:" + strings.ToLower(n.API.GroupVersion) + ":" + lowerSorted(n.API.Kinds)
	case n.KEP > 0:
		id = "kep:" + strconv.Itoa(n.KEP)
	case len(n.FeatureGates) > 0:
		id = "gates:" + lowerSorted(n.FeatureGates)
	default:
		id = "title:" + strings.Join(strings.Fields(strings.ToLower(n.Title)), " ")
	}
	return string(n.Kind) + "|" + n.Release.String() + "|" + id
}

// schema3With makes a database as a schema 3 kepbot left it after telling
// a channel everything k holds: notices in the schema 3 layout (no
// KEPVia), the ledger numbered by oldNoticeKey in the order the old
// LoadNoticeSet gave (release, then key), no ledger format key, and a
// subscription that has seen through the last sequence.
func schema3With(t *testing.T, k *knowledge.Knowledge) (path string, ch digest.ChannelRef) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "v3.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, db, k)
	type key struct {
		v knowledge.Version
		k string
	}
	seen := map[string]bool{}
	var keys []key
	for _, r := range k.Releases {
		for _, n := range r.Notices {
			if n.Kind == knowledge.NoticeUpgrade || seen[oldNoticeKey(n)] {
				continue
			}
			seen[oldNoticeKey(n)] = true
			keys = append(keys, key{n.Release, oldNoticeKey(n)})
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if c := keys[i].v.Compare(keys[j].v); c != 0 {
			return c < 0
		}
		return keys[i].k < keys[j].k
	})
	ledger := map[string]uint64{}
	for i, k := range keys {
		ledger[k.k] = uint64(i + 1)
	}
	oldLedger(t, db, ledger)
	ch = digest.ChannelRef{Platform: "slack", Workspace: "T1", Channel: "C1"}
	_, err = db.Subscriptions().SaveSubscription(context.Background(), digest.Subscription{
		Platform: ch.Platform, Workspace: ch.Workspace, Channel: ch.Channel, CreatedBy: "U1", CreatedAt: fixedNow,
		Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact},
		Seen:   digest.Seen{Through: uint64(len(keys))},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketNotices)
		var keys, vals [][]byte
		err := b.ForEach(func(k, raw []byte) error {
			var n knowledge.Notice
			if err := decodeNotice(raw, &n); err != nil {
				return err
			}
			n = withoutSchema7(n)
			n.KEPVia = ""
			keys, vals = append(keys, append([]byte(nil), k...)), append(vals, olderLayout(encodeNotice(nil, &n), fmtNoticeV2, 1+sinceBytes(&n)))
			return nil
		})
		for i := range keys {
			if err == nil {
				err = b.Put(keys[i], vals[i])
			}
		}
		if err == nil {
			err = tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte("3"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path, ch
}

// newSince opens path with this kepbot, optionally replaces the knowledge
// with k, and returns the titles of what is new to ch.
func newSince(t *testing.T, path string, ch digest.ChannelRef, k *knowledge.Knowledge) []string {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if k != nil {
		mustReplace(t, db, k)
	}
	set, err := digest.LoadNoticeSet(ctx, db.Knowledge(), db.Subscriptions())
	if err != nil {
		t.Fatal(err)
	}
	sub, err := db.Subscriptions().FindSubscriptionByChannel(ctx, ch)
	if err != nil {
		t.Fatal(err)
	}
	d, _, ok := digest.BuildDigest(set, sub.Filter, sub.Seen, "release")
	if !ok {
		return nil
	}
	var out []string
	for _, g := range d.Groups {
		for _, n := range g.Items {
			out = append(out, g.Release.String()+" "+string(n.Kind)+" "+n.Title)
		}
	}
	return out
}

// upgradeCorpus is made-up sources with one notice of each kind of
// old key: an API removal, a KEP a note names, a KEP Compile found through
// a gate, gates only, words only, and a release-note entry.
func upgradeCorpus(entries ...int) *knowledge.Corpus {
	v := knowledge.MustVersion("1.41")
	c := &knowledge.Corpus{
		KEPs: []knowledge.KEP{{Number: 9001, Title: "Sprockets", FeatureGates: []string{"OldSprocket"}, Source: "kep.yaml"}},
		Notices: []knowledge.Notice{
			{Kind: knowledge.NoticeRemoval, Release: v, Title: "Gadget v1beta1", Source: "guide", Line: 3,
				API: &knowledge.APIChange{GroupVersion: "gadgets.example.io/v1beta1", Kinds: []string{"Gadget"}}},
			{Kind: knowledge.NoticeDeprecation, Release: v, KEP: 9002, Title: "Widgets", Source: "notes-1.41", Line: 4},
			{Kind: knowledge.NoticeRemoval, Release: v, Title: "The OldSprocket gate is gone", FeatureGates: []string{"OldSprocket"}, Source: "notes-1.41", Line: 5},
			{Kind: knowledge.NoticeRemoval, Release: v, Title: "The OldGadget gate is gone", FeatureGates: []string{"OldGadget"}, Source: "notes-1.41", Line: 6},
			{Kind: knowledge.NoticeDeprecation, Release: v, Title: "The flux flag", Source: "notes-1.41", Line: 7},
		},
	}
	for _, pr := range entries {
		c.Changes = append(c.Changes, knowledge.Change{Release: v, PR: pr, KEPs: []int{9002}, Notice: knowledge.NoticeDeprecation,
			Text: "Deprecated widget number " + strconv.Itoa(pr) + ".", Source: "notes-1.41.json"})
	}
	return c
}

// TestUpgradeKeepsWhatASchema3LedgerDelivered: after the upgrade, a
// channel that a schema 3 kepbot told everything is told nothing again,
// with the knowledge as it was and after a new ingest; a release-note
// entry that comes later is new, though its old-style key (its KEP) is in
// the old ledger.
func TestUpgradeKeepsWhatASchema3LedgerDelivered(t *testing.T) {
	path, ch := schema3With(t, knowledge.Compile(upgradeCorpus(801)))
	if got := newSince(t, path, ch, nil); len(got) > 0 {
		t.Errorf("new right after the upgrade: %q", got)
	}
	if got := newSince(t, path, ch, knowledge.Compile(upgradeCorpus(801))); len(got) > 0 {
		t.Errorf("new after an ingest of the same sources: %q", got)
	}
	got := newSince(t, path, ch, knowledge.Compile(upgradeCorpus(801, 802)))
	if want := []string{"1.41 deprecation Deprecated widget number 802."}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("new after a second entry: %q; want %q", got, want)
	}
}

// TestUpgradeWithKEPYAMLKeepsTheSeedsRemovals: a schema 3 kepbot told a
// channel the seed notes; the upgrade comes with an ingest of kep.yaml,
// before any digest is built. The old ledger holds the 1.27 removals by
// their gates, the new knowledge links them to KEP-2079 and KEP-563:
// nothing is new.
func TestUpgradeWithKEPYAMLKeepsTheSeedsRemovals(t *testing.T) {
	root := sharedtest.Root(t)
	load := func(dirs ...string) *knowledge.Knowledge {
		res, err := ingest.Load(dirs)
		if err != nil || len(res.Warnings) > 0 {
			t.Fatalf("load %v: %v %v", dirs, err, res.Warnings)
		}
		return knowledge.Compile(res.Corpus)
	}
	seeds, keps := filepath.Join(root, "seeds"), filepath.Join(root, "data", "enhancements")
	path, ch := schema3With(t, load(seeds))
	if got := newSince(t, path, ch, load(seeds, keps)); len(got) > 0 {
		t.Errorf("new after the upgrade and kep.yaml: %q", got)
	}
}

// TestUpgradeWithASourceAwayKeepsIt: the first digest after the upgrade
// is built while a source is away (the guide); when it is back, its
// notice, delivered before the upgrade, is still not new.
func TestUpgradeWithASourceAwayKeepsIt(t *testing.T) {
	path, ch := schema3With(t, knowledge.Compile(upgradeCorpus(801)))
	away := upgradeCorpus(801)
	kept := away.Notices[:0]
	for _, n := range away.Notices {
		if n.Source != "guide" {
			kept = append(kept, n)
		}
	}
	away.Notices = kept
	if got := newSince(t, path, ch, knowledge.Compile(away)); len(got) > 0 {
		t.Errorf("new with the guide away: %q", got)
	}
	if got := newSince(t, path, ch, knowledge.Compile(upgradeCorpus(801))); len(got) > 0 {
		t.Errorf("new with the guide back: %q", got)
	}
}
