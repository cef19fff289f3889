package refresh

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/fetch"
)

// fault is what kind of failure a source's fetch met, which decides whether
// a pass asks it again (retries) and whether it counts against its host.
type fault struct {
	kind  faultKind
	until time.Time // faultWait: when the server said to come back, zero when it did not
}

type faultKind int

const (
	// faultContent: the host answered, but what it sent cannot be used
	// (refused, too large) or the URL is refused: not retried, not the
	// host's failure.
	faultContent faultKind = iota
	// faultSource: the host answered that the source is not there or not
	// for us (404 of a known source, 401, 403 without a rate limit): not
	// retried, not the host's failure.
	faultSource
	// faultTransient: a 5xx, 408, a reset or refused connection, a failed
	// DNS lookup: retried with backoff, and the host's failure.
	faultTransient
	// faultTimeout: the fetch's time ran out: the host's failure, not
	// retried (a second wait as long would rarely end otherwise).
	faultTimeout
	// faultWait: the server said when to come back (429, Retry-After,
	// GitHub's X-RateLimit-Remaining: 0): the host is not asked before
	// then, in this pass or the next.
	faultWait
)

// host reports whether the fault counts against the source's host.
func (f fault) host() bool {
	return f.kind == faultTransient || f.kind == faultTimeout || f.kind == faultWait
}

// retry reports whether the pass may ask the source again at once (after a
// backoff).
func (f fault) retry() bool { return f.kind == faultTransient }

// classify reads what kind of failure err is.
func classify(err error) fault {
	var se *fetch.StatusError
	switch {
	case errors.Is(err, errInvalid), errors.Is(err, fetch.ErrNotAllowed), errors.Is(err, fetch.ErrTooLarge):
		return fault{kind: faultContent}
	case errors.As(err, &se):
		switch {
		case se.RateLimited || !se.RetryAfter.IsZero():
			return fault{kind: faultWait, until: se.RetryAfter}
		case se.Code >= 500 || se.Code == http.StatusRequestTimeout:
			return fault{kind: faultTransient}
		}
		return fault{kind: faultSource}
	case errors.Is(err, fetch.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return fault{kind: faultTimeout}
	}
	return fault{kind: faultTransient} // the network: a reset, a refused connection, a failed lookup, a body cut short
}
