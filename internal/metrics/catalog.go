package metrics

import "github.com/prometheus/client_golang/prometheus"

// Spec is one of kepbot's metrics: what New, Sources, Delivery and Cluster
// register, and what the table of metrics in docs/operations.md lists
// (generated from Catalog, so that it cannot drift from what is served).
type Spec struct {
	Name    string
	Type    string // Counter, Gauge or Histogram
	Labels  []string
	Help    string
	Buckets []float64 // a histogram's
}

// Metric types, as Prometheus names them.
const (
	Counter   = "counter"
	Gauge     = "gauge"
	Histogram = "histogram"
)

// Catalog returns every kepbot_* metric, in the order docs/operations.md
// lists them: the answers, the knowledge's sources, the digests, the
// replicas.
func Catalog() []Spec {
	return []Spec{
		specQuestions, specLatency, specErrors, specBuild,
		specRefreshes, specRequests, specNotModified, specBytes, specLastSuccess, specLastAttempt, specLastResult, specFailingSince,
		specFetchSeconds, specHostOpen, specGeneration,
		specDelivered, specRetries, specDead, specInDoubt, specDuplicates,
		specLeader, specTerms, specCampaign,
	}
}

func (s Spec) counterVec() *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: s.Name, Help: s.Help}, s.Labels)
}

func (s Spec) gaugeVec() *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: s.Name, Help: s.Help}, s.Labels)
}

func (s Spec) histogramVec() *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: s.Name, Help: s.Help, Buckets: s.Buckets}, s.Labels)
}

func (s Spec) counter() prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: s.Name, Help: s.Help})
}

func (s Spec) gauge() prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: s.Name, Help: s.Help})
}

func (s Spec) histogram() prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: s.Name, Help: s.Help, Buckets: s.Buckets})
}
