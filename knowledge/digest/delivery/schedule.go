package delivery

import (
	"context"
	"errors"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge/digest"
)

// RunState keeps when each schedule last ran, so a restart neither repeats
// a run nor misses one: store.Outbox implements it.
type RunState interface {
	LastRun(ctx context.Context, name string) (time.Time, error)
	SetLastRun(ctx context.Context, name string, at time.Time) error
}

// SchedulerConfig tunes a Scheduler.
type SchedulerConfig struct {
	Trigger *Trigger
	State   RunState
	// Weekday and WeeklyAt set the weekly run (default Monday, 09:00 UTC:
	// WeeklyAt is the time after midnight UTC); DailyAt the daily one
	// (default 09:00 UTC).
	Weekday  time.Weekday
	WeeklyAt time.Duration
	DailyAt  time.Duration
	// Ran, when set, is told of every run, for logs and tests.
	Ran func(schedule string, at time.Time, r Report, err error)
	Now func() time.Time // default time.Now
	Log zerolog.Logger
}

// Scheduler runs the weekly and daily digests on time. Each run is
// recorded in State after it queued its digests; a run missed while kepbot
// was down is made up once at start, for the latest time it should have
// run, never once per missed time.
type Scheduler struct {
	cfg       SchedulerConfig
	schedules []schedule
}

type schedule struct {
	name   string
	period time.Duration
	latest func(now time.Time) time.Time // the latest run time at or before now
}

// NewScheduler returns a Scheduler over cfg. It fails without a Trigger
// or a State.
func NewScheduler(cfg SchedulerConfig) (*Scheduler, error) {
	if cfg.Trigger == nil || cfg.State == nil {
		return nil, errors.New("delivery: a scheduler needs a trigger and a state")
	}
	if cfg.WeeklyAt == 0 && cfg.Weekday == time.Sunday {
		cfg.Weekday, cfg.WeeklyAt = time.Monday, 9*time.Hour
	}
	if cfg.DailyAt == 0 {
		cfg.DailyAt = 9 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	week, day := 7*24*time.Hour, 24*time.Hour
	return &Scheduler{cfg: cfg, schedules: []schedule{
		{digest.ScheduleWeekly, week, func(now time.Time) time.Time { return latest(now, cfg.WeeklyAt, &cfg.Weekday) }},
		{digest.ScheduleDaily, day, func(now time.Time) time.Time { return latest(now, cfg.DailyAt, nil) }},
	}}, nil
}

// Next returns when the schedule name (weekly, daily) next runs after now;
// zero for a schedule it does not run.
func (s *Scheduler) Next(name string, now time.Time) time.Time {
	for _, sc := range s.schedules {
		if sc.name == name {
			return sc.latest(now).Add(sc.period)
		}
	}
	return time.Time{}
}

// latest returns the latest time at or before now that is at after
// midnight UTC, on weekday when one is given.
func latest(now time.Time, at time.Duration, weekday *time.Weekday) time.Time {
	now = now.UTC()
	t := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).Add(at)
	if t.After(now) {
		t = t.AddDate(0, 0, -1)
	}
	if weekday != nil {
		t = t.AddDate(0, 0, -((int(t.Weekday()) - int(*weekday) + 7) % 7))
	}
	return t
}

// Run queues the schedule:release digests owed for knowledge that arrived
// while kepbot was down, then runs each schedule when its time comes,
// until ctx is done. A failed run is retried at the next wake-up, at most a
// minute later.
func (s *Scheduler) Run(ctx context.Context) error {
	r, err := s.cfg.Trigger.OnKnowledgeChanged(ctx)
	s.ran(windowRelease, s.cfg.Now(), r, err)
	for {
		now := s.cfg.Now()
		next := now.Add(time.Minute)
		for _, sc := range s.schedules {
			due := sc.latest(now)
			if s.catchUp(ctx, sc, due) {
				next = minTime(next, due.Add(sc.period))
			}
		}
		timer := time.NewTimer(next.Sub(now))
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-timer.C:
		}
	}
}

// catchUp runs sc for due unless it ran for due or later. A schedule that
// never ran starts at due without running: nobody was owed a digest by a
// scheduler that never ran. It reports whether sc is up to date.
func (s *Scheduler) catchUp(ctx context.Context, sc schedule, due time.Time) bool {
	last, err := s.cfg.State.LastRun(ctx, sc.name)
	if err != nil {
		s.ran(sc.name, due, Report{}, err)
		return false
	}
	if !last.Before(due) {
		return true
	}
	if !last.IsZero() {
		r, err := s.cfg.Trigger.RunSchedule(ctx, sc.name, due)
		s.ran(sc.name, due, r, err)
		if err != nil {
			return false
		}
	}
	if err := s.cfg.State.SetLastRun(ctx, sc.name, due); err != nil {
		s.ran(sc.name, due, Report{}, err)
		return false
	}
	return true
}

func (s *Scheduler) ran(name string, at time.Time, r Report, err error) {
	if err != nil && ctxErr(err) {
		return
	}
	ev := s.cfg.Log.Info()
	if err != nil {
		ev = s.cfg.Log.Error().Err(err)
	}
	ev.Str("schedule", name).Time("at", at).Int("digests", r.Digests).Int("queued", r.Created).Msg("digest schedule ran")
	if s.cfg.Ran != nil {
		s.cfg.Ran(name, at, r, err)
	}
}

func ctxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
