package platform

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/rs/zerolog"
)

// Backoff is the wait between attempts: Base after the first failure,
// doubling with each failure in a row up to Max, and spread by Jitter.
type Backoff struct {
	Base, Max time.Duration
	// Rand returns a number in [0, 1) for the jitter; nil uses
	// math/rand/v2.
	Rand func() float64
}

// DefaultBackoff waits 1 s after the first failure, 2 s, 4 s, … and at
// most 5 minutes: about 20 attempts in the first hour of an outage.
var DefaultBackoff = Backoff{Base: time.Second, Max: 5 * time.Minute}

// Wait is how long to wait after the n-th failure in a row (n ≥ 1): half
// the exponential step, plus up to as much again at random ("equal
// jitter"), so that replicas restarted together do not retry in step and
// a wait is never shorter than half the step.
func (b Backoff) Wait(n int) time.Duration {
	base, limit := b.Base, b.Max
	if base <= 0 {
		base = DefaultBackoff.Base
	}
	if limit < base {
		limit = base
	}
	d := base
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	r := b.Rand
	if r == nil {
		r = rand.Float64
	}
	return d/2 + time.Duration(r()*float64(d/2))
}

// permanent marks an error that another attempt will not cure.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent marks err as one Retry must not retry: a refused token, an
// application that does not exist. nil stays nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsPermanent reports whether err, or an error it wraps, was marked
// Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// Retry calls attempt until it succeeds, and returns nil; after each
// failure it logs one line (what failed, the error, the attempt and the
// wait) and waits b.Wait(n) before the next. It returns a Permanent error
// at once, and nil when ctx ends. t follows along: Down after each
// failure, Up after the success, Stopped on a permanent error.
func Retry(ctx context.Context, b Backoff, t *Tracker, log zerolog.Logger, what string, attempt func(context.Context) error) error {
	for n := 1; ; n++ {
		t.Connecting()
		err := attempt(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err == nil {
			t.Up()
			if n > 1 {
				log.Info().Int("attempts", n).Msg(what + ": connected after failures")
			}
			return nil
		}
		if IsPermanent(err) {
			t.Stop(err)
			log.Error().Str("error", err.Error()).Int("attempt", n).Msg(what + " failed for good; not retrying")
			return err
		}
		wait := b.Wait(n)
		t.Down(err, n, t.now().Add(wait))
		log.Warn().Str("error", err.Error()).Int("attempt", n).Dur("retry_in", wait).Msg(what + " failed; retrying")
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-timer.C:
		}
	}
}
