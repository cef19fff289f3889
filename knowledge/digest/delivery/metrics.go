package delivery

import "sync"

// Metrics is told what the worker does, for /metrics. Labels are the
// platform and a short reason from a small set. Implementations must be
// safe for concurrent use.
type Metrics interface {
	// Delivered: a digest's last message was posted.
	Delivered(platform string)
	// Retried: a post failed and will be tried again; reason is
	// rate_limited, timeout or error.
	Retried(platform, reason string)
	// Dead: a delivery was given up; reason is the platform's code for a
	// channel that is gone (channel_not_found, 10003, ...), gave_up after
	// too many failures, or no_digest.
	Dead(platform, reason string)
	// InDoubt: a restart found a delivery that may have been in the middle
	// of a post; it is posted again. (Deliveries claimed behind it that
	// had not begun are posted again too, and not counted.)
	InDoubt(platform string)
	// DuplicatePossible: a post is repeated on a platform without an
	// idempotency key after an outcome that may have posted it, so the
	// channel may show that digest twice; reason is restart (a restart
	// found it in doubt), timeout or error (the post failed).
	DuplicatePossible(platform, reason string)
}

// NopMetrics records nothing.
type NopMetrics struct{}

// Delivered does nothing.
func (NopMetrics) Delivered(string) {}

// Retried does nothing.
func (NopMetrics) Retried(string, string) {}

// Dead does nothing.
func (NopMetrics) Dead(string, string) {}

// InDoubt does nothing.
func (NopMetrics) InDoubt(string) {}

// DuplicatePossible does nothing.
func (NopMetrics) DuplicatePossible(string, string) {}

// Counts is Metrics that counts in memory, for tests, `bot digest` and
// wiring checks. The zero value is ready; it is safe for concurrent use.
type Counts struct {
	mu sync.Mutex
	m  map[string]int // "delivered/slack", "retried/slack/rate_limited", ...
}

func (c *Counts) add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int{}
	}
	c.m[k]++
}

// Delivered counts "delivered/PLATFORM".
func (c *Counts) Delivered(p string) { c.add("delivered/" + p) }

// Retried counts "retried/PLATFORM/REASON".
func (c *Counts) Retried(p, r string) { c.add("retried/" + p + "/" + r) }

// Dead counts "dead/PLATFORM/REASON".
func (c *Counts) Dead(p, r string) { c.add("dead/" + p + "/" + r) }

// InDoubt counts "in_doubt/PLATFORM".
func (c *Counts) InDoubt(p string) { c.add("in_doubt/" + p) }

// DuplicatePossible counts "duplicate_possible/PLATFORM/REASON".
func (c *Counts) DuplicatePossible(p, r string) { c.add("duplicate_possible/" + p + "/" + r) }

// Snapshot returns a copy of the counts.
func (c *Counts) Snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.m))
	for k, v := range c.m {
		out[k] = v
	}
	return out
}

// Get returns one count.
func (c *Counts) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}
