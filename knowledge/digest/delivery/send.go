package delivery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
)

// post posts the next part of d, claimed and accepted by the gate, and
// records the outcome. Outcomes are recorded even while ctx ends. It
// reports whether d has left sending: false only when ctx ended first,
// with a post cut short or an outcome the outbox did not take yet; d is
// then resolved at the next Run.
func (l *lane) post(ctx context.Context, d *digest.Delivery) bool {
	w := l.w
	defer func() { w.gate.done(d, w.cfg.Now()) }()
	log := w.cfg.Log.With().Str("delivery", d.Key).Str("platform", d.Platform).Str("channel", d.Channel).Logger()

	dg, err := w.digest(ctx, d.DigestID)
	if err != nil { // nothing was posted: put it back, unless it can never go
		now := w.cfg.Now()
		switch {
		case knowledge.ErrorCode(err) == knowledge.ENOTFOUND:
			return l.dead(ctx, d, "no_digest", false)
		case ctx.Err() != nil:
			return l.retry(ctx, d, now, "stopped before posting", true, now)
		case d.Failures+1 >= w.cfg.MaxFailures:
			log.Error().Err(err).Int("failures", d.Failures+1).Msg("reading the digest failed; giving the delivery up")
			return l.dead(ctx, d, "gave_up", false)
		}
		log.Error().Err(err).Msg("reading the digest failed; trying again later")
		return l.retry(ctx, d, now.Add(w.backoff(d.Failures+1)), "reading the digest failed", false, now)
	}
	var fits func(*knowledge.Answer) bool
	if f, ok := l.poster.(Fitter); ok {
		fits = f.Fits
	}
	parts := digest.SplitAnswer(digest.RenderDigest(dg, d.Format), fits)
	part := d.PartsSent
	if part >= len(parts) { // the digest now takes fewer messages than when it began
		return l.record(ctx, d, part, part+1, "", w.cfg.Now())
	}

	if err := w.gate.take(ctx, d, w.cfg.Now); err != nil { // nothing was posted: put it back
		next, why := w.cfg.Now(), "stopped before posting"
		var held heldError
		if errors.As(err, &held) {
			next, why = held.until, "held back by a rate limit"
		}
		return l.retry(ctx, d, next, why, true, w.cfg.Now())
	}
	if ctx.Err() != nil {
		return l.retry(ctx, d, w.cfg.Now(), "stopped before posting", true, w.cfg.Now())
	}
	id, err := w.postWithGrace(ctx, l.poster, d, parts[part], part)
	now := w.cfg.Now()
	if err != nil && ctx.Err() != nil {
		log.Info().Msg("stopping in the middle of a post; it is resolved at the next start")
		return false
	}
	o := classify(err)
	switch o.kind {
	case posted:
		return l.record(ctx, d, part, len(parts), id, now)
	case terminal:
		log.Warn().Str("reason", o.reason).Msg("the platform refuses the channel for good; pausing its subscription")
		return l.dead(ctx, d, o.reason, true)
	case rateLimited:
		wait := o.retryAfter
		if wait <= 0 {
			wait = w.cfg.DefaultRetryAfter
		}
		until := now.Add(wait)
		w.gate.block(d, o.scope, until)
		// After the window, with a little jitter so that the channels a
		// workspace-wide limit held back do not all come back at once.
		next := until.Add(time.Duration(w.cfg.Rand() * float64(min(wait/10, time.Second))))
		w.cfg.Metrics.Retried(d.Platform, o.reason)
		return l.retry(ctx, d, next, fmt.Sprintf("rate limited for %s", wait.Round(time.Millisecond)), true, now)
	default:
		if d.Failures+1 >= w.cfg.MaxFailures {
			log.Error().Err(err).Int("failures", d.Failures+1).Msg("giving the delivery up")
			return l.dead(ctx, d, "gave_up", false)
		}
		if !w.idempotent(d.Platform) && !o.unposted {
			// The failed post may have gone out, and is posted again.
			w.cfg.Metrics.DuplicatePossible(d.Platform, o.reason)
		}
		log.Warn().Err(err).Str("reason", o.reason).Int("failures", d.Failures+1).Msg("posting failed; retrying later")
		w.cfg.Metrics.Retried(d.Platform, o.reason)
		return l.retry(ctx, d, now.Add(w.backoff(d.Failures+1)), "failed: "+o.reason, false, now)
	}
}

// record marks part of parts posted as id.
func (l *lane) record(ctx context.Context, d *digest.Delivery, part, parts int, id string, now time.Time) bool {
	w := l.w
	next := now.Add(w.cfg.Limits[d.Platform].ChannelGap)
	var got *digest.Delivery
	ok := l.settle(ctx, d, "recording a post", func(mark context.Context) (err error) {
		got, err = w.outbox.MarkPartSent(mark, d.Key, part, parts, id, now, next)
		return err
	})
	switch {
	case got == nil:
	case got.State == digest.DeliverySent:
		w.cfg.Metrics.Delivered(d.Platform)
	default:
		l.due(next)
	}
	return ok
}

func (l *lane) retry(ctx context.Context, d *digest.Delivery, next time.Time, reason string, rateLimited bool, now time.Time) bool {
	ok := l.settle(ctx, d, "recording a retry", func(mark context.Context) error {
		_, err := l.w.outbox.MarkRetry(mark, d.Key, next, reason, rateLimited, now)
		return err
	})
	if ok {
		l.due(next)
	}
	return ok
}

func (l *lane) dead(ctx context.Context, d *digest.Delivery, reason string, pause bool) bool {
	w := l.w
	var done bool
	ok := l.settle(ctx, d, "giving a delivery up", func(mark context.Context) error {
		_, err := w.outbox.MarkDead(mark, d.Key, reason, pause, w.cfg.Now())
		done = err == nil
		return err
	})
	if done {
		w.cfg.Metrics.Dead(d.Platform, reason)
	}
	return ok
}

// settle runs write, which records d's outcome, until the outbox takes it,
// also once ctx has ended; it tries again after a failure while ctx lasts.
// Until its outcome is recorded d stays sending, and a lane that posts in
// turn must not begin its next post: a crash would then leave two posts in
// doubt. It reports whether d has left sending: true also when the outbox
// refuses the move because d is no longer sending (EBADINPUT, ENOTFOUND).
func (l *lane) settle(ctx context.Context, d *digest.Delivery, what string, write func(mark context.Context) error) bool {
	mark := context.WithoutCancel(ctx)
	for n := 1; ; n++ {
		err := write(mark)
		if err == nil {
			return true
		}
		log := l.w.cfg.Log.Error().Err(err).Str("delivery", d.Key).Int("attempt", n)
		if c := knowledge.ErrorCode(err); c == knowledge.EBADINPUT || c == knowledge.ENOTFOUND {
			log.Msg(what + " failed: the delivery is no longer sending")
			return true
		}
		if ctx.Err() != nil {
			log.Msg(what + " failed while stopping; the delivery is resolved at the next start")
			return false
		}
		log.Msg(what + " failed; trying again")
		t := time.NewTimer(l.w.backoff(n))
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// postWithGrace posts part of d through p within PostTimeout; when ctx
// ends while the post is under way, the post gets StopGrace more before it
// is cut short, so that a stop records what it posted instead of leaving
// it in doubt.
func (w *Worker) postWithGrace(ctx context.Context, p Poster, d *digest.Delivery, a *knowledge.Answer, part int) (string, error) {
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.cfg.PostTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(w.cfg.StopGrace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-pctx.Done():
		}
	})
	defer stop()
	return p.Post(pctx, d.Channel, a, d.Nonce(part))
}
