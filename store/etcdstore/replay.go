package etcdstore

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Defaults of ReplayConfig.
const (
	// DefaultReplayTimeout bounds one check. Slack gives a request 3 s,
	// and the slash command's inline budget (2 s) starts after the check;
	// a healthy etcd commits in milliseconds.
	DefaultReplayTimeout = 500 * time.Millisecond
	// DefaultReplayGranularity is how the signatures' expiries are grouped
	// onto leases: one lease for all those ending in the same minute, so a
	// replica asks etcd for a lease about once a minute, not once a
	// request. It is also how long a signature is kept past its window, at
	// least: that much clock skew between replicas is covered.
	DefaultReplayGranularity = time.Minute
	// maxReplayTTL caps a lease, whatever until a caller asks for (Slack's
	// is at most ten minutes ahead).
	maxReplayTTL = time.Hour
)

// ReplayConfig tunes a ReplayGuard; the zero value is the defaults.
type ReplayConfig struct {
	Timeout     time.Duration    // DefaultReplayTimeout when zero
	Granularity time.Duration    // DefaultReplayGranularity when zero
	Now         func() time.Time // time.Now when nil
}

// ReplayGuard keeps the signatures of the Slack requests the replicas have
// served in etcd, so that a request replayed to any replica is refused
// (it implements the Slack adapter's ReplayGuard). Each signature is a key
// under the store's prefix, "replay/slack/" and the signature, created by
// a transaction that puts it only if it is absent (CreateRevision == 0):
// of the replicas that get the same request, the first to record it
// serves it and every other one finds it there. A key lives on a lease
// that ends at least Granularity after the request's window and at most
// twice that, so etcd forgets the signatures with their windows and holds
// about as many keys as requests came in the last six minutes.
//
// A check is one round trip (a transaction with one comparison and one
// put, which etcd commits through its log), plus a lease grant about once
// a minute. When etcd does not answer within Timeout, Seen fails with an
// error that is ErrUnavailable; the adapter then relies on its own memory
// and changes no subscription (see slack.WithReplayGuard). It is safe for
// concurrent use.
type ReplayGuard struct {
	s       *Store
	timeout time.Duration
	gran    time.Duration
	now     func() time.Time

	mu     sync.Mutex
	leases map[int64]*replayLease // by bucket: the expiry / gran, rounded up
}

// replayLease is one lease shared by the signatures whose expiry falls in
// one bucket; ready closes once it is granted (id) or failed (err).
type replayLease struct {
	ready chan struct{}
	id    clientv3.LeaseID
	end   time.Time // when the bucket ends: the lease lasts Granularity more
	err   error
}

// ReplayGuard returns a guard keeping signatures under s's prefix. Every
// replica makes its own over the same etcd and prefix; they share the set.
func (s *Store) ReplayGuard(cfg ReplayConfig) *ReplayGuard {
	g := &ReplayGuard{s: s, timeout: cfg.Timeout, gran: cfg.Granularity, now: cfg.Now, leases: map[int64]*replayLease{}}
	if g.timeout <= 0 {
		g.timeout = DefaultReplayTimeout
	}
	if s.timeout < g.timeout {
		g.timeout = s.timeout
	}
	if g.gran <= 0 {
		g.gran = DefaultReplayGranularity
	}
	if g.now == nil {
		g.now = time.Now
	}
	return g
}

func (s *Store) kReplay(signature string) string { return s.prefix + "replay/slack/" + signature }

// Seen records signature until until (on a lease that ends later) unless
// some replica did already, and reports whether one did.
func (g *ReplayGuard) Seen(parent context.Context, signature string, until time.Time) (bool, error) {
	if signature == "" {
		return false, errors.New("replay guard: empty signature")
	}
	ctx, cancel := context.WithTimeout(parent, g.timeout)
	defer cancel()
	key := g.s.kReplay(signature)
	val := strconv.FormatInt(until.Unix(), 10)
	for attempt := 0; ; attempt++ {
		l, err := g.lease(ctx, until)
		if err != nil {
			return false, fail(parent, "check a Slack request's signature", err)
		}
		resp, err := g.s.c.Txn(ctx).
			If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
			Then(clientv3.OpPut(key, val, clientv3.WithLease(l.id))).
			Commit()
		if errors.Is(err, rpctypes.ErrLeaseNotFound) && attempt == 0 {
			g.drop(l) // gone sooner than reckoned (a clock jumped): take another
			continue
		}
		if err != nil {
			return false, fail(parent, "check a Slack request's signature", err)
		}
		return !resp.Succeeded, nil
	}
}

// lease returns the lease of until's bucket, granting it when no request
// of this replica has yet; the requests that need it meanwhile wait for
// that one grant.
func (g *ReplayGuard) lease(ctx context.Context, until time.Time) (*replayLease, error) {
	gran := g.gran.Nanoseconds()
	b := (until.UnixNano() + gran - 1) / gran
	g.mu.Lock()
	l, ok := g.leases[b]
	if !ok {
		now := g.now()
		for k, old := range g.leases { // the buckets whose leases are over
			if old.end.Add(g.gran).Before(now) {
				delete(g.leases, k)
			}
		}
		l = &replayLease{ready: make(chan struct{}), end: time.Unix(0, b*gran)}
		g.leases[b] = l
		g.mu.Unlock()
		g.grant(ctx, l, now)
	} else {
		g.mu.Unlock()
	}
	select {
	case <-l.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if l.err != nil {
		return nil, l.err
	}
	return l, nil
}

// grant asks etcd for l's lease: from now to Granularity past the end of
// its bucket, in whole seconds rounded up. Other requests may be waiting
// for it, so the asking request going away does not cancel it; the
// timeout still holds. A failed grant is forgotten, so the next request
// asks again.
func (g *ReplayGuard) grant(ctx context.Context, l *replayLease, now time.Time) {
	defer close(l.ready)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.timeout)
	defer cancel()
	ttl := min(max(l.end.Add(g.gran).Sub(now), time.Second), maxReplayTTL)
	resp, err := g.s.c.Grant(ctx, int64((ttl+time.Second-1)/time.Second))
	if err != nil {
		l.err = err
		g.drop(l)
		return
	}
	l.id = resp.ID
}

// drop forgets l, if it is still its bucket's lease.
func (g *ReplayGuard) drop(l *replayLease) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gran := g.gran.Nanoseconds()
	if b := l.end.UnixNano() / gran; g.leases[b] == l {
		delete(g.leases, b)
	}
}

// Recorded reports whether some replica has recorded signature, without
// recording it: for tests and for an operator's look.
func (g *ReplayGuard) Recorded(parent context.Context, signature string) (bool, error) {
	v, _, err := g.s.get(parent, "read a Slack request's signature", g.s.kReplay(signature))
	return v != nil, err
}
