package delivery

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// Limits are one platform's rate limits, as the worker keeps to them.
type Limits struct {
	// ChannelGap is the least time between the end of one post to a
	// channel and the start of the next: Slack's "one message per second
	// per channel". Zero means DefaultChannelGap.
	ChannelGap time.Duration
	// Workspace caps posts per second to one workspace (Slack's unpublished
	// workspace-wide limit); Platform caps posts per second to the whole
	// platform (Discord's 50 requests a second per bot). Zero is no cap.
	Workspace      rate.Limit
	WorkspaceBurst int
	Platform       rate.Limit
	PlatformBurst  int
}

// DefaultChannelGap is the gap between two posts to one channel: Slack's
// chat.postMessage "generally allows posting one message per second per
// channel" (https://docs.slack.dev/apis/web-api/rate-limits).
const DefaultChannelGap = time.Second

// DefaultLimits are the limits of the platforms kepbot posts to. Slack
// publishes no number for its workspace-wide limit; 10 a second stays
// well inside what it tolerates, and any 429 it sends is honoured.
// Discord's global limit is 50 requests a second per bot
// (https://discord.com/developers/docs/topics/rate-limits); 45 leaves room
// for the answers the adapter posts meanwhile.
func DefaultLimits() map[string]Limits {
	return map[string]Limits{
		"slack":   {ChannelGap: DefaultChannelGap, Workspace: 10, WorkspaceBurst: 10},
		"discord": {ChannelGap: DefaultChannelGap, Platform: 45, PlatformBurst: 45},
	}
}

// gate decides which delivery may be posted now: not to a channel with a
// post under way or one within its gap, not inside any Retry-After window,
// and only with a token from every limiter on its way. It is safe for
// concurrent use.
type gate struct {
	mu     sync.Mutex
	limits map[string]Limits
	global *rate.Limiter // nil: no global cap

	busy      map[string]bool          // channel key → a post is under way
	promised  map[string]int           // limiter key → tokens accepted deliveries will take
	owes      map[string]bool          // channel key → its accepted delivery has not taken its tokens
	held      map[string]time.Time     // channel, workspace or platform key → a Retry-After or a channel's gap ends
	notBefore map[string]time.Time     // limiter key → its next token, as a refusal found it
	limiters  map[string]*rate.Limiter // workspace and platform keys
	wake      map[string]time.Time     // platform → the soonest a refused delivery may go
	accepts   int                      // calls since the last prune
}

func newGate(limits map[string]Limits, global rate.Limit, globalBurst int) *gate {
	g := &gate{limits: limits, busy: map[string]bool{}, promised: map[string]int{}, owes: map[string]bool{}, wake: map[string]time.Time{}, held: map[string]time.Time{}, notBefore: map[string]time.Time{}, limiters: map[string]*rate.Limiter{}}
	if global > 0 {
		g.global = rate.NewLimiter(global, max(globalBurst, 1))
	}
	return g
}

// Keys of the scopes a delivery passes through.
func channelKey(ch digest.ChannelRef) string   { return "c/" + ch.ID() }
func workspaceKey(ch digest.ChannelRef) string { return "w/" + ch.Platform + "/" + ch.Workspace }
func platformKey(ch digest.ChannelRef) string  { return "p/" + ch.Platform }

const globalKey = "*"

// ready reports, without taking anything, whether a delivery to ch could
// be accepted at now: its channel is not busy and no scope on its way is
// held back.
func (g *gate) ready(ch digest.ChannelRef, now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy[channelKey(ch)] {
		return false
	}
	for _, k := range [...]string{channelKey(ch), workspaceKey(ch), platformKey(ch), globalKey} {
		if t, ok := g.until(k); ok && now.Before(t) {
			g.soonest(ch.Platform, t)
			return false
		}
	}
	return true
}

// accept reports whether d may be posted at now: its channel is not busy,
// nothing on its way is held back, and every limiter on its way has a
// token. If so, it marks the channel busy until done; take takes the
// tokens just before the post, so that they are spent as close as can be to
// the moment the platform counts the request.
func (g *gate) accept(d *digest.Delivery, now time.Time) bool {
	ch := d.Ref()
	ck := channelKey(ch)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.accepts++; g.accepts >= 4096 {
		g.prune(now)
	}
	if g.busy[ck] {
		return false
	}
	keys := [...]string{ck, workspaceKey(ch), platformKey(ch), globalKey}
	for _, k := range keys {
		if t, ok := g.until(k); ok && now.Before(t) {
			g.soonest(ch.Platform, t)
			return false
		}
	}
	lims := g.limitersOf(ch)
	for i, l := range lims {
		if l == nil {
			continue
		}
		if tokens := l.TokensAt(now) - float64(g.promised[keys[i+1]]); tokens < 1 {
			at := now.Add(time.Duration((1 - tokens) / float64(l.Limit()) * float64(time.Second)))
			g.notBefore[keys[i+1]] = at
			g.soonest(ch.Platform, at)
			return false
		}
	}
	for i, l := range lims {
		if l != nil {
			g.promised[keys[i+1]]++
		}
	}
	g.busy[ck], g.owes[ck] = true, true
	return true
}

// unpromise ends what accept promised the delivery to ch, if it is still
// owed: take is taking the tokens, or the post will not happen. The caller
// holds g.mu.
func (g *gate) unpromise(ch digest.ChannelRef) {
	if !g.owes[channelKey(ch)] {
		return
	}
	delete(g.owes, channelKey(ch))
	for i, l := range g.limitersOf(ch) {
		if k := [...]string{workspaceKey(ch), platformKey(ch), globalKey}[i]; l != nil && g.promised[k] > 0 {
			g.promised[k]--
		}
	}
}

// limitersOf returns the workspace, platform and global limiters on the
// way to ch; nil where there is no limit. The caller holds g.mu.
func (g *gate) limitersOf(ch digest.ChannelRef) [3]*rate.Limiter {
	lim := g.limits[ch.Platform]
	return [3]*rate.Limiter{
		g.limiter(workspaceKey(ch), lim.Workspace, lim.WorkspaceBurst),
		g.limiter(platformKey(ch), lim.Platform, lim.PlatformBurst),
		g.global,
	}
}

// take takes a token from every limiter on the way to d's channel, waiting
// when posts elsewhere took them since accept. It fails with heldError when
// a Retry-After for the workspace or platform arrived since accept, and
// with ctx's error when ctx ends first, giving the tokens back.
func (g *gate) take(ctx context.Context, d *digest.Delivery, now func() time.Time) error {
	g.mu.Lock()
	t := now()
	ch := d.Ref()
	g.unpromise(ch)
	for _, k := range [...]string{workspaceKey(ch), platformKey(ch), globalKey} {
		if until, ok := g.held[k]; ok && t.Before(until) {
			g.mu.Unlock()
			return heldError{until} // a Retry-After arrived since accept
		}
	}
	var taken []*rate.Reservation
	var wait time.Duration
	for _, l := range g.limitersOf(d.Ref()) {
		if l == nil {
			continue
		}
		r := l.ReserveN(t, 1)
		taken = append(taken, r)
		wait = max(wait, r.DelayFrom(t))
	}
	g.mu.Unlock()
	if wait <= 0 {
		return nil
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		for _, r := range taken {
			r.CancelAt(now())
		}
		return ctx.Err()
	}
}

// done ends the post to d's channel at now: the next may start a gap later.
func (g *gate) done(d *digest.Delivery, now time.Time) {
	ch := d.Ref()
	gap := g.limits[ch.Platform].ChannelGap
	if gap <= 0 {
		gap = DefaultChannelGap
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.unpromise(ch)
	delete(g.busy, channelKey(ch))
	g.hold(channelKey(ch), now.Add(gap))
	g.soonest(ch.Platform, now.Add(gap))
}

// release frees d's channel without a post having started.
func (g *gate) release(d *digest.Delivery) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.unpromise(d.Ref())
	delete(g.busy, channelKey(d.Ref()))
}

// block holds back scope of d's channel until until: a Retry-After.
func (g *gate) block(d *digest.Delivery, scope Scope, until time.Time) {
	ch := d.Ref()
	k := channelKey(ch)
	switch scope {
	case ScopeWorkspace:
		k = workspaceKey(ch)
	case ScopePlatform:
		k = platformKey(ch)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hold(k, until)
}

func (g *gate) hold(k string, until time.Time) {
	if t, ok := g.held[k]; !ok || t.Before(until) {
		g.held[k] = until
	}
}

// until returns the later of k's hold and its limiter's next token.
func (g *gate) until(k string) (time.Time, bool) {
	h, ok1 := g.held[k]
	n, ok2 := g.notBefore[k]
	if n.After(h) {
		h = n
	}
	return h, ok1 || ok2
}

// nextWake returns the soonest a delivery to platform refused since the
// last call may go, or the zero time, and forgets it.
func (g *gate) nextWake(platform string) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	t := g.wake[platform]
	delete(g.wake, platform)
	return t
}

func (g *gate) soonest(platform string, t time.Time) {
	if w, ok := g.wake[platform]; !ok || t.Before(w) {
		g.wake[platform] = t
	}
}

func (g *gate) limiter(key string, r rate.Limit, burst int) *rate.Limiter {
	if r <= 0 {
		return nil
	}
	l, ok := g.limiters[key]
	if !ok {
		l = rate.NewLimiter(r, max(burst, 1))
		g.limiters[key] = l
	}
	return l
}

// prune forgets holds that have passed, so the maps stay as small as the
// channels recently posted to.
func (g *gate) prune(now time.Time) {
	g.accepts = 0
	for _, m := range []map[string]time.Time{g.held, g.notBefore} {
		for k, t := range m {
			if !now.Before(t) {
				delete(m, k)
			}
		}
	}
}

// heldError says a scope on the way is held back until until.
type heldError struct{ until time.Time }

func (e heldError) Error() string { return "held back by a Retry-After until " + e.until.String() }
