package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names of a replica sharing its state through etcd.
const (
	Leader          = "kepbot_leader"
	LeaderTerms     = "kepbot_leader_terms_total"
	CampaignSeconds = "kepbot_leader_campaign_seconds"
)

var (
	specLeader = Spec{Name: Leader, Type: Gauge,
		Help: "1 while this replica leads (refreshes the knowledge, sends digests, holds the Discord gateway), else 0."}
	specTerms    = Spec{Name: LeaderTerms, Type: Counter, Help: "Times this replica won the election."}
	specCampaign = Spec{Name: CampaignSeconds, Type: Histogram,
		Help:    "From the start of a campaign to winning it: after a leader's death, about its lease TTL.",
		Buckets: []float64{.01, .1, .5, 1, 2, 5, 10, 15, 30, 60, 300, 3600}}
)

// Cluster records a replica's part in the leader election. Get it with
// (*Metrics).Cluster; a nil *Cluster records nothing.
type Cluster struct {
	leader   prometheus.Gauge
	terms    prometheus.Counter
	campaign prometheus.Histogram
}

// Cluster registers the election metrics on m's registry and returns them.
// Call it once per Metrics.
func (m *Metrics) Cluster() *Cluster {
	c := &Cluster{leader: specLeader.gauge(), terms: specTerms.counter(), campaign: specCampaign.histogram()}
	m.reg.MustRegister(c.leader, c.terms, c.campaign)
	return c
}

// Leading records whether this replica leads now.
func (c *Cluster) Leading(on bool) {
	if c == nil {
		return
	}
	if on {
		c.leader.Set(1)
		return
	}
	c.leader.Set(0)
}

// Elected records a campaign won after took.
func (c *Cluster) Elected(took time.Duration) {
	if c == nil {
		return
	}
	c.terms.Inc()
	c.campaign.Observe(took.Seconds())
}
