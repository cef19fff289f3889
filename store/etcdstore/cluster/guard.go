package cluster

import (
	"context"
	"errors"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest/delivery"
)

// MaxPostBudget caps the least lease time a post may start with; with a
// short lease the budget is a quarter of it (see Term.PostBudget).
const MaxPostBudget = 2 * time.Second

// ErrLeaseLow is what a guarded poster answers instead of posting when
// the lease may run out before the post could finish: the worker puts the
// delivery back as if rate limited, and the next renewal (or the next
// leader) posts it.
var ErrLeaseLow = errors.New("not posting: the leader's lease may run out before the post could finish")

// GuardPoster wraps p so that each post starts only while the term's
// lease holds for at least the term's PostBudget more, and is cut off when the
// lease may run out. So a leader that cannot renew its lease has finished
// every post (or given it up) before another replica can be elected and
// find it in doubt. now is the clock Term.ValidUntil reads (nil: time.Now).
// The wrapper keeps p's Idempotent and Fitter answers.
func GuardPoster(p delivery.Poster, t Term, now func() time.Time) delivery.Poster {
	if now == nil {
		now = time.Now
	}
	g := &guarded{p: p, t: t, now: now}
	idem, isIdem := p.(delivery.Idempotent)
	fit, isFit := p.(delivery.Fitter)
	switch {
	case isIdem && isFit:
		return &guardedIdemFit{g, idem, fit}
	case isIdem:
		return &guardedIdem{g, idem}
	case isFit:
		return &guardedFit{g, fit}
	}
	return g
}

// The wrappers of posters that are Idempotent, Fitter or both. (An
// embedded delivery.Idempotent would be a field named Idempotent, hiding
// the method of that name, so they forward it by hand.)
type (
	guardedIdem struct {
		*guarded
		i delivery.Idempotent
	}
	guardedFit struct {
		*guarded
		delivery.Fitter
	}
	guardedIdemFit struct {
		*guarded
		i delivery.Idempotent
		delivery.Fitter
	}
)

func (g *guardedIdem) Idempotent() bool    { return g.i.Idempotent() }
func (g *guardedIdemFit) Idempotent() bool { return g.i.Idempotent() }

type guarded struct {
	p   delivery.Poster
	t   Term
	now func() time.Time
}

func (g *guarded) Post(ctx context.Context, channel string, a *knowledge.Answer, nonce string) (string, error) {
	left := g.t.ValidUntil().Sub(g.now())
	if left < g.t.PostBudget() {
		return "", delivery.RateLimit(ErrLeaseLow, time.Second, delivery.ScopePlatform)
	}
	pctx, cancel := context.WithTimeout(ctx, left)
	defer cancel()
	return g.p.Post(pctx, channel, a, nonce)
}
