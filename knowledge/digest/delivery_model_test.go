package digest

import (
	"testing"
	"time"
)

// TestParseDeliveryKey: a delivery's key gives back its channel.
func TestParseDeliveryKey(t *testing.T) {
	ref := ChannelRef{Platform: "slack", Workspace: "T1", Channel: "C1"}
	if got, ok := ParseDeliveryKey(DeliveryKey(ref, "digest-1")); !ok || got != ref {
		t.Errorf("ParseDeliveryKey(DeliveryKey(%v)) = %v, %v", ref, got, ok)
	}
	if _, ok := ParseDeliveryKey("slack/T1"); ok {
		t.Error("a key of two parts parsed")
	}
}

// TestTakeBack: a delivery whose post had begun comes back pending and in
// doubt, one that had not comes back pending without doubt; only the first
// must look for its post before posting again.
func TestTakeBack(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	begun := Delivery{State: DeliverySending, ClaimedAfter: "x", PartsSent: 1}
	begun.TakeBack(true, at)
	if begun.State != DeliveryPending || begun.InDoubt != 1 || begun.ClaimedAfter != "" || !begun.NextAttempt.Equal(at) || !begun.StillInDoubt() {
		t.Errorf("begun: %+v", begun)
	}
	waiting := Delivery{State: DeliverySending}
	waiting.TakeBack(false, at)
	if waiting.State != DeliveryPending || waiting.InDoubt != 0 || waiting.StillInDoubt() {
		t.Errorf("not begun: %+v", waiting)
	}
	begun.Reason = "retry after HTTP 503" // tried since
	if begun.StillInDoubt() {
		t.Error("a delivery tried since it was taken back is still in doubt")
	}
}
