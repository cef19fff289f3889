package refresh

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// Results of asking one source, as states, metrics and reports name them.
const (
	ResultUpdated      = "updated"       // news, read and applied
	ResultNotModified  = "not modified"  // the server said nothing changed
	ResultNotPublished = "not published" // an optional source that does not exist yet
	ResultFailed       = "failed"        // the source's part was kept as it was
	ResultRateLimited  = "rate limited"  // failed, and the server said when to ask again
	ResultWaiting      = "waiting"       // not asked: backing off after earlier failures, or its host is
	ResultSkipped      = "skipped"       // not asked: its host failed earlier in the pass, or the pass ran out of time
)

// Results lists every result, in the order above.
var Results = []string{ResultUpdated, ResultNotModified, ResultNotPublished, ResultFailed, ResultRateLimited, ResultWaiting, ResultSkipped}

// Severity of a failed source, for `bot sync`'s exit code.
const (
	SeverityNone     = 0
	SeverityBadInput = 2 // a URL that may not be fetched, or content that cannot be used
	SeverityFailure  = 3 // a server or network failure
)

// Outcome is how asking one source went.
type Outcome struct {
	Name     string        `json:"name"`
	URL      string        `json:"url"` // redacted
	Result   string        `json:"result"`
	Error    string        `json:"error,omitempty"`
	Severity int           `json:"severity,omitempty"`
	Detail   string        `json:"detail,omitempty"` // what the news holds
	Commit   string        `json:"commit,omitempty"`
	Bytes    int64         `json:"bytes,omitempty"`
	Took     time.Duration `json:"took,omitempty"`
	Requests int           `json:"requests,omitempty"` // made of it in this pass, retries included
	RetryAt  time.Time     `json:"retry_at,omitzero"`
	// FailingSince is when the source began to fail (or be held back) in
	// a row, as its state keeps it; zero once it answers.
	FailingSince time.Time `json:"failing_since,omitzero"`
	// FirstFailure is true when this pass is the first in a row that did
	// not reach the source: serve warns of it then, once.
	FirstFailure bool     `json:"first_failure,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
}

// Report is what one pass did.
type Report struct {
	Outcomes []Outcome `json:"sources"`
	// Applied is true when the pass replaced the knowledge; Generation is
	// the knowledge's generation after the pass.
	Applied    bool            `json:"applied"`
	Generation uint64          `json:"generation"`
	Stats      knowledge.Stats `json:"stats"`
	// Hosts are the hosts the pass asked, or whose earlier failures held
	// sources back.
	Hosts []HostReport `json:"hosts,omitempty"`
}

// Severity is the worst severity among the outcomes: what `bot sync`
// exits with.
func (r *Report) Severity() int {
	worst := SeverityNone
	for _, o := range r.Outcomes {
		worst = max(worst, o.Severity)
	}
	return worst
}

// Counts returns how many outcomes had each result.
func (r *Report) Counts() map[string]int {
	out := map[string]int{}
	for _, o := range r.Outcomes {
		out[o.Result]++
	}
	return out
}

// Line is one line a person reads about o: "kep.yaml: updated, 650 KEPs
// from 656 kep.yaml files (commit 64765b4b0238)".
func (o Outcome) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", o.Name, o.Result)
	switch {
	case o.Error != "":
		b.WriteString(": " + o.Error)
	case o.Detail != "":
		b.WriteString(", " + o.Detail)
	}
	if o.Commit != "" {
		fmt.Fprintf(&b, " (commit %s)", short(o.Commit))
	}
	if !o.RetryAt.IsZero() && (o.Result == ResultRateLimited || o.Result == ResultWaiting || o.Result == ResultSkipped) {
		fmt.Fprintf(&b, "; next try after %s", o.RetryAt.UTC().Format("2006-01-02 15:04:05 MST"))
	}
	return b.String()
}

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// WriteReport writes bot sync's report of a pass over the database at
// db to out: a line per source, then the totals. Each source that failed
// is named on errw with its fault; the sources not asked are named there
// too, together on one line for each reason (a host that failed, a host
// that asked to wait, the time that ran out).
func WriteReport(out, errw io.Writer, db string, rep *Report) {
	switch {
	case rep.Applied:
		fmt.Fprintf(out, "Synced %s (generation %d):\n", db, rep.Generation)
	case rep.Severity() != SeverityNone:
		fmt.Fprintf(out, "Nothing new in %s from the sources that answered; some could not be reached:\n", db)
	default:
		fmt.Fprintf(out, "Up to date: nothing new in %s.\n", db)
	}
	for _, o := range rep.Outcomes {
		fmt.Fprintf(out, "  %s\n", o.Line())
	}
	if rep.Applied {
		st := rep.Stats
		fmt.Fprintf(out, "  knowledge now: %d releases, %d KEPs, %d notices, %d release-note entries, %d patch releases, %d API types\n",
			st.Releases, st.KEPs, st.Notices, st.Changes, st.Patches, st.APIs)
	}
	var reasons []string
	notAsked := map[string][]string{}
	for _, o := range rep.Outcomes {
		switch {
		case o.Severity == SeverityNone:
		case o.Result == ResultWaiting || o.Result == ResultSkipped:
			if notAsked[o.Error] == nil {
				reasons = append(reasons, o.Error)
			}
			notAsked[o.Error] = append(notAsked[o.Error], o.Name)
		default:
			fmt.Fprintf(errw, "bot sync: %s failed: %s; what it gave before is kept.\n", o.Name, o.Error)
		}
	}
	for _, why := range reasons {
		names := notAsked[why]
		what := names[0] + " was"
		if len(names) > 1 {
			what = strings.Join(names, ", ") + " were"
		}
		fmt.Fprintf(errw, "bot sync: %s not asked: %s; what they gave before is kept.\n", what, why)
	}
}
