package config

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Digests sets when scheduled deprecation digests go out and how fast.
// Times are UTC, written "HH:MM".
type Digests struct {
	// WeeklyDay is the day weekly digests go out: monday … sunday.
	WeeklyDay string `yaml:"weekly_day"`
	// WeeklyTime is the time of day (UTC) weekly digests go out.
	WeeklyTime string `yaml:"weekly_time"`
	// DailyTime is the time of day (UTC) daily digests go out.
	DailyTime string `yaml:"daily_time"`
	// GlobalRate caps digest posts a second over every platform; 0 is no
	// cap beyond each platform's own limits.
	GlobalRate float64 `yaml:"global_rate"`
	// SlackWorkspaceRate caps digest posts a second to one Slack
	// workspace; Slack publishes no number, and any 429 is honoured.
	SlackWorkspaceRate float64 `yaml:"slack_workspace_rate"`
}

// Default digest settings: Monday 09:00 UTC, daily at 09:00 UTC.
const (
	DefaultDigestDay          = "monday"
	DefaultDigestTime         = "09:00"
	DefaultSlackWorkspaceRate = 10
)

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}

// Weekday returns WeeklyDay as a time.Weekday; Validate has checked it.
func (d Digests) Weekday() time.Weekday { return weekdays[strings.ToLower(d.WeeklyDay)] }

// WeeklyAt returns WeeklyTime as a duration after midnight UTC; Validate
// has checked it.
func (d Digests) WeeklyAt() time.Duration {
	at, _ := clock(d.WeeklyTime)
	return at
}

// DailyAt returns DailyTime as a duration after midnight UTC.
func (d Digests) DailyAt() time.Duration {
	at, _ := clock(d.DailyTime)
	return at
}

// clock parses "HH:MM" into a duration after midnight.
func clock(s string) (time.Duration, bool) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || len(h) == 0 || len(h) > 2 || len(m) != 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, false
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, true
}

func (d Digests) problems() []string {
	var p []string
	if _, ok := weekdays[strings.ToLower(d.WeeklyDay)]; !ok {
		p = append(p, "digests.weekly_day is "+strconv.Quote(d.WeeklyDay)+"; use a day of the week, e.g. monday")
	}
	for _, t := range []struct{ key, v string }{{"digests.weekly_time", d.WeeklyTime}, {"digests.daily_time", d.DailyTime}} {
		if _, ok := clock(t.v); !ok {
			p = append(p, t.key+" is "+strconv.Quote(t.v)+"; use a UTC time of day as HH:MM, e.g. 09:00")
		}
	}
	if d.GlobalRate < 0 || d.GlobalRate > 1000 {
		p = append(p, "digests.global_rate must be between 0 (no cap) and 1000 posts a second; it is "+strconv.FormatFloat(d.GlobalRate, 'g', -1, 64))
	}
	if d.SlackWorkspaceRate <= 0 || d.SlackWorkspaceRate > 100 {
		p = append(p, "digests.slack_workspace_rate must be above 0 and at most 100 posts a second, e.g. 10; it is "+strconv.FormatFloat(d.SlackWorkspaceRate, 'g', -1, 64))
	}
	return p
}

// slackUserID is a Slack user ID: U or W, then upper-case letters and digits.
var slackUserID = regexp.MustCompile(`^[UW][A-Z0-9]{2,20}$`)

// managerProblems checks slack.subscription_managers.
func (s *Slack) managerProblems() []string {
	var p []string
	for _, id := range s.SubscriptionManagers {
		if !slackUserID.MatchString(id) {
			p = append(p, "slack.subscription_managers has "+strconv.Quote(id)+"; list Slack user IDs such as U024BE7LH (a profile's ⋮ menu, Copy member ID), not names")
		}
	}
	return p
}
