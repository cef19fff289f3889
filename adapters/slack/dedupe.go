package slack

import (
	"sync"
	"time"
)

// Slack retries an Events API delivery it thinks failed (right away, after
// about a minute, after about five) with the same event_id, and may
// redeliver a Socket Mode envelope after a reconnect. The adapter answers
// each event once by remembering the ids it has seen for dedupeTTL.
const (
	dedupeTTL = 15 * time.Minute
	dedupeMax = 100_000 // ids remembered at most; the oldest go first
)

// dedupe remembers keys for a while. It is safe for concurrent use and
// bounded in memory.
type dedupe struct {
	mu    sync.Mutex
	ttl   time.Duration
	max   int
	seen  map[string]time.Time
	order []dedupeEntry // insertion order, oldest first from head
	head  int
}

type dedupeEntry struct {
	key string
	at  time.Time
}

func newDedupe(ttl time.Duration, max int) *dedupe {
	return &dedupe{ttl: ttl, max: max, seen: map[string]time.Time{}}
}

// first reports whether key is new (and remembers it), false when it was
// seen within the TTL. An empty key is always new: there is nothing to
// recognise it by.
func (d *dedupe) first(key string, now time.Time) bool {
	if key == "" {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.expire(now)
	if at, ok := d.seen[key]; ok && now.Sub(at) < d.ttl {
		return false
	}
	d.seen[key] = now
	d.order = append(d.order, dedupeEntry{key, now})
	return true
}

// expire forgets what is older than the TTL, and the oldest past max.
func (d *dedupe) expire(now time.Time) {
	for d.head < len(d.order) {
		e := d.order[d.head]
		if now.Sub(e.at) < d.ttl && len(d.order)-d.head < d.max {
			break
		}
		if at, ok := d.seen[e.key]; ok && at.Equal(e.at) {
			delete(d.seen, e.key)
		}
		d.order[d.head] = dedupeEntry{}
		d.head++
	}
	if d.head > 1024 && d.head > len(d.order)/2 { // compact the queue
		n := copy(d.order, d.order[d.head:])
		d.order = d.order[:n]
		d.head = 0
	}
}

// len returns how many keys are remembered.
func (d *dedupe) len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.seen)
}
