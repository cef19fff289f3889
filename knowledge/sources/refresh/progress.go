package refresh

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// ProgressLine keeps one line of a terminal up to date with a pass: how
// many sources were asked and failed, which is asked now, and a retry's
// wait. Its Step is an Options.Progress; Clear rubs the line out before the
// report is written. It is safe for concurrent use.
type ProgressLine struct {
	mu       sync.Mutex
	w        io.Writer
	prefix   string
	done     int
	notReach int
	shown    bool
}

// NewProgressLine writes the line to w (a terminal: it is redrawn in place
// with a carriage return), starting with prefix ("bot sync").
func NewProgressLine(w io.Writer, prefix string) *ProgressLine {
	return &ProgressLine{w: w, prefix: prefix}
}

// Step redraws the line for s.
func (l *ProgressLine) Step(s Step) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var what string
	switch {
	case s.Outcome != nil:
		l.done++
		if s.Outcome.Severity != SeverityNone {
			l.notReach++
		}
		what = fmt.Sprintf("%s: %s", s.Name, s.Outcome.Result)
	case s.Wait > 0:
		what = fmt.Sprintf("%s: %s; asking again in %s", s.Name, s.Error, s.Wait.Round(100*time.Millisecond))
	case s.Attempt > 1:
		what = fmt.Sprintf("asking %s (try %d of %d)", s.Name, s.Attempt, MaxAttempts)
	default:
		what = "asking " + s.Name
	}
	fmt.Fprintf(l.w, "\r\x1b[K%s: %d sources done, %d not reached; %s", l.prefix, l.done, l.notReach, clipLine(what, 100))
	l.shown = true
}

// Clear rubs the line out, if it was drawn.
func (l *ProgressLine) Clear() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

func clipLine(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// JSONReport is bot sync's report for scripts (--json): the database, each
// source with its result and fault, the hosts, the counts by result, the
// generation, and the exit code the command ends with.
type JSONReport struct {
	Database string `json:"database"`
	*Report
	Counts map[string]int `json:"counts"`
	Exit   int            `json:"exit"`
	// Error is set instead of a report when the sync failed before or
	// outside its pass (a database locked, a setting refused).
	Error string `json:"error,omitempty"`
}

// WriteJSON writes r as one JSON object and a newline.
func WriteJSON(w io.Writer, r JSONReport) error {
	if r.Report == nil {
		r.Report = &Report{}
	}
	if r.Outcomes == nil {
		r.Outcomes = []Outcome{}
	}
	if r.Counts == nil {
		r.Counts = r.Report.Counts()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
