package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/kepbot/kepbot/store/etcdstore"
)

// DefaultTTL is the election lease: a dead leader is replaced within it.
const DefaultTTL = 10 * time.Second

// maxBackoff is the longest wait between campaigns that failed because
// etcd could not be reached.
const maxBackoff = 10 * time.Second

// Config says how a replica takes part in the election.
type Config struct {
	Client *clientv3.Client
	// Prefix is the election's key prefix, such as "/kepbot/election/".
	Prefix string
	// ID names this replica in the election key's value and in logs (the
	// pod's name).
	ID string
	// TTL is the lease's time to live, DefaultTTL when zero; etcd rounds
	// it up to whole seconds and to its own minimum.
	TTL time.Duration
	// Now is the clock the lease guard reads (default time.Now): only its
	// monotonic differences matter.
	Now func() time.Time
	Log zerolog.Logger
	// Elected, when set, is told the elapsed time between the start of a
	// campaign and winning it, for metrics.
	Elected func(took time.Duration)
}

// Term is one stretch of leadership.
type Term struct {
	// Fence is the election key and its creation revision: the leader's
	// writes compare it, so they fail once another replica leads.
	Fence etcdstore.Fence
	// Started is when the replica won the election.
	Started time.Time
	lease   *leaseClock
}

// ValidUntil returns the time (on Config.Now's clock) until which the
// lease is known to hold: the send time of the last renewal it answered,
// plus its TTL, minus a margin. Nothing the leader starts may outlast it.
func (t Term) ValidUntil() time.Time { return t.lease.validUntil() }

// PostBudget is the least lease time left with which a post may start:
// a quarter of the TTL, at most MaxPostBudget.
func (t Term) PostBudget() time.Duration { return min(t.lease.ttl/4, MaxPostBudget) }

// Run takes part in the election until ctx ends: it campaigns, and while
// it leads runs lead with a context that ends when leadership is lost (the
// lease could not be renewed in time, the session ended) or ctx ends; then
// it resigns, if it still can, and campaigns again. lead must return soon
// after its context ends. Run returns ctx's error.
func Run(ctx context.Context, cfg Config, lead func(ctx context.Context, t Term)) error {
	if cfg.Client == nil || cfg.Prefix == "" {
		return errors.New("cluster: a client and a prefix are required")
	}
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	backoff := min(cfg.TTL/4, time.Second)
	for ctx.Err() == nil {
		err := term(ctx, cfg, lead)
		if err == nil || ctx.Err() != nil {
			backoff = min(cfg.TTL/4, time.Second)
			continue
		}
		cfg.Log.Warn().Err(err).Dur("retry_in", backoff).Msg("leader election: trying again")
		wait(ctx, backoff)
		backoff = min(2*backoff, maxBackoff)
	}
	return ctx.Err()
}

// term runs one campaign and, if it wins, one term.
func term(ctx context.Context, cfg Config, lead func(ctx context.Context, t Term)) error {
	start := cfg.Now()
	lc, err := grant(ctx, cfg)
	if err != nil {
		return err
	}
	sess, err := concurrency.NewSession(cfg.Client, concurrency.WithLease(lc.id), concurrency.WithContext(ctx))
	if err != nil {
		lc.revoke(cfg.Client)
		return fmt.Errorf("open an election session: %w", err)
	}
	defer func() {
		sess.Orphan()
		lc.revoke(cfg.Client)
	}()
	termCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // renew the lease on our own clock, and end the term when it cannot be
		lc.keep(termCtx, cfg, cancel)
	}()
	go func() {
		select {
		case <-sess.Done():
			cancel()
		case <-termCtx.Done():
		}
	}()
	el := concurrency.NewElection(sess, cfg.Prefix)
	if err := campaign(termCtx, el, cfg.ID); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("campaign: %w", err)
	}
	if termCtx.Err() != nil {
		return errors.New("the lease ended during the campaign")
	}
	t := Term{Fence: etcdstore.Fence{Key: el.Key(), Rev: el.Rev()}, Started: cfg.Now(), lease: lc}
	if cfg.Elected != nil {
		cfg.Elected(t.Started.Sub(start))
	}
	cfg.Log.Info().Str("replica", cfg.ID).Int64("rev", t.Fence.Rev).Msg("leading: refreshing the knowledge and sending digests")
	lead(termCtx, t)
	cancel()
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	_ = el.Resign(rctx) // the lease is revoked next anyway
	rcancel()
	cfg.Log.Info().Str("replica", cfg.ID).Msg("no longer leading")
	return nil
}

// campaign is el.Campaign, except that it returns when ctx ends even if
// Campaign does not. Cancelled while it waits behind another leader,
// etcd's Campaign resigns with the client's own context, and with etcd
// unreachable that waits until etcd comes back. The caller revokes the
// lease next, and closing the client ends the call left behind.
func campaign(ctx context.Context, el *concurrency.Election, id string) error {
	done := make(chan error, 1)
	go func() { done <- el.Campaign(ctx, id) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// leaseClock keeps a lease alive with one renewal at a time, and knows
// until when it holds: each renewal's send time plus the TTL it answered.
type leaseClock struct {
	id     clientv3.LeaseID
	ttl    time.Duration
	margin time.Duration
	mu     sync.Mutex
	until  time.Time
}

func grant(ctx context.Context, cfg Config) (*leaseClock, error) {
	sent := cfg.Now()
	gctx, cancel := context.WithTimeout(ctx, cfg.TTL)
	defer cancel()
	resp, err := cfg.Client.Grant(gctx, int64((cfg.TTL+time.Second-1)/time.Second))
	if err != nil {
		return nil, fmt.Errorf("grant a lease: %w", err)
	}
	ttl := time.Duration(resp.TTL) * time.Second
	c := &leaseClock{id: resp.ID, ttl: ttl, margin: max(ttl/10, 50*time.Millisecond)}
	c.until = sent.Add(ttl - c.margin)
	return c, nil
}

func (c *leaseClock) validUntil() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.until
}

// keep renews the lease every third of its TTL until ctx ends; when the
// lease is gone, or has not been renewed by the time it may run out, it
// calls end.
func (c *leaseClock) keep(ctx context.Context, cfg Config, end func()) {
	every := c.ttl / 3
	for {
		now := cfg.Now()
		if !now.Before(c.validUntil()) {
			cfg.Log.Warn().Msg("the election lease could not be renewed in time: stepping down")
			end()
			return
		}
		wait(ctx, min(every, c.validUntil().Sub(now)))
		if ctx.Err() != nil {
			return
		}
		sent := cfg.Now()
		kctx, cancel := context.WithTimeout(ctx, c.validUntil().Sub(sent))
		resp, err := cfg.Client.KeepAliveOnce(kctx, c.id)
		cancel()
		switch {
		case err == nil && resp.TTL > 0:
			c.mu.Lock()
			c.until = sent.Add(time.Duration(resp.TTL)*time.Second - c.margin)
			c.mu.Unlock()
		case errors.Is(err, rpctypes.ErrLeaseNotFound):
			cfg.Log.Warn().Msg("the election lease expired: stepping down")
			end()
			return
		}
	}
}

// revoke gives the lease up, so that another replica need not wait for it
// to run out; it does nothing when etcd is unreachable.
func (c *leaseClock) revoke(cl *clientv3.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _ = cl.Revoke(ctx, c.id)
}

func wait(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
