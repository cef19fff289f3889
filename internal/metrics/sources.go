package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Source refresh metric names.
const (
	SourceRefreshes     = "kepbot_source_refreshes_total"
	SourceLastSuccess   = "kepbot_source_last_success_timestamp_seconds"
	SourceLastAttempt   = "kepbot_source_last_attempt_timestamp_seconds"
	SourceLastResult    = "kepbot_source_last_result"
	SourceNotModified   = "kepbot_source_not_modified_total"
	SourceBytes         = "kepbot_source_bytes_total"
	SourceFetchSeconds  = "kepbot_source_fetch_duration_seconds"
	KnowledgeGeneration = "kepbot_knowledge_generation"
)

// sourceResults are the values the last_result gauge takes, one series
// each, 1 for the last result and 0 for the others.
var sourceResults = []string{"updated", "not modified", "not published", "failed", "rate limited", "waiting"}

// Sources records what the knowledge refresher does, by source ("kep.yaml",
// "release-notes/1.36", "lifecycle", ...). Get it with (*Metrics).Sources.
type Sources struct {
	refreshes, notModified, bytes *prometheus.CounterVec
	lastSuccess, lastAttempt      *prometheus.GaugeVec
	lastResult                    *prometheus.GaugeVec
	duration                      *prometheus.HistogramVec
	generation                    prometheus.Gauge
	now                           func() time.Time
}

// Sources registers the refresh metrics on m's registry and returns them.
// Call it once per Metrics.
func (m *Metrics) Sources() *Sources {
	s := &Sources{
		refreshes:   prometheus.NewCounterVec(prometheus.CounterOpts{Name: SourceRefreshes, Help: "Sources asked for news, by source and result (updated, not modified, not published, failed, rate limited, waiting)."}, []string{"source", "result"}),
		notModified: prometheus.NewCounterVec(prometheus.CounterOpts{Name: SourceNotModified, Help: "Conditional requests the source answered with 304 (an ETag or Last-Modified hit), by source."}, []string{"source"}),
		bytes:       prometheus.NewCounterVec(prometheus.CounterOpts{Name: SourceBytes, Help: "Bytes read from each source, as sent."}, []string{"source"}),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: SourceLastSuccess, Help: "When each source last answered with news or with nothing new (Unix seconds)."}, []string{"source"}),
		lastAttempt: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: SourceLastAttempt, Help: "When each source was last asked (Unix seconds)."}, []string{"source"}),
		lastResult:  prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: SourceLastResult, Help: "1 for the result of each source's last request, 0 for the other results."}, []string{"source", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: SourceFetchSeconds, Help: "Time to fetch and read each source.",
			Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}}, []string{"source"}),
		generation: prometheus.NewGauge(prometheus.GaugeOpts{Name: KnowledgeGeneration, Help: "The knowledge's generation: bumped by every ingest, sync or refresh that changed it."}),
		now:        time.Now,
	}
	m.reg.MustRegister(s.refreshes, s.notModified, s.bytes, s.lastSuccess, s.lastAttempt, s.lastResult, s.duration, s.generation)
	return s
}

// Observe records one source's outcome: name, result, bytes read and how
// long it took. ok says it answered (news or nothing new).
func (s *Sources) Observe(name, result string, bytes int64, took time.Duration, ok bool) {
	now := float64(s.now().UnixMilli()) / 1000
	s.refreshes.WithLabelValues(name, result).Inc()
	if result != "waiting" {
		s.lastAttempt.WithLabelValues(name).Set(now)
	}
	if ok {
		s.lastSuccess.WithLabelValues(name).Set(now)
	}
	if result == "not modified" {
		s.notModified.WithLabelValues(name).Inc()
	}
	if bytes > 0 {
		s.bytes.WithLabelValues(name).Add(float64(bytes))
	}
	if took > 0 {
		s.duration.WithLabelValues(name).Observe(took.Seconds())
	}
	for _, r := range sourceResults {
		v := 0.0
		if r == result {
			v = 1
		}
		s.lastResult.WithLabelValues(name, r).Set(v)
	}
}

// Generation records the knowledge's generation.
func (s *Sources) Generation(g uint64) { s.generation.Set(float64(g)) }
