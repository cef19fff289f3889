package platform

import (
	"sync"
	"time"
)

// State is where a platform's connection stands.
type State string

// The states of a connection.
const (
	Connecting State = "connecting" // the first attempt is under way
	Up         State = "up"         // connected, or nothing to connect (an HTTP endpoint)
	Down       State = "down"       // the last attempt failed; another follows after a wait
	Stopped    State = "stopped"    // refused for good (a revoked token): not tried again
)

// Status is one platform's state as /readyz shows it.
type Status struct {
	State State `json:"state"`
	// Error is why it is down or stopped: one line, no secret.
	Error string `json:"error,omitempty"`
	// Attempts is how many attempts in a row have failed.
	Attempts int `json:"attempts,omitempty"`
	// Since is when the state last changed; NextAttempt when a platform
	// that is down is tried again.
	Since       time.Time  `json:"since"`
	NextAttempt *time.Time `json:"next_attempt,omitempty"`
}

// Tracker holds one platform's Status; it is safe for concurrent use. The
// zero Tracker is not usable: make one with NewTracker.
type Tracker struct {
	mu  sync.Mutex
	s   Status
	now func() time.Time
}

// NewTracker returns a Tracker in state Connecting. now (nil: time.Now)
// stamps the changes.
func NewTracker(now func() time.Time) *Tracker {
	if now == nil {
		now = time.Now
	}
	return &Tracker{s: Status{State: Connecting, Since: now()}, now: now}
}

// Status returns the platform's status now.
func (t *Tracker) Status() Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.s
}

// Up says the platform is connected (or needs no connection).
func (t *Tracker) Up() { t.set(Status{State: Up}) }

// Connecting says an attempt is under way: after failures, the state stays
// Down (with the last error) until it succeeds or fails again.
func (t *Tracker) Connecting() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.s.State == Up || t.s.State == Stopped {
		t.s = Status{State: Connecting, Since: t.now()}
	}
}

// Down says the attempts-th attempt in a row failed with err, and that the
// next is at next (zero: the library retries when it will).
func (t *Tracker) Down(err error, attempts int, next time.Time) {
	s := Status{State: Down, Error: errText(err), Attempts: attempts}
	if !next.IsZero() {
		s.NextAttempt = &next
	}
	t.set(s)
}

// Stop says the platform refused for good, with err: it is not tried again.
func (t *Tracker) Stop(err error) { t.set(Status{State: Stopped, Error: errText(err)}) }

func (t *Tracker) set(s Status) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.State == t.s.State && s.State != Down {
		return // keep Since
	}
	s.Since = t.now()
	t.s = s
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
