package upstreamtest

import (
	"net"
	"net/http"
	"strconv"
	"time"
)

// FaultAll makes every path answer with h until cleared (nil), whatever
// Fault says of it: an upstream that fails as a whole.
func (u *Upstream) FaultAll(h http.HandlerFunc) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.all = h
}

// Total is how many requests u has answered, of every path.
func (u *Upstream) Total() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.total
}

// Status answers every request with code.
func Status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, http.StatusText(code), code)
	}
}

// TooManyRequests answers 429 with Retry-After: retryAfter (seconds or an
// HTTP date, as sent).
func TooManyRequests(retryAfter string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", retryAfter)
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
	}
}

// RateLimited answers as GitHub does when the rate limit is spent: 403
// with X-RateLimit-Remaining: 0 and X-RateLimit-Reset at reset.
func RateLimited(reset time.Time) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "60")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		http.Error(w, `{"message":"API rate limit exceeded"}`, http.StatusForbidden)
	}
}

// Reset drops the connection without an answer, with a TCP reset (RST)
// where the connection allows it.
func Reset() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0) // close sends RST, not FIN
		}
		conn.Close()
	}
}

// Hang answers nothing until the client gives up.
func Hang() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
}
