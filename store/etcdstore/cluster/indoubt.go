package cluster

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// Finder is implemented by a poster whose platform can say whether a
// message carrying a nonce was posted to a channel since a time (Slack,
// by the message metadata in conversations.history). A platform that
// drops a repeated nonce itself (Discord) needs none.
type Finder interface {
	FindPosted(ctx context.Context, channel, nonce string, since time.Time) (id string, found bool, err error)
}

// lookBack is how long before a delivery was last moved its post may have
// been made; history is read from then.
const lookBack = time.Minute

// InDoubt is what a new leader knows of the deliveries its predecessor
// left in the middle of a post: the part each was posting (a lane that
// may show a repeat posts one part at a time, so it is the one after the
// parts recorded) and since when. Its Wrap makes the first repost of each
// such part ask the platform (a Finder) whether the part is already
// there, and record that message instead of posting it again.
type InDoubt struct {
	mu      sync.Mutex
	pending map[string]time.Time // channel "/" nonce → read history since
	metrics delivery.Metrics
	log     zerolog.Logger
}

// ResolveInDoubt takes the deliveries Recover gave back, logs each and
// counts those in doubt (those not begun need nothing); where the platform's poster neither drops repeats
// (delivery.Idempotent) nor can look (Finder), it counts a possible
// duplicate at once, as the worker does after a restart. carried are
// deliveries an earlier leader took back in doubt and died before posting
// again (Delivery.StillInDoubt; others are passed over): they are looked
// for too, and not counted again.
func ResolveInDoubt(back digest.Recovered, carried []digest.Delivery, posters map[string]delivery.Poster, m delivery.Metrics, log zerolog.Logger) *InDoubt {
	if m == nil {
		m = delivery.NopMetrics{}
	}
	r := &InDoubt{pending: map[string]time.Time{}, metrics: m, log: log}
	for i := range carried {
		d := &carried[i]
		if _, finds := posters[d.Platform].(Finder); finds && d.StillInDoubt() {
			r.pending[d.Channel+"/"+d.Nonce(d.PartsSent)] = d.UpdatedAt.Add(-lookBack)
		}
	}
	for _, d := range back.NotBegun {
		log.Info().Str("delivery", d.Key).Str("platform", d.Platform).Msg("delivery claimed but not begun before a change of leader: posting it")
	}
	for i := range back.InDoubt {
		d := &back.InDoubt[i]
		m.InDoubt(d.Platform)
		p := posters[d.Platform]
		idem, _ := p.(delivery.Idempotent)
		_, finds := p.(Finder)
		ev := log.Warn().Str("delivery", d.Key).Str("platform", d.Platform).Int("in_doubt", d.InDoubt)
		switch {
		case idem != nil && idem.Idempotent():
			ev.Msg("delivery in doubt after a change of leader: posting it again with the same nonce")
		case finds:
			r.pending[d.Channel+"/"+d.Nonce(d.PartsSent)] = d.UpdatedAt.Add(-lookBack)
			ev.Msg("delivery in doubt after a change of leader: looking for it in the channel before posting it again")
		default:
			m.DuplicatePossible(d.Platform, "restart")
			ev.Msg("delivery in doubt after a change of leader: posting it again; the channel may see it twice")
		}
	}
	return r
}

// Wrap returns p, for platform, resolving its in-doubt parts first. A
// poster that is no Finder is returned as it is. The wrapper keeps p's
// Fitter.
func (r *InDoubt) Wrap(platform string, p delivery.Poster) delivery.Poster {
	f, ok := p.(Finder)
	if !ok {
		return p
	}
	l := &looking{p: p, f: f, r: r, platform: platform}
	if fit, ok := p.(delivery.Fitter); ok {
		return &lookingFit{l, fit}
	}
	return l
}

// take returns when to read history from for a part in doubt, once.
func (r *InDoubt) take(channel, nonce string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := channel + "/" + nonce
	since, ok := r.pending[k]
	delete(r.pending, k)
	return since, ok
}

type looking struct {
	p        delivery.Poster
	f        Finder
	r        *InDoubt
	platform string
}

type lookingFit struct {
	*looking
	delivery.Fitter
}

func (l *looking) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	if since, ok := l.r.take(channel, nonce); ok {
		id, found, err := l.f.FindPosted(ctx, channel, nonce, since)
		switch {
		case err == nil && found:
			l.r.log.Info().Str("platform", l.platform).Str("channel", channel).Msg("the post in doubt was made before the change of leader: recording it, not posting again")
			return id, nil
		case err != nil:
			l.r.metrics.DuplicatePossible(l.platform, "restart")
			l.r.log.Warn().Err(err).Str("platform", l.platform).Str("channel", channel).Msg("could not look for the post in doubt: posting it again; the channel may see it twice")
		}
	}
	return l.p.Post(ctx, channel, a, nonce)
}
