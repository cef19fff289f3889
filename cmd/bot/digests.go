package main

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/kepbot/kepbot/internal/config"
	"github.com/kepbot/kepbot/internal/delivery"
	"github.com/kepbot/kepbot/internal/metrics"
	"github.com/kepbot/kepbot/knowledge"
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
// service; attach adds the worker, trigger and schedule once the posters
// exist. Nothing runs before start.
type digests struct {
	db     *store.DB
	logger zerolog.Logger
	subs   *knowledge.Subscriptions

	trig   *delivery.Trigger
	worker *delivery.Worker
	sched  *delivery.Scheduler
}

// newDigests makes the subscription service over db. Call it only when
// some platform can post (a Slack or Discord bot token is set): without
// one, subscriptions stay unavailable, since nothing could deliver them.
func newDigests(db *store.DB, logger zerolog.Logger) *digests {
	d := &digests{db: db, logger: logger}
	subs := db.Subscriptions()
	d.subs = knowledge.NewSubscriptions(knowledge.SubscriptionConfig{
		Store: subs, Ledger: subs, Knowledge: db.Knowledge(),
		// The adapter asked the platform (Slack users.info, Discord
		// permissions) and put the answer in the question's origin.
		CanManage: func(_ context.Context, o knowledge.Origin) (bool, error) { return o.CanManage, nil },
		Subscribed: func(ctx context.Context, s knowledge.Subscription) {
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
func (d *digests) engineOptions() []knowledge.Option {
	if d == nil {
		return nil
	}
	return []knowledge.Option{knowledge.WithSubscriptions(d.subs)}
}

// attach builds the worker over the platforms' posters, the trigger and
// the schedule from cfg.
func (d *digests) attach(posters map[string]delivery.Poster, cfg config.Digests, m *metrics.Metrics) error {
	if len(posters) == 0 {
		return errors.New("digests: no platform can post")
	}
	out := d.db.Outbox()
	var dm delivery.Metrics = delivery.NopMetrics{}
	if m != nil {
		dm = m.Delivery()
	}
	limits := delivery.DefaultLimits()
	if l, ok := limits["slack"]; ok {
		l.Workspace = rate.Limit(cfg.SlackWorkspaceRate)
		limits["slack"] = l
	}
	dc := delivery.Config{
		Posters: posters,
		Limits:  limits,
		Metrics: dm,
		Log:     d.logger.With().Str("component", "delivery").Logger(),
	}
	if cfg.GlobalRate > 0 {
		dc.Global, dc.GlobalBurst = rate.Limit(cfg.GlobalRate), max(1, int(cfg.GlobalRate))
	}
	worker, err := delivery.New(out, dc)
	if err != nil {
		return err
	}
	subs := d.db.Subscriptions()
	trig := delivery.NewTrigger(delivery.TriggerConfig{Knowledge: d.db.Knowledge(), Subscriptions: subs, Ledger: subs, Outbox: out, Notify: worker.Notify})
	sched, err := delivery.NewScheduler(delivery.SchedulerConfig{
		Trigger: trig, State: out,
		Weekday: cfg.Weekday(), WeeklyAt: cfg.WeeklyAt(), DailyAt: cfg.DailyAt(),
		Log: d.logger.With().Str("component", "digest_schedule").Logger(),
	})
	if err != nil {
		return err
	}
	d.worker, d.trig, d.sched = worker, trig, sched
	return nil
}

// start runs the worker and the schedule until ctx ends; the returned
// function waits for both, so the database is closed only after them. A
// post under way at the stop stays "sending" and is resolved at the next
// start.
func (d *digests) start(ctx context.Context) (wait func()) {
	if d == nil || d.worker == nil {
		return func() {}
	}
	var wg sync.WaitGroup
	for name, run := range map[string]func(context.Context) error{"delivery": d.worker.Run, "digest_schedule": d.sched.Run} {
		wg.Go(func() {
			if err := run(ctx); err != nil && ctx.Err() == nil {
				d.logger.Error().Err(err).Str("component", name).Msg("stopped")
			}
		})
	}
	return wg.Wait
}
