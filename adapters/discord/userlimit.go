package discord

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxTrackedUsers bounds the limiter's memory; past it, users whose bucket
// has filled up again are forgotten (they lose nothing by it).
const maxTrackedUsers = 50000

// limitedText is the one reply a person gets when they ask too fast.
const limitedText = "⏳ You are asking faster than I answer. Wait a few seconds and ask again; I will not reply to the questions in between."

// userLimiter is a token bucket per user, so that one person cannot flood
// a channel through kepbot. It is safe for concurrent use.
type userLimiter struct {
	mu    sync.Mutex
	every rate.Limit
	burst int
	full  time.Duration // time for an empty bucket to fill
	users map[string]*userState
}

type userState struct {
	lim    *rate.Limiter
	seen   time.Time
	warned bool // told once that they are limited, until allowed again
}

func newUserLimiter(perMinute, burst int) *userLimiter {
	if perMinute < 1 {
		perMinute = DefaultUserPerMinute
	}
	if burst < 1 {
		burst = DefaultUserBurst
	}
	return &userLimiter{
		every: rate.Limit(float64(perMinute) / 60),
		burst: burst,
		full:  time.Duration(float64(burst) / (float64(perMinute) / 60) * float64(time.Second)),
		users: map[string]*userState{},
	}
}

// allow reports whether user may ask at now. When not, warn is true the
// first time only, so that kepbot says so once and then stays quiet until
// the user may ask again.
func (u *userLimiter) allow(user string, now time.Time) (ok, warn bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := u.users[user]
	if st == nil {
		if len(u.users) >= maxTrackedUsers {
			u.forget(now)
		}
		st = &userState{lim: rate.NewLimiter(u.every, u.burst)}
		u.users[user] = st
	}
	st.seen = now
	if st.lim.AllowN(now, 1) {
		st.warned = false
		return true, false
	}
	warn = !st.warned
	st.warned = true
	return false, warn
}

// forget drops users idle long enough for their bucket to be full again.
func (u *userLimiter) forget(now time.Time) {
	for id, st := range u.users {
		if now.Sub(st.seen) > u.full {
			delete(u.users, id)
		}
	}
}
