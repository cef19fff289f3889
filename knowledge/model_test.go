package knowledge

import (
	"testing"
	"time"
)

// TestNoticeAction: an upgrade note and a notice marked action required
// belong among the urgent notes; only the marked notice of another kind
// carries the tag.
func TestNoticeAction(t *testing.T) {
	for _, tt := range []struct {
		n             Notice
		needs, tagged bool
	}{
		{Notice{Kind: NoticeUpgrade}, true, false},
		{Notice{Kind: NoticeUpgrade, Action: true}, true, false},
		{Notice{Kind: NoticeRemoval, Action: true}, true, true},
		{Notice{Kind: NoticeDeprecation}, false, false},
	} {
		if got := tt.n.NeedsAction(); got != tt.needs {
			t.Errorf("%s action %v: NeedsAction %v, want %v", tt.n.Kind, tt.n.Action, got, tt.needs)
		}
		if got := tt.n.ActionTagged(); got != tt.tagged {
			t.Errorf("%s action %v: ActionTagged %v, want %v", tt.n.Kind, tt.n.Action, got, tt.tagged)
		}
	}
}

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
