package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/store"
)

// digests is what serve runs for channel subscriptions: the subscription
// answers the engine gives, the outbox worker that posts digests, and the
// weekly and daily schedule.
//
// It is built in two steps because the pieces need each other: the engine
// needs the subscription service, the adapters need the engine, the
// worker needs the adapters' posters, and the service tells the trigger
// (which tells the worker) when a channel subscribes. newDigests makes the
// service; attach adds the trigger and the worker's settings once the
// posters exist. Nothing runs before start (one process) or run (a
// leader's term, over its fenced store).
type digests struct {
	shared store.Shared
	kb     digest.NoticeSource // the local knowledge the digests are built from
	logger zerolog.Logger
	subs   *digest.Subscriptions

	trig    *delivery.Trigger
	sched   *delivery.Scheduler // for NextRun; runs only in start
	wcfg    delivery.Config     // the worker's settings, posters included
	digests config.Digests

	mu     sync.Mutex
	worker *delivery.Worker // the running one, told of new deliveries
}

// newDigests makes the subscription service over shared, building digests
// from the local knowledge kb. Call it only when some platform can post (a
// Slack or Discord bot token is set): without one, subscriptions stay
// unavailable, since nothing could deliver them.
func newDigests(shared store.Shared, kb digest.NoticeSource, logger zerolog.Logger) *digests {
	d := &digests{shared: shared, kb: kb, logger: logger}
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

// engineOptions gives the engine the subscription answers; none for a nil d.
func (d *digests) engineOptions() []engine.Option {
	if d == nil {
		return nil
	}
	return []engine.Option{engine.WithSubscriptions(d.subs)}
}

// attach sets up the worker's settings over the platforms' posters, the
// trigger and the schedule from cfg.
func (d *digests) attach(posters map[string]delivery.Poster, cfg config.Digests, m *metrics.Metrics) error {
	if len(posters) == 0 {
		return errors.New("digests: no platform can post")
	}
	var dm delivery.Metrics = delivery.NopMetrics{}
	if m != nil {
		dm = m.Delivery()
	}
	limits := delivery.DefaultLimits()
	if l, ok := limits["slack"]; ok {
		l.Workspace = rate.Limit(cfg.SlackWorkspaceRate)
		limits["slack"] = l
	}
	d.wcfg = delivery.Config{
		Posters: posters,
		Limits:  limits,
		Metrics: dm,
		Log:     d.logger.With().Str("component", "delivery").Logger(),
	}
	if cfg.GlobalRate > 0 {
		d.wcfg.Global, d.wcfg.GlobalBurst = rate.Limit(cfg.GlobalRate), max(1, int(cfg.GlobalRate))
	}
	d.digests = cfg
	d.trig = delivery.NewTrigger(delivery.TriggerConfig{Knowledge: d.kb, Subscriptions: d.shared, Ledger: d.shared, Outbox: d.shared, Notify: d.notify})
	sched, err := d.scheduler(d.shared)
	if err != nil {
		return err
	}
	d.sched = sched
	return nil
}

func (d *digests) scheduler(state delivery.RunState) (*delivery.Scheduler, error) {
	return delivery.NewScheduler(delivery.SchedulerConfig{
		Trigger: d.trig, State: state,
		Weekday: d.digests.Weekday(), WeeklyAt: d.digests.WeeklyAt(), DailyAt: d.digests.DailyAt(),
		Log: d.logger.With().Str("component", "digest_schedule").Logger(),
	})
}

// notify wakes the running worker, if this process runs one.
func (d *digests) notify() {
	d.mu.Lock()
	w := d.worker
	d.mu.Unlock()
	if w != nil {
		w.Notify()
	}
}

// start runs the worker and the schedule over the shared store until ctx
// ends (one process); the returned function waits for both, so the
// database is closed only after them. A post under way at the stop stays
// "sending" and is resolved at the next start.
func (d *digests) start(ctx context.Context) (wait func()) {
	if d == nil || d.trig == nil {
		return func() {}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := d.run(ctx, d.shared, nil); err != nil && ctx.Err() == nil {
			d.logger.Error().Err(err).Msg("digests stopped")
		}
	})
	return wg.Wait
}

// run runs a worker over out, with each poster wrapped by wrap (nil keeps
// them), and a schedule over out's run state, until ctx ends; then it
// waits for both. The leader calls it once a term, with its fenced store
// and lease-guarded posters; the worker first recovers what an earlier
// process or leader left in doubt.
func (d *digests) run(ctx context.Context, out store.Shared, wrap func(platform string, p delivery.Poster) delivery.Poster) error {
	cfg := d.wcfg
	if wrap != nil {
		cfg.Posters = make(map[string]delivery.Poster, len(d.wcfg.Posters))
		for name, p := range d.wcfg.Posters {
			cfg.Posters[name] = wrap(name, p)
		}
	}
	worker, err := delivery.New(out, cfg)
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
