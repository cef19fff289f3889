package discord

import (
	"cmp"
	"slices"
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
	slots [10]slot
}

// slot counts the invalid requests of one minute (Unix time / 60).
type slot struct {
	minute int64
	n      int
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

// freeIn returns how long until fewer than limit invalid requests remain
// in the window: 0 when fewer already do. Slots leave the window a whole
// minute at a time, oldest first.
func (c *invalidCounter) freeIn(now time.Time, limit int) time.Duration {
	m := now.Unix() / 60
	c.mu.Lock()
	live := make([]slot, 0, len(c.slots))
	n := 0
	for _, s := range c.slots {
		if s.minute > m-int64(len(c.slots)) && s.minute <= m && s.n > 0 {
			live = append(live, s)
			n += s.n
		}
	}
	c.mu.Unlock()
	slices.SortFunc(live, func(a, b slot) int { return cmp.Compare(a.minute, b.minute) })
	for _, s := range live {
		if n < limit {
			break
		}
		n -= s.n
		if n < limit {
			// The slot of minute s.minute leaves the window when minute
			// s.minute+len(slots) begins.
			return max(time.Unix((s.minute+int64(len(c.slots)))*60, 0).Sub(now), time.Second)
		}
	}
	return 0
}

// refusedChannels remembers channels where Discord refused to post
// (missing access or permissions, unknown channel or guild) and the code
// it gave, so that kepbot does not try again, and spend invalid requests,
// for refuseFor. It is safe for concurrent use.
type refusedChannels struct {
	mu    sync.Mutex
	until map[string]refusal
}

// refusal is one refused channel: until when, and Discord's code.
type refusal struct {
	until time.Time
	code  int
}

// add marks channel as refused with Discord's code from now.
func (r *refusedChannels) add(channel string, code int, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.until == nil {
		r.until = map[string]refusal{}
	}
	if len(r.until) >= maxRefused {
		for ch, f := range r.until {
			if !now.Before(f.until) {
				delete(r.until, ch)
			}
		}
	}
	if len(r.until) < maxRefused {
		r.until[channel] = refusal{until: now.Add(refuseFor), code: code}
	}
}

// has reports whether channel is refused at now.
func (r *refusedChannels) has(channel string, now time.Time) bool {
	_, ok := r.lookup(channel, now)
	return ok
}

// lookup returns the code Discord gave when it refused channel, and
// whether the refusal still holds at now.
func (r *refusedChannels) lookup(channel string, now time.Time) (code int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.until[channel]
	if ok && !now.Before(f.until) {
		delete(r.until, channel)
		return 0, false
	}
	return f.code, ok
}
