package delivery

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// Store is the shared state the digest service keeps subscriptions, the
// ledger of notices sent, the outbox and the schedule's runs in.
type Store interface {
	digest.SubscriptionStore
	digest.NoticeLedger
	RunStore
}

// Settings are the digest settings of serve's config (digests:).
type Settings struct {
	Weekday            time.Weekday
	WeeklyAt, DailyAt  time.Duration
	GlobalRate         float64 // posts per second over every platform; 0 no cap
	SlackWorkspaceRate float64 // posts per second to one Slack workspace
}

// Service is what serve runs for channel subscriptions: the subscription
// answers the engine gives, the outbox worker that posts digests, and the
// weekly and daily schedule.
//
// It is built in two steps because the pieces need each other: the engine
// needs the subscription service, the adapters need the engine, the
// worker needs the adapters' posters, and the service tells the trigger
// (which tells the worker) when a channel subscribes. NewService makes the
// service; Attach adds the trigger and the worker's settings once the
// posters exist. Nothing runs before Start (one process) or Run (a
// leader's term, over its fenced store).
type Service struct {
	shared Store
	kb     digest.NoticeSource // the local knowledge the digests are built from
	logger zerolog.Logger
	subs   *digest.Subscriptions

	trig     *Trigger
	sched    *Scheduler // for NextRun; runs only in Start
	wcfg     Config     // the worker's settings, posters included
	settings Settings

	mu     sync.Mutex
	worker *Worker // the running one, told of new deliveries
}

// NewService makes the subscription service over shared, building digests
// from the local knowledge kb. Call it only when some platform can post (a
// Slack or Discord bot token is set): without one, subscriptions stay
// unavailable, since nothing could deliver them.
func NewService(shared Store, kb digest.NoticeSource, logger zerolog.Logger) *Service {
	d := &Service{shared: shared, kb: kb, logger: logger}
	d.subs = digest.NewSubscriptions(digest.SubscriptionConfig{
		Store: shared, Ledger: shared, Knowledge: kb,
		// The adapter asked the platform (Slack users.info, Discord
		// permissions) and put the answer in the question's origin.
		CanManage: func(_ context.Context, o knowledge.Origin) (bool, error) { return o.CanManage, nil },
		Subscribed: func(ctx context.Context, s digest.Subscription) {
			if d.trig == nil {
				return
			}
			if _, err := d.trig.OnSubscribed(ctx, s); err != nil {
				logger.Error().Err(err).Str("subscription", s.ID).Msg("queue the first digest")
			}
		},
		NextRun: func(schedule string) time.Time {
			if d.sched == nil {
				return time.Time{}
			}
			return d.sched.Next(schedule, time.Now())
		},
	})
	return d
}

// Subscriptions is the subscription service the engine answers with.
func (d *Service) Subscriptions() *digest.Subscriptions { return d.subs }

// Trigger is the trigger that queues digests; nil before Attach or for a
// nil d.
func (d *Service) Trigger() *Trigger {
	if d == nil {
		return nil
	}
	return d.trig
}

// WorkerConfig is the worker's settings, posters included, set by Attach.
func (d *Service) WorkerConfig() Config { return d.wcfg }

// Attach sets up the worker's settings over the platforms' posters, the
// trigger and the schedule from s; m nil records nothing.
func (d *Service) Attach(posters map[string]Poster, s Settings, m Metrics) error {
	if len(posters) == 0 {
		return errors.New("digests: no platform can post")
	}
	if m == nil {
		m = NopMetrics{}
	}
	limits := DefaultLimits()
	if l, ok := limits["slack"]; ok {
		l.Workspace = rate.Limit(s.SlackWorkspaceRate)
		limits["slack"] = l
	}
	d.wcfg = Config{
		Posters: posters,
		Limits:  limits,
		Metrics: m,
		Log:     d.logger.With().Str("component", "delivery").Logger(),
	}
	if s.GlobalRate > 0 {
		d.wcfg.Global, d.wcfg.GlobalBurst = rate.Limit(s.GlobalRate), max(1, int(s.GlobalRate))
	}
	d.settings = s
	d.trig = NewTrigger(TriggerConfig{Knowledge: d.kb, Subscriptions: d.shared, Ledger: d.shared, Outbox: d.shared, Notify: d.notify})
	sched, err := d.scheduler(d.shared)
	if err != nil {
		return err
	}
	d.sched = sched
	return nil
}

func (d *Service) scheduler(state RunState) (*Scheduler, error) {
	return NewScheduler(SchedulerConfig{
		Trigger: d.trig, State: state,
		Weekday: d.settings.Weekday, WeeklyAt: d.settings.WeeklyAt, DailyAt: d.settings.DailyAt,
		Log: d.logger.With().Str("component", "digest_schedule").Logger(),
	})
}

// notify wakes the running worker, if this process runs one.
func (d *Service) notify() {
	d.mu.Lock()
	w := d.worker
	d.mu.Unlock()
	if w != nil {
		w.Notify()
	}
}

// Start runs the worker and the schedule over the shared store until ctx
// ends (one process); the returned function waits for both, so the
// database is closed only after them. A post under way at the stop stays
// "sending" and is resolved at the next start. A nil d, or one not
// attached, runs nothing.
func (d *Service) Start(ctx context.Context) (wait func()) {
	if d == nil || d.trig == nil {
		return func() {}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := d.Run(ctx, d.shared, nil); err != nil && ctx.Err() == nil {
			d.logger.Error().Err(err).Msg("digests stopped")
		}
	})
	return wg.Wait
}

// RunStore is the store a worker and its schedule run over: the shared
// store, or a leader's fenced one.
type RunStore interface {
	digest.Outbox
	RunState
}

// Run runs a worker over out, with each poster wrapped by wrap (nil keeps
// them), and a schedule over out's run state, until ctx ends; then it
// waits for both. The leader calls it once a term, with its fenced store
// and lease-guarded posters; the worker first recovers what an earlier
// process or leader left in doubt.
func (d *Service) Run(ctx context.Context, out RunStore, wrap func(platform string, p Poster) Poster) error {
	cfg := d.wcfg
	if wrap != nil {
		cfg.Posters = make(map[string]Poster, len(d.wcfg.Posters))
		for name, p := range d.wcfg.Posters {
			cfg.Posters[name] = wrap(name, p)
		}
	}
	worker, err := New(out, cfg)
	if err != nil {
		return err
	}
	sched, err := d.scheduler(out)
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.worker = worker
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.worker = nil
		d.mu.Unlock()
	}()
	var wg sync.WaitGroup
	for name, run := range map[string]func(context.Context) error{"delivery": worker.Run, "digest_schedule": sched.Run} {
		wg.Go(func() {
			if err := run(ctx); err != nil && ctx.Err() == nil {
				d.logger.Error().Err(err).Str("component", name).Msg("stopped")
			}
		})
	}
	wg.Wait()
	return nil
}
