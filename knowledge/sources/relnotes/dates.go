package relnotes

import (
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
	"strconv"
	"strings"
	"time"
)

// The date forms of the release pages ("Wednesday 22nd April 2026") and
// the others people write ("April 22, 2026", "22 Apr 2026", "2026-04-22").
const monthNames = `January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec`

var (
	dayMonthYearRe = lazyre.New(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(` + monthNames + `)\.?,?\s+(\d{4})\b`)
	monthDayYearRe = lazyre.New(`(?i)\b(` + monthNames + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	isoDateRe      = lazyre.New(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	weekdayEndRe   = lazyre.New(`(?i)\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun)\.?,?\s*$`)
)

// foundDate is the first date of a text: the day, and the weekday the
// text puts before it when that is not the day's.
type foundDate struct {
	day        string // 2006-01-02
	badWeekday string // "Tuesday" when the text says Tuesday of a Wednesday
}

// firstDate returns the earliest date in s. An AoE deadline written with
// its UTC alternate ("Thursday 9th October 2025 (AoE) / Friday 10th
// October 2025, 12:00 UTC") gives its first, the day the schedule names.
func firstDate(s string) (foundDate, bool) {
	best, at := "", -1
	consider := func(m []int, y, mo, d string) {
		if at >= 0 && m[0] >= at {
			return
		}
		if day, ok := makeDay(y, mo, d); ok {
			best, at = day, m[0]
		}
	}
	for _, m := range dayMonthYearRe().FindAllStringSubmatchIndex(s, -1) {
		consider(m, s[m[6]:m[7]], s[m[4]:m[5]], s[m[2]:m[3]])
	}
	for _, m := range monthDayYearRe().FindAllStringSubmatchIndex(s, -1) {
		consider(m, s[m[6]:m[7]], s[m[2]:m[3]], s[m[4]:m[5]])
	}
	for _, m := range isoDateRe().FindAllStringSubmatchIndex(s, -1) {
		consider(m, s[m[2]:m[3]], s[m[4]:m[5]], s[m[6]:m[7]])
	}
	if at < 0 {
		return foundDate{}, false
	}
	fd := foundDate{day: best}
	if w := weekdayEndRe().FindStringSubmatch(s[:at]); w != nil {
		t, _ := time.Parse(time.DateOnly, best)
		if !strings.HasPrefix(strings.ToLower(t.Weekday().String()), strings.ToLower(w[1][:3])) {
			fd.badWeekday = w[1]
		}
	}
	return fd, true
}

// makeDay checks a year, a month (name or number) and a day and returns
// the day as 2006-01-02.
func makeDay(year, month, day string) (string, bool) {
	y, err1 := strconv.Atoi(year)
	d, err2 := strconv.Atoi(day)
	m := monthNumber(month)
	if err1 != nil || err2 != nil || m == 0 || y < 2014 || y > 2200 {
		return "", false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Year() != y || int(t.Month()) != m || t.Day() != d {
		return "", false
	}
	return t.Format(time.DateOnly), true
}

func monthNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 1 && n <= 12 {
			return n
		}
		return 0
	}
	s = strings.ToLower(s)
	for m := time.January; m <= time.December; m++ {
		if strings.HasPrefix(strings.ToLower(m.String()), s[:min(len(s), 3)]) {
			return int(m)
		}
	}
	return 0
}
