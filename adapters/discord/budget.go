package discord

import (
	"sync"
	"time"
)

// Discord bans an IP for a while after 10,000 invalid requests (401, 403,
// 429) in 10 minutes:
// https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans
// kepbot stops posting long before: at InvalidLimit in InvalidWindow.
const (
	InvalidWindow = 10 * time.Minute
	InvalidLimit  = 1000 // a tenth of Discord's ban threshold
	refuseFor     = time.Hour
	maxRefused    = 10000
)

// invalidCounter counts invalid requests over the last InvalidWindow, in
// one-minute slots. It is safe for concurrent use.
type invalidCounter struct {
	mu    sync.Mutex
	slots [10]struct {
		minute int64
		n      int
	}
}

func (c *invalidCounter) add(now time.Time) {
	m := now.Unix() / 60
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.slots[m%int64(len(c.slots))]
	if s.minute != m {
		s.minute, s.n = m, 0
	}
	s.n++
}

// count returns the invalid requests of the last ten minutes (the current
// minute and the nine before it).
func (c *invalidCounter) count(now time.Time) int {
	m := now.Unix() / 60
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, s := range c.slots {
		if s.minute > m-int64(len(c.slots)) && s.minute <= m {
			n += s.n
		}
	}
	return n
}

// refusedChannels remembers channels where Discord refused to post
// (missing access or permissions, unknown channel) so that kepbot does not
// try again, and spend invalid requests, for refuseFor. It is safe for
// concurrent use.
type refusedChannels struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// add marks channel as refused from now.
func (r *refusedChannels) add(channel string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.until == nil {
		r.until = map[string]time.Time{}
	}
	if len(r.until) >= maxRefused {
		for ch, t := range r.until {
			if !now.Before(t) {
				delete(r.until, ch)
			}
		}
	}
	if len(r.until) < maxRefused {
		r.until[channel] = now.Add(refuseFor)
	}
}

// has reports whether channel is refused at now.
func (r *refusedChannels) has(channel string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.until[channel]
	if ok && !now.Before(t) {
		delete(r.until, channel)
		return false
	}
	return ok
}
