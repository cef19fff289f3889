package delivery

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// Config tunes a Worker. Only Posters is required.
type Config struct {
	// Posters post to each platform, by name ("slack", "discord"): the
	// adapters. Deliveries to other platforms wait.
	Posters map[string]Poster
	// Limits are each platform's rate limits; missing ones are
	// DefaultLimits' or, for a platform it does not know, one post a
	// second per channel.
	Limits map[string]Limits
	// Global caps posts per second over every platform; zero is no cap.
	Global      rate.Limit
	GlobalBurst int
	// Workers is how many posts may be under way at once per platform
	// whose Poster is Idempotent (default 4).
	Workers int
	// UnsafeInFlight is how many posts may be under way at once per
	// platform whose Poster is not Idempotent (default 1): a crash can
	// leave at most this many in doubt, and duplicate at most this many
	// messages.
	UnsafeInFlight int
	// ClaimBatch is how many deliveries a platform that posts one at a
	// time claims in one transaction (default 4), saving disk syncs. They
	// are posted in turn, each outcome recorded before the next post
	// begins, and the outbox records their order: a crash leaves the one
	// being posted in doubt, and the others are known not to have begun.
	ClaimBatch int
	// BackoffBase and BackoffMax shape the wait after a failure that is
	// neither a rate limit nor terminal: BackoffBase doubled per failure in
	// a row, capped at BackoffMax, half of it random (defaults 1s, 5m).
	BackoffBase, BackoffMax time.Duration
	// DefaultRetryAfter is the wait after a rate limit that names none
	// (default 1s).
	DefaultRetryAfter time.Duration
	// MaxFailures gives a delivery up after this many failures in a row,
	// rate limits not counted (default 20).
	MaxFailures int
	// PostTimeout bounds one post (default 30s).
	PostTimeout time.Duration
	// StopGrace is how long a post under way when Run's context ends may
	// still take before it is cut short (default 3s, within serve's
	// shutdown timeout): a stop lets it finish and records it, where a cut
	// leaves it in doubt and a Slack channel may see it twice.
	StopGrace time.Duration
	// Poll is the longest the worker sleeps without looking for due
	// deliveries (default 1s); Notify wakes it sooner.
	Poll    time.Duration
	Now     func() time.Time // default time.Now
	Rand    func() float64   // jitter in [0, 1); default math/rand/v2
	Metrics Metrics          // default NopMetrics
	Log     zerolog.Logger
}

func (c *Config) defaults() {
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.UnsafeInFlight <= 0 {
		c.UnsafeInFlight = 1
	}
	if c.ClaimBatch <= 0 {
		c.ClaimBatch = 4
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = time.Second
	}
	if c.BackoffMax <= 0 {
		c.BackoffMax = 5 * time.Minute
	}
	if c.DefaultRetryAfter <= 0 {
		c.DefaultRetryAfter = time.Second
	}
	if c.MaxFailures <= 0 {
		c.MaxFailures = 20
	}
	if c.PostTimeout <= 0 {
		c.PostTimeout = 30 * time.Second
	}
	if c.StopGrace <= 0 {
		c.StopGrace = 3 * time.Second
	}
	if c.Poll <= 0 {
		c.Poll = time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Rand == nil {
		c.Rand = rand.Float64
	}
	if c.Metrics == nil {
		c.Metrics = NopMetrics{}
	}
	limits := DefaultLimits()
	for p, l := range c.Limits {
		limits[p] = l
	}
	for p := range c.Posters {
		l := limits[p]
		if l.ChannelGap <= 0 {
			l.ChannelGap = DefaultChannelGap
		}
		limits[p] = l
	}
	c.Limits = limits
}

// Worker posts the outbox's due deliveries through the Posters.
type Worker struct {
	cfg     Config
	outbox  digest.Outbox
	gate    *gate
	wake    chan struct{}
	digests sync.Map // Digest.ID → *digest.Digest; digests never change
}

// New returns a Worker posting outbox's deliveries. It fails when no
// Poster is given.
func New(outbox digest.Outbox, cfg Config) (*Worker, error) {
	if len(cfg.Posters) == 0 {
		return nil, errors.New("delivery: no poster: give one per platform that has subscriptions")
	}
	cfg.defaults()
	return &Worker{cfg: cfg, outbox: outbox, gate: newGate(cfg.Limits, cfg.Global, cfg.GlobalBurst), wake: make(chan struct{}, 1)}, nil
}

// Notify wakes the worker: a trigger has queued deliveries.
func (w *Worker) Notify() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run first resends what a crash left in the middle of a post (in
// doubt) and what it left claimed but not begun, then posts due deliveries
// until ctx is done. A post under way when ctx ends stays sending, for the
// next Run to resolve. It fails only when the deliveries left sending
// cannot be read back.
func (w *Worker) Run(ctx context.Context) error {
	back, err := w.outbox.Recover(ctx, w.cfg.Now())
	if err != nil {
		return fmt.Errorf("delivery: %w", err)
	}
	for _, d := range back.InDoubt {
		w.cfg.Metrics.InDoubt(d.Platform)
		ev := w.cfg.Log.Warn().Str("delivery", d.Key).Str("platform", d.Platform).Int("in_doubt", d.InDoubt)
		if !w.idempotent(d.Platform) {
			w.cfg.Metrics.DuplicatePossible(d.Platform, "restart")
			ev.Msg("delivery in doubt after a restart: posting it again; the channel may see it twice")
		} else {
			ev.Msg("delivery in doubt after a restart: posting it again with the same nonce")
		}
	}
	for _, d := range back.NotBegun {
		w.cfg.Log.Info().Str("delivery", d.Key).Str("platform", d.Platform).
			Msg("delivery claimed but not begun before a restart: posting it")
	}
	platforms := make([]string, 0, len(w.cfg.Posters))
	for p := range w.cfg.Posters {
		platforms = append(platforms, p)
	}
	sort.Strings(platforms)
	var wg sync.WaitGroup
	lanes := make([]*lane, len(platforms))
	for i, p := range platforms {
		slots := w.cfg.Workers
		if !w.idempotent(p) {
			slots = w.cfg.UnsafeInFlight
		}
		lanes[i] = &lane{w: w, platform: p, poster: w.cfg.Posters[p], slots: make(chan struct{}, slots), wake: make(chan struct{}, 1),
			serial: slots == 1}
		wg.Go(func() { lanes[i].run(ctx) })
	}
	go func() { // fan Notify out to every lane
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.wake:
				for _, l := range lanes {
					l.poke()
				}
			}
		}
	}()
	wg.Wait()
	return nil
}

func (w *Worker) idempotent(platform string) bool {
	i, ok := w.cfg.Posters[platform].(Idempotent)
	return ok && i.Idempotent()
}

// digest returns the digest id, from memory after the first read.
func (w *Worker) digest(ctx context.Context, id string) (*digest.Digest, error) {
	if d, ok := w.digests.Load(id); ok {
		return d.(*digest.Digest), nil
	}
	d, err := w.outbox.FindDigest(ctx, id)
	if err != nil {
		return nil, err
	}
	w.digests.Store(id, d)
	return d, nil
}

// backoff is the wait after the nth failure in a row: base doubled, capped,
// the upper half random.
func (w *Worker) backoff(n int) time.Duration {
	d := w.cfg.BackoffBase
	for i := 1; i < n && d < w.cfg.BackoffMax; i++ {
		d *= 2
	}
	d = min(d, w.cfg.BackoffMax)
	return d/2 + time.Duration(w.cfg.Rand()*float64(d/2))
}

// lane claims and posts one platform's deliveries, as many at once as it
// has slots.
type lane struct {
	w        *Worker
	platform string
	poster   Poster
	slots    chan struct{}
	serial   bool // one post at a time: runSerial
	wake     chan struct{}

	mu   sync.Mutex
	hint time.Time // the soonest a delivery this lane put back falls due
}

func (l *lane) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// due notes that a delivery falls due at t.
func (l *lane) due(t time.Time) {
	l.mu.Lock()
	if l.hint.IsZero() || t.Before(l.hint) {
		l.hint = t
	}
	l.mu.Unlock()
	l.poke()
}

func (l *lane) run(ctx context.Context) {
	if l.serial {
		l.runSerial(ctx)
		return
	}
	var posts sync.WaitGroup
	defer posts.Wait()
	for {
		select {
		case l.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		n := 1 // slots held; take every free one, to claim that many in one transaction
		for n < cap(l.slots) {
			select {
			case l.slots <- struct{}{}:
				n++
				continue
			default:
			}
			break
		}
		now := l.w.cfg.Now()
		ds := l.claim(ctx, now, n, false)
		for range n - len(ds) {
			<-l.slots
		}
		for i := range ds {
			posts.Go(func() {
				defer func() { <-l.slots }()
				l.post(ctx, &ds[i])
			})
		}
		if len(ds) == 0 {
			l.sleep(ctx, now)
		}
	}
}

// runSerial is run for a platform that may show a repeated post twice and
// allows one post under way: it claims up to ClaimBatch deliveries in one
// transaction, in turn, and posts them one after the other, none before
// the outcome of the one before is recorded. A crash leaves at most one
// of them in doubt (Recover tells it from those not begun), so it can
// duplicate at most one message.
func (l *lane) runSerial(ctx context.Context) {
	for ctx.Err() == nil {
		now := l.w.cfg.Now()
		ds := l.claim(ctx, now, l.w.cfg.ClaimBatch, true)
		for i := range ds {
			if !l.post(ctx, &ds[i]) {
				// Stopping with ds[i] still sending: the rest must not
				// begin. They stay sending, found not begun at the next
				// start.
				for j := i + 1; j < len(ds); j++ {
					l.w.gate.release(&ds[j])
				}
				break
			}
		}
		if len(ds) == 0 {
			l.sleep(ctx, now)
		}
	}
}

// claim claims up to n due deliveries the gate lets go now, in turn (to be
// posted one after another) or not.
func (l *lane) claim(ctx context.Context, now time.Time, n int, inTurn bool) []digest.Delivery {
	var accepted []digest.Delivery
	ds, err := l.w.outbox.ClaimDue(ctx, l.platform, now, n, digest.ClaimFilter{
		InTurn: inTurn,
		Ready:  func(ch digest.ChannelRef) bool { return l.w.gate.ready(ch, now) },
		Accept: func(d *digest.Delivery) bool {
			ok := l.w.gate.accept(d, now)
			if ok {
				accepted = append(accepted, *d)
			}
			return ok
		},
	})
	if err != nil {
		for i := range accepted { // the claim was not written: nothing is under way
			l.w.gate.release(&accepted[i])
		}
		if ctx.Err() == nil {
			l.w.cfg.Log.Error().Err(err).Str("platform", l.platform).Msg("claiming due deliveries failed")
		}
	}
	return ds
}

// sleep waits for a Notify, for the soonest time a refused or put-back
// delivery may go, or for Poll, whichever comes first.
func (l *lane) sleep(ctx context.Context, now time.Time) {
	wait := l.w.cfg.Poll
	l.mu.Lock()
	hint := l.hint
	if !hint.IsZero() && !hint.After(now) {
		l.hint = time.Time{}
	}
	l.mu.Unlock()
	for _, t := range []time.Time{l.w.gate.nextWake(l.platform), hint} {
		if !t.IsZero() {
			wait = min(wait, max(t.Sub(now), 0))
		}
	}
	if wait <= 0 {
		return
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-l.wake:
	case <-timer.C:
	}
}
