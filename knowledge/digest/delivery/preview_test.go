package delivery_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// TestPreviewChannel: a channel ID names one subscription, whose digest
// is previewed without being queued; an unknown ID names none, and an ID
// two platforms share names neither until the platform is given.
func TestPreviewChannel(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, fanoutSpec{slack: 2, workspaces: 1, unit: time.Millisecond}, 3)
	tr := trigger(h.db, nil)
	ch := h.channels[0]
	p, err := tr.PreviewChannel(ctx, ch.Channel, "")
	if err != nil || p.Ref != ch || !p.New || len(p.Digest.Groups) == 0 || !strings.HasPrefix(p.State(), p.Sub.Filter.String()) {
		t.Fatalf("preview of %s: %+v, %v", ch.ID(), p, err)
	}
	if all, _ := h.db.Outbox().ListDeliveries(ctx); len(all) != 0 {
		t.Errorf("a preview queued %d deliveries", len(all))
	}
	if _, err := tr.PreviewChannel(ctx, "C404", ""); !errors.Is(err, delivery.ErrNoChannel) {
		t.Errorf("an unknown channel: %v; want ErrNoChannel", err)
	}
	_, err = h.db.Subscriptions().SaveSubscription(ctx, digest.Subscription{Platform: "discord", Workspace: "7", Channel: ch.Channel,
		CreatedBy: "U1", CreatedAt: time.Now(), Filter: digest.Filter{Schedule: digest.ScheduleRelease, Format: digest.FormatCompact}})
	if err != nil {
		t.Fatal(err)
	}
	var amb *delivery.AmbiguousChannelError
	if _, err := tr.PreviewChannel(ctx, ch.Channel, ""); !errors.As(err, &amb) || len(amb.IDs) != 2 {
		t.Errorf("a channel ID on two platforms: %v; want *AmbiguousChannelError with both", err)
	}
	if p, err := tr.PreviewChannel(ctx, ch.Channel, "slack"); err != nil || p.Ref != ch {
		t.Errorf("with --platform slack: %+v, %v", p.Ref, err)
	}
}
