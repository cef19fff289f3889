package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metric names, for dashboards and tests.
const (
	QuestionsTotal = "kepbot_questions_total"
	AnswerSeconds  = "kepbot_answer_duration_seconds"
	ErrorsTotal    = "kepbot_errors_total"
	BuildInfo      = "kepbot_build_info"
)

// Error reasons adapters report. Keep the set small: each is a label value.
const (
	ReasonBadRequest = "bad_request" // a request that failed verification or parsing
	ReasonDuplicate  = "duplicate"   // a retried event already answered
	ReasonInternal   = "internal"    // an answer that was an internal error
	ReasonPost       = "post"        // posting an answer to the platform failed
	ReasonAck        = "ack"         // acknowledging an envelope failed
	ReasonConnection = "connection"  // a connection to the platform failed
	ReasonLate       = "late"        // an answer missed the inline budget and went out later
)

var (
	specQuestions = Spec{Name: QuestionsTotal, Type: Counter, Labels: []string{"platform", "kind"},
		Help: "Questions answered, by platform and answer kind (kep, release, list, help, error, ...)."}
	specLatency = Spec{Name: AnswerSeconds, Type: Histogram, Labels: []string{"platform"},
		Help:    "Time from receiving a question to having its answer rendered, by platform.",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}
	specErrors = Spec{Name: ErrorsTotal, Type: Counter, Labels: []string{"platform", "reason"},
		Help: "Errors by platform and reason (bad_request, duplicate, internal, post, ack, connection, late)."}
	specBuild = Spec{Name: BuildInfo, Type: Gauge, Labels: []string{"version"},
		Help: "Always 1; the version label says which kepbot is running."}
)

// Metrics is the set of kepbot's metrics on one registry. Its methods are
// safe for concurrent use; a nil *Metrics records nothing.
type Metrics struct {
	reg       *prometheus.Registry
	questions *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	errors    *prometheus.CounterVec
}

// New returns metrics on a new registry, with the Go runtime and process
// collectors and a build_info gauge carrying version.
func New(version string) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg, questions: specQuestions.counterVec(), latency: specLatency.histogramVec(), errors: specErrors.counterVec()}
	build := specBuild.gaugeVec()
	build.WithLabelValues(version).Set(1)
	reg.MustRegister(m.questions, m.latency, m.errors, build,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry returns the registry, for tests and for adding collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, ErrorHandling: promhttp.ContinueOnError})
}

// Answered records one question answered on platform with an answer of
// kind, took after it arrived.
func (m *Metrics) Answered(platform, kind string, took time.Duration) {
	if m == nil {
		return
	}
	m.questions.WithLabelValues(platform, kind).Inc()
	m.latency.WithLabelValues(platform).Observe(took.Seconds())
}

// Failed records one error on platform for reason (one of the Reason
// constants).
func (m *Metrics) Failed(platform, reason string) {
	if m == nil {
		return
	}
	m.errors.WithLabelValues(platform, reason).Inc()
}
