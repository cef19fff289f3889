package metrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestDeliveryMetrics(t *testing.T) {
	m := New("test")
	d := m.Delivery()
	d.Delivered("slack")
	d.Delivered("slack")
	d.Retried("discord", "rate_limited")
	d.Dead("slack", "channel_not_found")
	d.InDoubt("slack")
	d.DuplicatePossible("slack", "restart")
	d.DuplicatePossible("slack", "restart")
	if got := testutil.ToFloat64(d.delivered.WithLabelValues("slack")); got != 2 {
		t.Errorf("delivered = %v, want 2", got)
	}
	if got := testutil.ToFloat64(d.duplicates.WithLabelValues("slack", "restart")); got != 2 {
		t.Errorf("duplicates possible after a restart = %v, want 2", got)
	}
	if got := testutil.ToFloat64(d.dead.WithLabelValues("slack", "channel_not_found")); got != 1 {
		t.Errorf("dead = %v, want 1", got)
	}
	n, err := testutil.GatherAndCount(m.Registry(), DigestsDelivered, DigestRetries, DigestsDead, DigestsInDoubt, DigestDuplicatesPossible)
	if err != nil || n != 5 {
		t.Errorf("gathered %d series (%v), want 5", n, err)
	}
}
