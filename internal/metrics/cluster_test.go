package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestClusterMetrics(t *testing.T) {
	m := New("test")
	c := m.Cluster()
	c.Elected(1500 * time.Millisecond)
	c.Leading(true)
	want := `
# HELP kepbot_leader 1 while this replica leads (refreshes the knowledge, sends digests, holds the Discord gateway), else 0.
# TYPE kepbot_leader gauge
kepbot_leader 1
# HELP kepbot_leader_terms_total Times this replica won the election.
# TYPE kepbot_leader_terms_total counter
kepbot_leader_terms_total 1
`
	if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want), Leader, LeaderTerms); err != nil {
		t.Error(err)
	}
	c.Leading(false)
	if got := testutil.ToFloat64(c.leader); got != 0 {
		t.Errorf("kepbot_leader after stepping down = %v", got)
	}
	var none *Cluster
	none.Leading(true) // a nil Cluster records nothing, and does not panic
	none.Elected(time.Second)
}
