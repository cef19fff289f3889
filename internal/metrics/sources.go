package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Source refresh metric names.
const (
	SourceRefreshes     = "kepbot_source_refreshes_total"
	SourceRequests      = "kepbot_source_requests_total"
	SourceLastSuccess   = "kepbot_source_last_success_timestamp_seconds"
	SourceLastAttempt   = "kepbot_source_last_attempt_timestamp_seconds"
	SourceLastResult    = "kepbot_source_last_result"
	SourceFailingSince  = "kepbot_source_failing_since_timestamp_seconds"
	SourceNotModified   = "kepbot_source_not_modified_total"
	SourceBytes         = "kepbot_source_bytes_total"
	SourceFetchSeconds  = "kepbot_source_fetch_duration_seconds"
	SourceHostOpen      = "kepbot_source_host_open"
	KnowledgeGeneration = "kepbot_knowledge_generation"
)

// SourceResults are the values the last_result gauge takes, one series
// each, 1 for the last result and 0 for the others: refresh's Results.
var SourceResults = []string{"updated", "not modified", "not published", "failed", "rate limited", "waiting", "skipped"}

var (
	specRefreshes = Spec{Name: SourceRefreshes, Type: Counter, Labels: []string{"source", "result"},
		Help: "Sources a refresh pass dealt with, by source and result: updated, not modified, not published, failed, rate limited, " +
			"skipped (not asked: its host failed earlier in the pass, or the pass ran out of time), waiting (not asked: backing off after earlier failures)."}
	specRequests = Spec{Name: SourceRequests, Type: Counter, Labels: []string{"source"},
		Help: "HTTP requests made of each source, retries included."}
	specNotModified = Spec{Name: SourceNotModified, Type: Counter, Labels: []string{"source"},
		Help: "Conditional requests the source answered with 304 (an ETag or Last-Modified hit), by source."}
	specBytes       = Spec{Name: SourceBytes, Type: Counter, Labels: []string{"source"}, Help: "Bytes read from each source, as sent."}
	specLastSuccess = Spec{Name: SourceLastSuccess, Type: Gauge, Labels: []string{"source"},
		Help: "When each source last answered with news or with nothing new (Unix seconds)."}
	specLastAttempt = Spec{Name: SourceLastAttempt, Type: Gauge, Labels: []string{"source"},
		Help: "When each source was last asked (Unix seconds)."}
	specLastResult = Spec{Name: SourceLastResult, Type: Gauge, Labels: []string{"source", "result"},
		Help: "1 for the result of each source's last pass, 0 for the other results."}
	specFailingSince = Spec{Name: SourceFailingSince, Type: Gauge, Labels: []string{"source"},
		Help: "When each source began to fail, or to be held back, in a row (Unix seconds; kept across restarts), 0 while it answers: " +
			"answers say it may be out of date once this is older than sources.stale_after."}
	specFetchSeconds = Spec{Name: SourceFetchSeconds, Type: Histogram, Labels: []string{"source"},
		Help: "Time to fetch and read each source, retries and their waits included.", Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}}
	specHostOpen = Spec{Name: SourceHostOpen, Type: Gauge, Labels: []string{"host"},
		Help: "1 while a host is not asked: its circuit opened after failures in a row, or it said when to come back (Retry-After, a rate limit); 0 once it may be asked."}
	specGeneration = Spec{Name: KnowledgeGeneration, Type: Gauge,
		Help: "The knowledge's generation: bumped by every ingest, sync or refresh that changed it."}
)

// Sources records what the knowledge refresher does, by source ("kep.yaml",
// "release-notes/1.36", "lifecycle", ...) and by host. Get it with
// (*Metrics).Sources.
type Sources struct {
	refreshes, requests, notModified, bytes *prometheus.CounterVec
	lastSuccess, lastAttempt, failingSince  *prometheus.GaugeVec
	lastResult, hostOpen                    *prometheus.GaugeVec
	duration                                *prometheus.HistogramVec
	generation                              prometheus.Gauge
	now                                     func() time.Time
}

// Sources registers the refresh metrics on m's registry and returns them.
// Call it once per Metrics.
func (m *Metrics) Sources() *Sources {
	s := &Sources{
		refreshes: specRefreshes.counterVec(), requests: specRequests.counterVec(), notModified: specNotModified.counterVec(), bytes: specBytes.counterVec(),
		lastSuccess: specLastSuccess.gaugeVec(), lastAttempt: specLastAttempt.gaugeVec(), failingSince: specFailingSince.gaugeVec(),
		lastResult: specLastResult.gaugeVec(), hostOpen: specHostOpen.gaugeVec(), duration: specFetchSeconds.histogramVec(),
		generation: specGeneration.gauge(), now: time.Now,
	}
	m.reg.MustRegister(s.refreshes, s.requests, s.notModified, s.bytes, s.lastSuccess, s.lastAttempt, s.failingSince, s.lastResult,
		s.duration, s.hostOpen, s.generation)
	return s
}

// SourceOutcome is how one pass dealt with one source.
type SourceOutcome struct {
	Name, Result string // "kep.yaml", one of SourceResults
	Requests     int    // made of it, retries included
	Bytes        int64  // read from it
	Took         time.Duration
	// OK says it answered: news, nothing new, not published.
	OK bool
	// FailingSince is when its failures in a row began; zero while it
	// answers.
	FailingSince time.Time
}

// Observe records how a pass dealt with one source.
func (s *Sources) Observe(o SourceOutcome) {
	now := float64(s.now().UnixMilli()) / 1000
	s.refreshes.WithLabelValues(o.Name, o.Result).Inc()
	if o.Requests > 0 {
		s.requests.WithLabelValues(o.Name).Add(float64(o.Requests))
		s.lastAttempt.WithLabelValues(o.Name).Set(now)
	}
	if o.OK {
		s.lastSuccess.WithLabelValues(o.Name).Set(now)
	}
	since := 0.0
	if !o.FailingSince.IsZero() {
		since = float64(o.FailingSince.UnixMilli()) / 1000
	}
	s.failingSince.WithLabelValues(o.Name).Set(since)
	if o.Result == "not modified" {
		s.notModified.WithLabelValues(o.Name).Inc()
	}
	if o.Bytes > 0 {
		s.bytes.WithLabelValues(o.Name).Add(float64(o.Bytes))
	}
	if o.Took > 0 {
		s.duration.WithLabelValues(o.Name).Observe(o.Took.Seconds())
	}
	for _, r := range SourceResults {
		v := 0.0
		if r == o.Result {
			v = 1
		}
		s.lastResult.WithLabelValues(o.Name, r).Set(v)
	}
}

// Host records whether host may be asked (open false) or not.
func (s *Sources) Host(host string, open bool) {
	v := 0.0
	if open {
		v = 1
	}
	s.hostOpen.WithLabelValues(host).Set(v)
}

// Generation records the knowledge's generation.
func (s *Sources) Generation(g uint64) { s.generation.Set(float64(g)) }
