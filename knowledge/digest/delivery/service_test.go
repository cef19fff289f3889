package delivery_test

import (
	"context"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// TestServiceNeedsAPoster: a service no platform can post for does not
// start.
func TestServiceNeedsAPoster(t *testing.T) {
	h := newHarness(t, fanoutSpec{slack: 1, workspaces: 1, unit: time.Millisecond}, 1)
	d := delivery.NewService(h.db.Shared(), h.db.Knowledge(), zerolog.Nop())
	if err := d.Attach(nil, delivery.Settings{}, nil); err == nil || err.Error() != "digests: no platform can post" {
		t.Fatalf("Attach without posters: %v", err)
	}
	if d.Trigger() != nil {
		t.Error("a service not attached has a trigger")
	}
	var none *delivery.Service
	none.Start(context.Background())() // a nil service runs nothing
	if none.Trigger() != nil {
		t.Error("a nil service has a trigger")
	}
}

// TestServicePostsWhatItQueues: once attached and started, the digests the
// trigger queues for new knowledge reach every channel once, and the wait
// returns after the stop.
func TestServicePostsWhatItQueues(t *testing.T) {
	unit := time.Millisecond
	h := newHarness(t, fanoutSpec{slack: 6, discord: 3, workspaces: 2, unit: unit}, 2)
	d := delivery.NewService(h.db.Shared(), h.db.Knowledge(), zerolog.Nop())
	if d.Subscriptions() == nil {
		t.Fatal("no subscription service")
	}
	if err := d.Attach(posters(h.srv.URL, unit), delivery.Settings{GlobalRate: 100, SlackWorkspaceRate: 100}, &delivery.Counts{}); err != nil {
		t.Fatal(err)
	}
	if len(d.WorkerConfig().Posters) != 2 {
		t.Fatalf("worker posters: %v", d.WorkerConfig().Posters)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Queue before the start: the schedule the service starts queues the
	// same digests on its own first tick, and whichever came first would
	// create them.
	rep, err := d.Trigger().OnKnowledgeChanged(ctx)
	if err != nil || rep.Created != len(h.channels) {
		cancel()
		t.Fatalf("queued %+v, %v; want %d deliveries", rep, err, len(h.channels))
	}
	wait := d.Start(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for len(h.fake.shown()) < len(h.channels) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	wait()
	shown := h.fake.shown()
	if len(shown) != len(h.channels) {
		t.Fatalf("posted to %d channels, want %d", len(shown), len(h.channels))
	}
	for ch, nonces := range shown {
		for n, c := range nonces {
			if c != 1 {
				t.Errorf("%s showed %s %d times", ch, n, c)
			}
		}
	}
}
