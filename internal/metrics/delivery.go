package metrics

import "github.com/prometheus/client_golang/prometheus"

// Digest delivery metric names.
const (
	DigestsDelivered         = "kepbot_digests_delivered_total"
	DigestRetries            = "kepbot_digest_retries_total"
	DigestsDead              = "kepbot_digests_dead_total"
	DigestsInDoubt           = "kepbot_digest_in_doubt_total"
	DigestDuplicatesPossible = "kepbot_digest_duplicates_possible_total"
)

var (
	specDelivered = Spec{Name: DigestsDelivered, Type: Counter, Labels: []string{"platform"},
		Help: "Digests whose last message was posted, by platform."}
	specRetries = Spec{Name: DigestRetries, Type: Counter, Labels: []string{"platform", "reason"},
		Help: "Digest posts that failed and will be tried again, by platform and reason (rate_limited, timeout, error)."}
	specDead = Spec{Name: DigestsDead, Type: Counter, Labels: []string{"platform", "reason"},
		Help: "Digest deliveries given up, by platform and reason (the platform's code for a gone channel, gave_up, no_digest)."}
	specInDoubt = Spec{Name: DigestsInDoubt, Type: Counter, Labels: []string{"platform"},
		Help: "Deliveries a restart found possibly in the middle of a post, posted again, by platform."}
	specDuplicates = Spec{Name: DigestDuplicatesPossible, Type: Counter, Labels: []string{"platform", "reason"},
		Help: "Digest posts repeated on a platform without an idempotency key after an outcome that may have posted them, " +
			"each at most one extra message, by platform and reason: restart (a crash caught it mid-post; at most one per crash, " +
			"since such a platform posts one digest at a time), timeout or error (the post failed without saying it was not posted)."}
)

// Delivery records what the digest worker does; it has the method set of
// delivery.Metrics. Get it with (*Metrics).Delivery.
type Delivery struct {
	delivered, inDoubt, duplicates *prometheus.CounterVec
	retries, dead                  *prometheus.CounterVec
}

// Delivery registers the digest delivery metrics on m's registry and
// returns them. Call it once per Metrics.
func (m *Metrics) Delivery() *Delivery {
	d := &Delivery{delivered: specDelivered.counterVec(), retries: specRetries.counterVec(), dead: specDead.counterVec(),
		inDoubt: specInDoubt.counterVec(), duplicates: specDuplicates.counterVec()}
	m.reg.MustRegister(d.delivered, d.retries, d.dead, d.inDoubt, d.duplicates)
	return d
}

// Delivered counts a digest posted.
func (d *Delivery) Delivered(platform string) { d.delivered.WithLabelValues(platform).Inc() }

// Retried counts a post to try again.
func (d *Delivery) Retried(platform, reason string) {
	d.retries.WithLabelValues(platform, reason).Inc()
}

// Dead counts a delivery given up.
func (d *Delivery) Dead(platform, reason string) { d.dead.WithLabelValues(platform, reason).Inc() }

// InDoubt counts a delivery found mid-post after a restart.
func (d *Delivery) InDoubt(platform string) { d.inDoubt.WithLabelValues(platform).Inc() }

// DuplicatePossible counts a post that may show twice, and why.
func (d *Delivery) DuplicatePossible(platform, reason string) {
	d.duplicates.WithLabelValues(platform, reason).Inc()
}
