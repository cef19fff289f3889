package digest_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/snapshot"
	"github.com/kepbot/kepbot/knowledge/sources/ingest"
	"github.com/kepbot/kepbot/store"
)

// The three groups of sources in ../shared, each read once per test run.
const (
	srcSeeds   = "seeds"
	srcWebsite = "website"
	srcKEPYAML = "kep.yaml"
)

var (
	sharedOnce    sync.Once
	sharedCorpora map[string]*knowledge.Corpus
	sharedErr     error
)

// sharedCorpus returns the corpus of the named groups, read from ../shared.
func sharedCorpus(t *testing.T, groups ...string) *knowledge.Corpus {
	t.Helper()
	root := sharedtest.Root(t)
	sharedOnce.Do(func() {
		dirs := map[string]string{
			srcSeeds:   filepath.Join(root, "seeds"),
			srcWebsite: filepath.Join(root, "data", "website"),
			srcKEPYAML: filepath.Join(root, "data", "enhancements"),
		}
		sharedCorpora = map[string]*knowledge.Corpus{}
		for name, dir := range dirs {
			res, err := ingest.Load([]string{dir})
			if err == nil && len(res.Warnings) > 0 {
				err = fmt.Errorf("%s: %v", name, res.Warnings)
			}
			if err != nil {
				sharedErr = err
				return
			}
			sharedCorpora[name] = res.Corpus
		}
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	var c knowledge.Corpus
	for _, g := range groups {
		c.Add(sharedCorpora[g])
	}
	return &c
}

// channelSim is one channel subscribed to every deprecation and removal,
// in a real database: each step replaces the knowledge, builds the
// channel's digest from the ledger as the trigger does, and queues it,
// which records what the channel was told.
type channelSim struct {
	db        *store.DB
	ref       digest.ChannelRef
	delivered []knowledge.Notice // every item of every digest queued so far
}

func newChannelSim(t *testing.T) *channelSim {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &channelSim{db: db, ref: digest.ChannelRef{Platform: "slack", Workspace: "T1", Channel: "C1"}}
	_, err = db.Subscriptions().SaveSubscription(context.Background(), digest.Subscription{
		Platform: c.ref.Platform, Workspace: c.ref.Workspace, Channel: c.ref.Channel, CreatedBy: "U1",
		Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// step makes k the knowledge and queues what is new to the channel; it
// returns the items queued.
func (c *channelSim) step(t *testing.T, k *knowledge.Knowledge) []knowledge.Notice {
	t.Helper()
	ctx := context.Background()
	if err := c.db.Knowledge().ReplaceKnowledge(ctx, k); err != nil {
		t.Fatal(err)
	}
	set, err := digest.LoadNoticeSet(ctx, c.db.Knowledge(), c.db.Subscriptions())
	if err != nil {
		t.Fatal(err)
	}
	sub, err := c.db.Subscriptions().FindSubscriptionByChannel(ctx, c.ref)
	if err != nil {
		t.Fatal(err)
	}
	d, seen, ok := digest.BuildDigest(set, sub.Filter, sub.Seen, "release")
	if !ok {
		return nil
	}
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) // a fixed time: nothing here reads the clock
	res, err := c.db.Outbox().EnqueueDigest(ctx, d, []digest.Delivery{{
		Key: digest.DeliveryKey(c.ref, d.ID), DigestID: d.ID, Subscription: sub.ID,
		Platform: c.ref.Platform, Workspace: c.ref.Workspace, Channel: c.ref.Channel, Format: sub.Filter.Format,
		Seen: seen, BasedOn: sub.Rev, CreatedAt: at, NextAttempt: at,
	}})
	if err != nil || res.Created != 1 {
		t.Fatalf("queue the digest: %+v, %v", res, err)
	}
	var items []knowledge.Notice
	for _, g := range d.Groups {
		items = append(items, g.Items...)
	}
	c.delivered = append(c.delivered, items...)
	return items
}

// retold reports the delivered item that n tells again, as the channel
// would see it: the same kind and release, and the same title, API
// group/version, feature gate or KEP.
func retold(n knowledge.Notice, delivered []knowledge.Notice) (knowledge.Notice, bool) {
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	for _, o := range delivered {
		if o.Kind != n.Kind || o.Release != n.Release {
			continue
		}
		switch {
		case norm(o.Title) == norm(n.Title),
			o.API != nil && n.API != nil && strings.EqualFold(o.API.GroupVersion, n.API.GroupVersion),
			o.KEP > 0 && o.KEP == n.KEP:
			return o, true
		}
		for _, g := range n.FeatureGates {
			for _, h := range o.FeatureGates {
				if strings.EqualFold(g, h) {
					return o, true
				}
			}
		}
	}
	return knowledge.Notice{}, false
}

func describe(n knowledge.Notice) string {
	return fmt.Sprintf("%s %s %q (KEP-%d, gates %v, %s:%d)", n.Release, n.Kind, n.Title, n.KEP, n.FeatureGates, n.Source, n.Line)
}

// checkNothingRetold fails for each new item that tells the channel again
// what it was told before.
func checkNothingRetold(t *testing.T, step string, items, before []knowledge.Notice) {
	t.Helper()
	for _, n := range items {
		if o, ok := retold(n, before); ok {
			t.Errorf("%s: %s is sent again (delivered as %s)", step, describe(n), describe(o))
		}
	}
}

// TestIngestOrderNeverResends ingests the sources of ../shared one group
// at a time, in every order, into one database with a subscribed channel,
// and after each step checks that the channel is told nothing it was told
// before. A step that adds only kep.yaml brings no notice, so it sends
// nothing; one that adds the website posts brings some. At the end the
// website is taken away and brought back: nothing is sent again either.
func TestIngestOrderNeverResends(t *testing.T) {
	orders := [][]string{
		{srcSeeds, srcWebsite, srcKEPYAML},
		{srcSeeds, srcKEPYAML, srcWebsite},
		{srcWebsite, srcSeeds, srcKEPYAML},
		{srcWebsite, srcKEPYAML, srcSeeds},
		{srcKEPYAML, srcSeeds, srcWebsite},
		{srcKEPYAML, srcWebsite, srcSeeds},
	}
	for _, order := range orders {
		t.Run(strings.Join(order, ",then,"), func(t *testing.T) {
			c := newChannelSim(t)
			var have []string
			for i, g := range order {
				have = append(have, g)
				before := append([]knowledge.Notice(nil), c.delivered...)
				items := c.step(t, knowledge.Compile(sharedCorpus(t, have...)))
				name := "+" + g
				switch {
				case i == 0:
					if g != srcKEPYAML && len(items) == 0 {
						t.Fatalf("%s: the first digest is empty", name)
					}
				case g == srcKEPYAML && len(items) > 0:
					t.Errorf("%s: kep.yaml brings no notice, yet %d items are sent, first %s", name, len(items), describe(items[0]))
				case g == srcWebsite && len(items) == 0:
					t.Errorf("%s: the website's posts brought nothing new; the test would not see a resend", name)
				}
				checkNothingRetold(t, name, items, before)
				t.Logf("%s: %d items", name, len(items))
			}
			before := append([]knowledge.Notice(nil), c.delivered...)
			if items := c.step(t, knowledge.Compile(sharedCorpus(t, srcSeeds, srcKEPYAML))); len(items) > 0 {
				t.Errorf("-website: %d items sent, first %s", len(items), describe(items[0]))
			}
			items := c.step(t, knowledge.Compile(sharedCorpus(t, srcSeeds, srcKEPYAML, srcWebsite)))
			if len(items) > 0 {
				t.Errorf("+website again: %d items sent, first %s", len(items), describe(items[0]))
			}
			checkNothingRetold(t, "+website again", items, before)
		})
	}
}

// TestSeedsThenKEPYAMLKeepsTheRemovals is the case seen black-box: a
// channel told the 1.27 removals of the seed note (feature gates, no KEP)
// was told two of them again once kep.yaml gave them KEP-2079 and KEP-563.
func TestSeedsThenKEPYAMLKeepsTheRemovals(t *testing.T) {
	c := newChannelSim(t)
	first := c.step(t, knowledge.Compile(sharedCorpus(t, srcSeeds)))
	gates := map[string]bool{}
	for _, n := range first {
		if n.Kind == knowledge.NoticeRemoval && n.Release == knowledge.MustVersion("1.27") && n.KEP == 0 {
			for _, g := range n.FeatureGates {
				gates[g] = true
			}
		}
	}
	if !gates["IPv6DualStack"] || !gates["NetworkPolicyEndPort"] {
		t.Fatalf("the seeds' first digest lacks the 1.27 removals of IPv6DualStack and NetworkPolicyEndPort without a KEP; gates %v", gates)
	}

	k := knowledge.Compile(sharedCorpus(t, srcSeeds, srcKEPYAML))
	linked := map[int]bool{}
	for _, r := range k.Releases {
		for _, n := range r.Notices {
			if n.Release == knowledge.MustVersion("1.27") && n.Kind == knowledge.NoticeRemoval && n.KEPVia == knowledge.KEPViaGate {
				linked[n.KEP] = true
			}
		}
	}
	if !linked[2079] || !linked[563] {
		t.Fatalf("kep.yaml does not link the 1.27 removals to KEP-2079 and KEP-563: %v", linked)
	}
	for _, n := range c.step(t, k) {
		t.Errorf("sent again with kep.yaml: %s", describe(n))
	}
}

// TestSnapshotThenSourcesNeverResends: a database created from the
// built-in snapshot (facts only: no words, titles rebuilt) that told a
// channel its notices, then filled from the full sources, tells the
// channel only notices the snapshot did not hold.
func TestSnapshotThenSourcesNeverResends(t *testing.T) {
	c := newChannelSim(t)
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	first := c.step(t, k)
	if len(first) == 0 {
		t.Fatal("the snapshot's first digest is empty")
	}
	items := c.step(t, knowledge.Compile(sharedCorpus(t, srcSeeds, srcWebsite, srcKEPYAML)))
	checkNothingRetold(t, "full sources", items, first)
	for _, n := range items {
		if n.API != nil || n.KEP > 0 || len(n.FeatureGates) > 0 {
			t.Errorf("full sources: %s is new, yet the snapshot keeps every notice with an API, KEP or gate", describe(n))
		}
	}
	t.Logf("snapshot: %d items; full sources: %d new (notices with words only, which the snapshot leaves out)", len(first), len(items))
}
