package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestCounts(t *testing.T) {
	m := New("v1.2.3")
	m.Answered("slack", "kep", 2*time.Millisecond)
	m.Answered("slack", "kep", 3*time.Millisecond)
	m.Answered("slack", "error", time.Millisecond)
	m.Failed("slack", ReasonBadRequest)

	if got := testutil.ToFloat64(m.questions.WithLabelValues("slack", "kep")); got != 2 {
		t.Errorf("slack kep questions = %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.errors.WithLabelValues("slack", ReasonBadRequest)); got != 1 {
		t.Errorf("bad_request errors = %v, want 1", got)
	}
	if got := testutil.CollectAndCount(m.latency, AnswerSeconds); got != 1 {
		t.Errorf("%d latency series, want 1 (slack)", got)
	}
	want := `
# HELP kepbot_questions_total Questions answered, by platform and answer kind (kep, release, list, help, error, ...).
# TYPE kepbot_questions_total counter
kepbot_questions_total{kind="error",platform="slack"} 1
kepbot_questions_total{kind="kep",platform="slack"} 2
`
	if err := testutil.CollectAndCompare(m.questions, strings.NewReader(want), QuestionsTotal); err != nil {
		t.Error(err)
	}
}

func TestHandlerServesOwnRegistryOnly(t *testing.T) {
	m := New("dev")
	m.Answered("slack", "release", time.Millisecond)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{QuestionsTotal, AnswerSeconds + "_bucket", `kepbot_build_info{version="dev"} 1`, "go_goroutines"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	// Two instances must not collide, and the global registry stays clean.
	New("other").Answered("slack", "kep", 0)
	if n, err := testutil.GatherAndCount(prometheus.DefaultGatherer, QuestionsTotal); err != nil || n != 0 {
		t.Errorf("global registry has %d %s series (%v), want 0", n, QuestionsTotal, err)
	}
}

func TestNilMetricsRecordsNothing(t *testing.T) {
	var m *Metrics
	m.Answered("slack", "kep", time.Second) // must not panic
	m.Failed("slack", ReasonPost)
}
