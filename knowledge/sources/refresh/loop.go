package refresh

import (
	"context"
	"time"
)

// MinInterval is the shortest refresh interval serve accepts: tests use a
// second; the default is an hour.
const MinInterval = time.Second

// Loop runs a pass now and then every interval (spread by up to a tenth
// either way), earlier when a source that failed may be asked again
// sooner, until ctx ends. It calls done with each pass's report, or with
// the error of a pass that could not read or write the store. Passes that
// overlap with Run calls from elsewhere (an operator's `bot sync`) wait
// for them.
func (r *Refresher) Loop(ctx context.Context, interval time.Duration, done func(*Report, error)) {
	interval = max(interval, MinInterval)
	wait := jitter(min(interval, 30*time.Second)) // a first look soon after start
	for {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		rep, err := r.Run(ctx, Options{})
		if ctx.Err() != nil {
			return
		}
		done(rep, err)
		wait = r.nextWait(ctx, interval)
	}
}

// nextWait is how long until the next pass: the interval, or less when a
// failed source may be asked again before it.
func (r *Refresher) nextWait(ctx context.Context, interval time.Duration) time.Duration {
	wait := jitter(interval)
	states, err := r.cfg.Store.SourceStates(ctx)
	if err != nil {
		return wait
	}
	now := r.cfg.Now()
	for _, st := range states {
		if st.Failures > 0 && !st.RetryAt.IsZero() {
			if d := st.RetryAt.Sub(now); d < wait {
				wait = max(d, MinInterval)
			}
		}
	}
	return wait
}
