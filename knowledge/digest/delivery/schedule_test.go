package delivery_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
	"github.com/kepbot/kepbot/store"
)

type runLog struct {
	mu   sync.Mutex
	runs []string
}

func (l *runLog) ran(name string, at time.Time, r delivery.Report, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case err != nil:
		l.runs = append(l.runs, fmt.Sprintf("%s failed: %v", name, err))
	case name != digest.ScheduleRelease:
		l.runs = append(l.runs, fmt.Sprintf("%s %s queued %d", name, at.Format("Mon Jan 2 15:04"), r.Created))
	}
}

func (l *runLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.runs
	l.runs = nil
	return out
}

// TestSchedulerRunsOnTimeAndCatchesUpOnce runs the scheduler on synctest's
// fake clock, which starts on Saturday 1 January 2000 at midnight UTC.
func TestSchedulerRunsOnTimeAndCatchesUpOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Knowledge().ReplaceKnowledge(ctx, fanoutKnowledge()); err != nil {
			t.Fatal(err)
		}
		for i, sched := range []string{digest.ScheduleWeekly, digest.ScheduleDaily} {
			_, err := db.Subscriptions().SaveSubscription(ctx, digest.Subscription{Platform: "slack", Workspace: "T1",
				Channel: fmt.Sprintf("C%d", i), CreatedBy: "U1", Filter: digest.Filter{Schedule: sched, Format: digest.FormatCompact}})
			if err != nil {
				t.Fatal(err)
			}
		}
		log := &runLog{}
		start := func() context.CancelFunc {
			s, err := delivery.NewScheduler(delivery.SchedulerConfig{Trigger: trigger(db, nil), State: db.Outbox(), Ran: log.ran})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(ctx)
			go s.Run(ctx)
			return cancel
		}
		stop := start()
		time.Sleep(58*time.Hour + time.Minute) // to Monday 3 January, 10:01
		synctest.Wait()
		want := []string{
			// Started Saturday 00:00: the first Monday and 09:00 are ahead; nothing is owed yet.
			"daily Sat Jan 1 09:00 queued 1", // the daily channel's first digest: everything known
			"daily Sun Jan 2 09:00 queued 0", // nothing new since
			"weekly Mon Jan 3 09:00 queued 1",
			"daily Mon Jan 3 09:00 queued 0",
		}
		if got := log.take(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("first days:\n got %q\nwant %q", got, want)
		}

		stop() // down for three weeks and a day
		time.Sleep(22 * 24 * time.Hour)
		extra := knowledge.Notice{Kind: knowledge.NoticeRemoval, Release: knowledge.MustVersion("1.42"), Title: "Widget v1alpha1", Source: "guide"}
		if err := db.Knowledge().ReplaceKnowledge(ctx, fanoutKnowledge(extra)); err != nil {
			t.Fatal(err)
		}
		stop = start()
		synctest.Wait()
		want = []string{"weekly Mon Jan 24 09:00 queued 1", "daily Tue Jan 25 09:00 queued 1"}
		if got := log.take(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after the downtime, once each:\n got %q\nwant %q", got, want)
		}
		for _, name := range []string{digest.ScheduleWeekly, digest.ScheduleDaily} {
			last, _ := db.Outbox().LastRun(ctx, name)
			t.Logf("%s last ran for %s", name, last.Format(time.RFC3339))
		}
		stop()
		synctest.Wait()
	})
}

func TestSchedulerNeedsTriggerAndState(t *testing.T) {
	if _, err := delivery.NewScheduler(delivery.SchedulerConfig{}); err == nil {
		t.Error("NewScheduler without a trigger did not fail")
	}
}

func TestSchedulerNext(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "kepbot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := delivery.NewScheduler(delivery.SchedulerConfig{Trigger: trigger(db, nil), State: db.Outbox(),
		Weekday: time.Friday, WeeklyAt: 17*time.Hour + 30*time.Minute, DailyAt: 6 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 21, 0, 0, 0, time.UTC) // a Saturday
	for name, want := range map[string]time.Time{
		digest.ScheduleWeekly:  time.Date(2026, 11, 27, 17, 30, 0, 0, time.UTC),
		digest.ScheduleDaily:   time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		digest.ScheduleRelease: {},
	} {
		if got := s.Next(name, now); !got.Equal(want) {
			t.Errorf("Next(%s) = %v, want %v", name, got, want)
		}
	}
	// At the very time of a run, the next one is a period later.
	if got := s.Next(digest.ScheduleDaily, time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)); !got.Equal(time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC)) {
		t.Errorf("Next at a run time = %v", got)
	}
}
