package delivery

import "time"

// RateLimit wraps err, a post the platform held back, as RateLimited and
// Scoped: nothing goes to scope before after has passed. Posters return it
// for a 429.
func RateLimit(err error, after time.Duration, scope Scope) error {
	return &rateLimitError{err: err, after: after, scope: scope}
}

// Refused wraps err, a channel the platform will not take posts in, as
// Terminal with reason, the platform's code ("channel_not_found", "50013").
func Refused(err error, reason string) error {
	return &refusedError{err: err, reason: reason}
}

// NotPosted wraps err, a failed post that the platform answered without
// creating the message (Slack's ok:false with an error other than
// fatal_error), as Unposted: the worker retries it like any failure but
// does not count it as a possible duplicate.
func NotPosted(err error) error {
	return &notPostedError{err: err}
}

type notPostedError struct{ err error }

func (e *notPostedError) Error() string  { return e.err.Error() }
func (e *notPostedError) Unwrap() error  { return e.err }
func (e *notPostedError) Unposted() bool { return true }

type rateLimitError struct {
	err   error
	after time.Duration
	scope Scope
}

func (e *rateLimitError) Error() string             { return e.err.Error() }
func (e *rateLimitError) Unwrap() error             { return e.err }
func (e *rateLimitError) RetryAfter() time.Duration { return e.after }
func (e *rateLimitError) RetryScope() Scope         { return e.scope }

type refusedError struct {
	err    error
	reason string
}

func (e *refusedError) Error() string                      { return e.err.Error() }
func (e *refusedError) Unwrap() error                      { return e.err }
func (e *refusedError) Terminal() (reason string, ok bool) { return e.reason, true }
