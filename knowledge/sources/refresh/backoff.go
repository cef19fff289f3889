package refresh

import (
	"math/rand/v2"
	"time"

	"github.com/kepbot/kepbot/store"
)

// maxBackoff caps the wait after failures in a row.
const maxBackoff = 24 * time.Hour

// backoff is how long to wait before asking a source again after its n-th
// failure in a row: a tenth of the interval (at least a second), doubling
// with each failure, at most four intervals (and maxBackoff).
func backoff(interval time.Duration, n int) time.Duration {
	base := max(interval/10, time.Second)
	limit := min(4*interval, maxBackoff)
	d := base
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, max(limit, base))
}

// jitter spreads d by up to a tenth either way, so replicas and restarts
// do not ask the sources in step.
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return d
	}
	spread := int64(d / 10)
	if spread <= 0 {
		return d
	}
	return d - time.Duration(spread) + time.Duration(rand.Int64N(2*spread+1))
}

// due reports whether a source with state st may be asked at now: always
// when force is set, except while a server's rate limit holds; else once
// its backoff has passed.
func due(st store.SourceState, now time.Time, force bool) bool {
	if st.RetryAt.IsZero() || !st.RetryAt.After(now) {
		return true
	}
	return force && st.Result != ResultRateLimited
}
