package delivery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kepbot/kepbot/knowledge"
)

// post posts the next part of d, claimed and accepted by the gate, and
// records the outcome. Outcomes are recorded even while ctx ends; a post
// cut short by ctx stays sending, in doubt, for the next Run.
func (l *lane) post(ctx context.Context, d *knowledge.Delivery) {
	w := l.w
	defer func() { w.gate.done(d, w.cfg.Now()) }()
	log := w.cfg.Log.With().Str("delivery", d.Key).Str("platform", d.Platform).Str("channel", d.Channel).Logger()
	mark := context.WithoutCancel(ctx)

	dg, err := w.digest(ctx, d.DigestID)
	if err != nil {
		if knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
			log.Error().Err(err).Msg("reading the digest failed; the delivery stays in doubt until the next start")
			return
		}
		l.dead(mark, d, "no_digest", false)
		return
	}
	var fits func(*knowledge.Answer) bool
	if f, ok := l.poster.(Fitter); ok {
		fits = f.Fits
	}
	parts := knowledge.SplitAnswer(knowledge.RenderDigest(dg, d.Format), fits)
	part := d.PartsSent
	if part >= len(parts) { // the digest now takes fewer messages than when it began
		l.record(mark, d, part, part+1, "", w.cfg.Now())
		return
	}

	if err := w.gate.take(ctx, d, w.cfg.Now); err != nil { // nothing was posted: put it back
		next, why := w.cfg.Now(), "stopped before posting"
		var held heldError
		if errors.As(err, &held) {
			next, why = held.until, "held back by a rate limit"
		}
		l.retry(mark, d, next, why, true, w.cfg.Now())
		return
	}
	if ctx.Err() != nil {
		l.retry(mark, d, w.cfg.Now(), "stopped before posting", true, w.cfg.Now())
		return
	}
	pctx, cancel := context.WithTimeout(ctx, w.cfg.PostTimeout)
	id, err := l.poster.Post(pctx, d.Channel, parts[part], d.Nonce(part))
	cancel()
	now := w.cfg.Now()
	if err != nil && ctx.Err() != nil {
		log.Info().Msg("stopping in the middle of a post; it is resolved at the next start")
		return
	}
	o := classify(err)
	switch o.kind {
	case posted:
		l.record(mark, d, part, len(parts), id, now)
	case terminal:
		log.Warn().Str("reason", o.reason).Msg("the platform refuses the channel for good; pausing its subscription")
		l.dead(mark, d, o.reason, true)
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
		l.retry(mark, d, next, fmt.Sprintf("rate limited for %s", wait.Round(time.Millisecond)), true, now)
	default:
		if d.Failures+1 >= w.cfg.MaxFailures {
			log.Error().Err(err).Int("failures", d.Failures+1).Msg("giving the delivery up")
			l.dead(mark, d, "gave_up", false)
			return
		}
		if !w.idempotent(d.Platform) {
			w.cfg.Metrics.DuplicatePossible(d.Platform) // the failed post may have gone out, and is posted again
		}
		log.Warn().Err(err).Str("reason", o.reason).Int("failures", d.Failures+1).Msg("posting failed; retrying later")
		w.cfg.Metrics.Retried(d.Platform, o.reason)
		l.retry(mark, d, now.Add(w.backoff(d.Failures+1)), "failed: "+o.reason, false, now)
	}
}

// record marks part of parts posted as id.
func (l *lane) record(ctx context.Context, d *knowledge.Delivery, part, parts int, id string, now time.Time) {
	w := l.w
	next := now.Add(w.cfg.Limits[d.Platform].ChannelGap)
	got, err := w.outbox.MarkPartSent(ctx, d.Key, part, parts, id, now, next)
	if err != nil {
		w.cfg.Log.Error().Err(err).Str("delivery", d.Key).Msg("recording a post failed; the delivery stays in doubt until the next start")
		return
	}
	if got.State == knowledge.DeliverySent {
		w.cfg.Metrics.Delivered(d.Platform)
		return
	}
	l.due(next)
}

func (l *lane) retry(ctx context.Context, d *knowledge.Delivery, next time.Time, reason string, rateLimited bool, now time.Time) {
	if _, err := l.w.outbox.MarkRetry(ctx, d.Key, next, reason, rateLimited, now); err != nil {
		l.w.cfg.Log.Error().Err(err).Str("delivery", d.Key).Msg("recording a retry failed; the delivery stays in doubt until the next start")
		return
	}
	l.due(next)
}

func (l *lane) dead(ctx context.Context, d *knowledge.Delivery, reason string, pause bool) {
	w := l.w
	if _, err := w.outbox.MarkDead(ctx, d.Key, reason, pause, w.cfg.Now()); err != nil {
		w.cfg.Log.Error().Err(err).Str("delivery", d.Key).Msg("giving a delivery up failed; it stays in doubt until the next start")
		return
	}
	w.cfg.Metrics.Dead(d.Platform, reason)
}
