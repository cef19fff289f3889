package delivery_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/store"
)

// fanoutKnowledge is made-up knowledge: a few deprecations and removals
// in three releases, in words of our own.
func fanoutKnowledge(extra ...knowledge.Notice) *knowledge.Knowledge {
	v := knowledge.MustVersion
	k := &knowledge.Knowledge{KEPs: []knowledge.KEP{{Number: 9001, Title: "Sprockets", SIG: "sig-network"}}}
	for i, ver := range []string{"1.40", "1.41", "1.42"} {
		rel := knowledge.ReleaseRecord{Release: knowledge.Release{Version: v(ver)}}
		rel.Notices = append(rel.Notices,
			knowledge.Notice{Kind: knowledge.NoticeDeprecation, Release: v(ver), KEP: 9001, Title: fmt.Sprintf("Sprocket flag %d", i), Source: "notes-" + ver},
			knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: v(ver), Title: fmt.Sprintf("Gadget v1beta%d", i+1), Source: "guide",
				API: &knowledge.APIChange{GroupVersion: fmt.Sprintf("gadgets.example.io/v1beta%d", i+1), Kinds: []string{"Gadget"}, ReplacedBy: "gadgets.example.io/v1"}})
		for _, n := range extra {
			if n.Release == rel.Version {
				rel.Notices = append(rel.Notices, n)
			}
		}
		k.Releases = append(k.Releases, rel)
	}
	return k
}

// fanoutSpec says which channels subscribe.
type fanoutSpec struct {
	slack, discord int // channels on each platform
	workspaces     int // Slack workspaces (Discord channels spread over 10 guilds)
	goneEvery      int // every nth channel is gone; 0 is none
	unit           time.Duration
}

var slackGone = []string{"channel_not_found", "not_in_channel", "is_archived"}
var discordGone = []string{"10003", "50001", "50013"}

// harness is a database with subscriptions and made-up knowledge, and the
// fake platforms the posters speak to.
type harness struct {
	spec     fanoutSpec
	path     string
	db       *store.DB
	fake     *fakePlatforms
	srv      *httptest.Server
	channels []digest.ChannelRef
	gone     map[string]string // channel → code
}

func newHarness(t testing.TB, spec fanoutSpec, seed uint64) *harness {
	t.Helper()
	h := &harness{spec: spec, path: filepath.Join(t.TempDir(), "kepbot.db"), gone: map[string]string{}}
	h.fake = newFakePlatforms(seed, spec.unit)
	h.fake.gap = spec.unit
	var err error
	if h.db, err = store.Open(h.path, store.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.db.Close() })
	ctx := context.Background()
	if err := h.db.Knowledge().ReplaceKnowledge(ctx, fanoutKnowledge()); err != nil {
		t.Fatal(err)
	}
	for i := range spec.slack + spec.discord {
		var ref digest.ChannelRef
		if i < spec.slack {
			ws := fmt.Sprintf("T%02d", i%spec.workspaces)
			ref = digest.ChannelRef{Platform: "slack", Workspace: ws, Channel: fmt.Sprintf("C%sX%05d", ws, i)}
			h.fake.workspaceOf[ref.Channel] = ws
		} else {
			ref = digest.ChannelRef{Platform: "discord", Workspace: fmt.Sprintf("%d", 7000+i%10), Channel: fmt.Sprintf("%d", 900000000+i)}
		}
		if spec.goneEvery > 0 && i%spec.goneEvery == spec.goneEvery/2 {
			codes := slackGone
			if ref.Platform == "discord" {
				codes = discordGone
			}
			h.gone[ref.Channel] = codes[(i/spec.goneEvery)%3]
			h.fake.gone[ref.Channel] = h.gone[ref.Channel]
		}
		h.channels = append(h.channels, ref)
		_, err := h.db.Subscriptions().SaveSubscription(ctx, digest.Subscription{
			Platform: ref.Platform, Workspace: ref.Workspace, Channel: ref.Channel, CreatedBy: "U1", CreatedAt: time.Now(),
			Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	h.srv = httptest.NewServer(h.fake.handler())
	t.Cleanup(h.srv.Close)
	return h
}

// posters returns posters speaking to the fakes at base.
func posters(base string, unit time.Duration) map[string]delivery.Poster {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 10 * time.Second}
	return map[string]delivery.Poster{
		"slack":   &slackPoster{base: base, unit: unit, client: client},
		"discord": &discordPoster{base: base, unit: unit, client: client},
	}
}

// workerConfig is a worker for the fakes, its times scaled to unit.
func workerConfig(base string, unit time.Duration, m delivery.Metrics) delivery.Config {
	return delivery.Config{
		Posters: posters(base, unit),
		Limits: map[string]delivery.Limits{
			"slack":   {ChannelGap: unit},
			"discord": {ChannelGap: unit},
		},
		Workers: 8, BackoffBase: unit, BackoffMax: 30 * unit, DefaultRetryAfter: unit,
		Poll: 5 * unit, PostTimeout: 5 * time.Second, Metrics: m, Log: zerolog.Nop(),
	}
}

// trigger is a Trigger over db.
func trigger(db *store.DB, notify func()) *delivery.Trigger {
	return delivery.NewTrigger(delivery.TriggerConfig{Knowledge: db.Knowledge(), Subscriptions: db.Subscriptions(),
		Ledger: db.Subscriptions(), Outbox: db.Outbox(), Notify: notify})
}

// runUntil runs w until done reports true or timeout passes.
func runUntil(t testing.TB, w *delivery.Worker, timeout time.Duration, done func() bool) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	start := time.Now()
	go func() { stopped <- w.Run(ctx) }()
	deadline := time.After(timeout)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	var took time.Duration
loop:
	for {
		select {
		case <-deadline:
			cancel()
			<-stopped
			t.Fatalf("not done after %s", timeout)
		case <-tick.C:
			if done() {
				took = time.Since(start)
				break loop
			}
		}
	}
	cancel()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	return took
}

// checkFile runs bbolt's page check on the closed database at path.
func checkFile(t testing.TB, path string) {
	t.Helper()
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	err = bdb.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("bbolt check: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
