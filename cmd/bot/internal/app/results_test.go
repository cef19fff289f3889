package app

import (
	"slices"
	"testing"

	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
)

// TestMetricsKnowEveryRefreshResult: the last_result gauge's series are
// the results a refresh gives (internal/ may not import knowledge, so the
// two lists are written apart; a new result missing from the metrics
// would never have its series reset).
func TestMetricsKnowEveryRefreshResult(t *testing.T) {
	if !slices.Equal(metrics.SourceResults, refresh.Results) {
		t.Errorf("metrics.SourceResults %q; refresh.Results %q", metrics.SourceResults, refresh.Results)
	}
}
