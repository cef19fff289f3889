package refresh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/archive"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/store"
)

// ask asks one source, if wanted, due and its host may be asked, and
// records the outcome. A source that fails with a server or network error
// is asked again up to MaxAttempts times, after a backoff that doubles
// (see RetryBase), while the pass's budget lasts.
func (p *pass) ask(ctx context.Context, src source) Outcome {
	if !p.wanted(src) || p.ctx.Err() != nil {
		return Outcome{Name: src.name}
	}
	now := p.r.cfg.Now()
	st := p.states[src.name]
	o := Outcome{Name: src.name, URL: src.shown()}
	g := p.gate(src)
	if why, until, fresh := p.barred(g, now); why != "" {
		g.touched = true
		return p.notAsked(src, st, o, why, until, fresh)
	}
	if ctx.Err() != nil {
		return p.notAsked(src, st, o, p.outOfTime(), time.Time{}, true)
	}
	if !due(st, now, p.opts.Force) {
		why := fmt.Sprintf("it failed %d times in a row (%s)", st.Failures, st.Error)
		return p.notAsked(src, st, o, why, st.RetryAt, false)
	}
	g.touched = true
	start := time.Now()
	var got *part
	var err error
	for attempt := 1; ; attempt++ {
		p.progress(Step{Name: src.name, Attempt: attempt})
		o.Result, o.Bytes = "", 0
		g.requests++
		o.Requests++
		got, err = p.fetch(ctx, src, st, &o)
		if err == nil || !classify(err).retry() || attempt >= g.attempts() || ctx.Err() != nil {
			break
		}
		d := jitter(RetryBase << (attempt - 1))
		p.progress(Step{Name: src.name, Attempt: attempt, Wait: d, Error: hostReason(err)})
		if p.r.cfg.Wait(ctx, d) != nil {
			break
		}
	}
	o.Took = time.Since(start)
	if err != nil && ctx.Err() != nil && p.ctx.Err() == nil && classify(err).kind == faultTimeout {
		err = fmt.Errorf("fetch %s: %w: %s", src.shown(), fetch.ErrTimeout, p.outOfTime()) // the budget, not the fetch's own timeout
	}
	st.URL, st.Checked = src.shown(), now
	switch {
	case err != nil:
		end := p.r.cfg.Now() // backoffs run from the last try
		g.failed(classify(err), err, end, p.r.cfg.Interval)
		if !errors.Is(err, errInvalid) {
			err = fmt.Errorf("could not fetch it: %w", err)
		}
		p.failed(src, &st, &o, err, end)
	case o.Result == ResultNotPublished || o.Result == ResultNotModified:
		g.answered()
		st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = o.Result, "", 0, time.Time{}, time.Time{}
		st.Succeeded = now
		o.Commit = st.Commit
	case got.corpus == nil: // read, and nothing in it for the knowledge: keep its validators
		g.answered()
		o.Result, o.Detail, o.Commit = ResultNotModified, got.detail, st.Commit
		st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = ResultNotModified, "", 0, time.Time{}, time.Time{}
		st.Succeeded = now
		st.ETag, st.LastModified = got.etag, got.lastModified
	default:
		if got.hostErr != nil {
			g.failed(classify(got.hostErr), got.hostErr, p.r.cfg.Now(), p.r.cfg.Interval)
		} else {
			g.answered()
		}
		o.Result, o.Detail, o.Commit, o.Warnings = ResultUpdated, got.detail, got.commit, got.warnings
		st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = ResultUpdated, "", 0, time.Time{}, time.Time{}
		st.Succeeded, st.Changed, st.Commit = now, now, got.commit
		st.ETag, st.LastModified = got.etag, got.lastModified
		p.parts[src.name] = got
		p.order = append(p.order, src.name)
	}
	o.FirstFailure = o.Severity != SeverityNone && p.states[src.name].FailingSince.IsZero()
	p.states[src.name] = st
	o.FailingSince = st.FailingSince
	p.record(o)
	return o
}

// notAsked records src as not asked, for why (until when, if known): its
// host barred, its own backoff, or the pass out of time. It is skipped when
// the reason was found in this pass (fresh), else waiting; either way it
// did not reach its source. Its state keeps what it had but says why, and
// since when it has not been read (for the staleness note).
func (p *pass) notAsked(src source, st store.SourceState, o Outcome, why string, until time.Time, fresh bool) Outcome {
	o.Result, o.Error, o.Severity, o.RetryAt = ResultWaiting, why, SeverityFailure, until
	if fresh {
		o.Result = ResultSkipped
	}
	if st.FailingSince.IsZero() {
		st.FailingSince, o.FirstFailure = p.r.cfg.Now(), true
	}
	st.Error = why
	p.states[src.name] = st
	o.FailingSince = st.FailingSince
	p.record(o)
	return o
}

// outOfTime is why a source the pass's budget left is not asked.
func (p *pass) outOfTime() string {
	return fmt.Sprintf("the time to ask the sources (%s) ran out", p.opts.Budget)
}

// record adds o to the report and the metrics, and tells the progress.
func (p *pass) record(o Outcome) {
	p.report.Outcomes = append(p.report.Outcomes, o)
	if p.r.cfg.Metrics != nil {
		p.r.cfg.Metrics.Observe(o)
	}
	p.progress(Step{Name: o.Name, Outcome: &o})
}

// progress tells Options.Progress of a step, if set.
func (p *pass) progress(s Step) {
	if p.opts.Progress != nil {
		p.opts.Progress(s)
	}
}

// fetch asks src with a conditional request and reads what it sends. It
// sets o.Result for "not modified" and "not published", o.Bytes, and the
// state's validators; it returns the part for news.
func (p *pass) fetch(ctx context.Context, src source, st store.SourceState, o *Outcome) (*part, error) {
	if src.format.Remote.Each == sources.EachVulnIndex {
		return p.fetchVulns(ctx, src, st, o)
	}
	var cond fetch.Conditions
	if st.URL == src.shown() && p.holds(st) {
		cond = fetch.Conditions{ETag: st.ETag, LastModified: st.LastModified}
	}
	resp, err := p.r.client.GetIf(ctx, src.url, cond)
	if err != nil {
		var se *fetch.StatusError
		if src.optional && errors.As(err, &se) && se.Code == http.StatusNotFound {
			o.Result = ResultNotPublished
			return nil, nil
		}
		return nil, err
	}
	if resp.NotModified {
		o.Result = ResultNotModified
		return nil, nil
	}
	defer resp.Body.Close()
	body := &counter{r: resp.Body}
	got, err := read(src, body, p.r.cfg.Limits, httpDay(resp.LastModified))
	if err == nil && got.api != nil {
		// A release of k8s.io/api is checked against the types held, with
		// the releases read before in this pass merged in.
		var types []knowledge.APIType
		if types, err = apilifecycle.MergeInto(p.apiTypes, got.api); err != nil {
			err = invalid(err)
		} else {
			p.apiTypes = types
		}
	}
	o.Bytes = body.n
	if err != nil {
		return nil, err
	}
	got.etag, got.lastModified = resp.ETag, resp.LastModified
	if got.commit == "" && src.format.Remote.CommitFromETag {
		got.commit = commitFromETag(resp.ETag)
	}
	return got, nil
}

// holds reports whether the knowledge still holds what a source's state
// says it gave: after `bot ingest` replaced everything, an ETag must not
// make a refresh skip a source whose part is gone.
func (p *pass) holds(st store.SourceState) bool {
	if len(st.IDs) == 0 {
		return st.Result == ResultNotPublished || st.Changed.IsZero()
	}
	for _, id := range st.IDs {
		if !p.held[id] {
			return false
		}
	}
	return true
}

// failed records a failure of src: its severity, when to ask again.
func (p *pass) failed(src source, st *store.SourceState, o *Outcome, err error, now time.Time) {
	o.Result, o.Error, o.Severity = ResultFailed, err.Error(), severity(err)
	if st.FailingSince.IsZero() {
		st.FailingSince = now
	}
	st.Failures++
	st.RetryAt = now.Add(jitter(backoff(p.r.cfg.Interval, st.Failures)))
	var se *fetch.StatusError
	if errors.As(err, &se) && !se.RetryAfter.IsZero() && se.RetryAfter.After(st.RetryAt) {
		st.RetryAt = se.RetryAfter
	}
	if errors.As(err, &se) && se.RateLimited {
		o.Result = ResultRateLimited
	}
	st.Result, st.Error = o.Result, o.Error
	o.RetryAt = st.RetryAt
	delete(p.parts, src.name)
}

// severity says whether err is bad input (a URL refused, content that
// cannot be used, a file over the cap) or a server or network failure.
func severity(err error) int {
	if errors.Is(err, errInvalid) || errors.Is(err, fetch.ErrNotAllowed) || errors.Is(err, fetch.ErrTooLarge) {
		return SeverityBadInput
	}
	return SeverityFailure
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// httpDay turns a Last-Modified header into its day, "" when it has none.
func httpDay(h string) string {
	if t, err := http.ParseTime(h); err == nil {
		return t.UTC().Format(time.DateOnly)
	}
	return ""
}

// commitFromETag reads a bare commit hash from an ETag, as codeload sends.
func commitFromETag(etag string) string {
	t := etag
	if len(t) > 2 && t[:2] == "W/" {
		t = t[2:]
	}
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		t = t[1 : len(t)-1]
	}
	if archive.IsCommit(t) {
		return t
	}
	return ""
}
