package etcdstore

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/digest"
	"github.com/kepbot/kepbot/store"
)

// Defaults for what Config leaves out.
const (
	DefaultPrefix         = "/kepbot/"
	DefaultDialTimeout    = 5 * time.Second
	DefaultRequestTimeout = 3 * time.Second
)

// ErrUnavailable is what every method's error wraps when etcd did not
// answer in time: its message is what a person in chat is told.
var ErrUnavailable error = &knowledge.Error{Code: knowledge.EINTERNAL,
	Message: "The shared store is unreachable right now, so nothing was changed; try again in a minute."}

// ErrNotLeader is what a fenced write fails with once the replica is no
// longer the leader that the fence names.
var ErrNotLeader = errors.New("etcd store: this replica is no longer the leader; the write was refused")

// Config says how to reach etcd.
type Config struct {
	Endpoints []string
	TLS       *tls.Config // nil: plain connections
	Username  string
	Password  string // never logged, never in an error
	// Prefix is put before every key; DefaultPrefix when empty. Several
	// kepbots (a staging one, say) can share an etcd with distinct prefixes.
	Prefix         string
	DialTimeout    time.Duration
	RequestTimeout time.Duration
	// ChunkBytes is the size of one corpus chunk; DefaultChunkBytes when
	// zero (tests use small ones).
	ChunkBytes int
}

// Fence names the leader's election key: a write through a fenced Store
// succeeds only while that key exists with that creation revision.
type Fence struct {
	Key string
	Rev int64
}

// Store is the shared state in etcd. Make it with Open; it is safe for
// concurrent use.
type Store struct {
	c       *clientv3.Client
	ownsC   bool
	prefix  string
	timeout time.Duration
	chunk   int
	fence   *Fence
}

var _ store.Shared = (*Store)(nil)

// Open connects to etcd and checks that it answers. It fails within
// DialTimeout with a message naming the endpoints (never the password).
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if len(cfg.Endpoints) == 0 {
		return nil, errors.New("etcd store: no endpoints; set store.etcd.endpoints (BOT_ETCD_ENDPOINTS)")
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	c, err := clientv3.New(clientv3.Config{
		Endpoints: cfg.Endpoints, DialTimeout: cfg.DialTimeout, TLS: cfg.TLS,
		Username: cfg.Username, Password: cfg.Password,
		Logger: zap.NewNop(), DialKeepAliveTime: 10 * time.Second, DialKeepAliveTimeout: 5 * time.Second,
	})
	if err != nil {
		return nil, unreachable(cfg, err)
	}
	s := New(c, cfg)
	s.ownsC = true
	cctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	if _, err := c.Get(cctx, s.prefix+"probe"); err != nil {
		c.Close()
		return nil, unreachable(cfg, err)
	}
	return s, nil
}

// unreachable says which etcd did not answer and what to check.
func unreachable(cfg Config, err error) error {
	return fmt.Errorf("etcd at %s did not answer within %s (store.etcd.dial_timeout): %s; "+
		"check store.etcd.endpoints (BOT_ETCD_ENDPOINTS), TLS and credentials", strings.Join(cfg.Endpoints, ","), cfg.DialTimeout, safeErr(err))
}

// New returns a Store over a client made elsewhere (tests, the leader
// election's own client); Close leaves c open.
func New(c *clientv3.Client, cfg Config) *Store {
	p := cfg.Prefix
	if p == "" {
		p = DefaultPrefix
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	t := cfg.RequestTimeout
	if t <= 0 {
		t = DefaultRequestTimeout
	}
	chunk := cfg.ChunkBytes
	if chunk <= 0 {
		chunk = DefaultChunkBytes
	}
	return &Store{c: c, prefix: p, timeout: t, chunk: chunk}
}

// Client returns the etcd client the store uses.
func (s *Store) Client() *clientv3.Client { return s.c }

// Prefix returns the key prefix, ending in "/".
func (s *Store) Prefix() string { return s.prefix }

// Fenced returns a view of s whose outbox moves, schedule runs, source
// states and knowledge publications succeed only while f's key holds; the
// others fail with ErrNotLeader. Subscriptions, the ledger and digest
// enqueues stay unfenced: any replica may take a subscribe command, and
// enqueues are idempotent by construction.
func (s *Store) Fenced(f Fence) *Store {
	cp := *s
	cp.ownsC = false
	cp.fence = &f
	return &cp
}

// Close closes the client if Open made it.
func (s *Store) Close() error {
	if s.ownsC {
		return s.c.Close()
	}
	return nil
}

// Keys under the prefix.
func (s *Store) kSub(id string) string       { return s.prefix + "subscriptions/" + id }
func (s *Store) kLedgerSeq() string          { return s.prefix + "ledger/seq" }
func (s *Store) kLedgerFormat() string       { return s.prefix + "ledger/format" }
func (s *Store) kDelivery(key string) string { return s.prefix + "outbox/d/" + key }
func (s *Store) kSending(key string) string  { return s.prefix + "outbox/sending/" + key }
func (s *Store) kDuePrefix(platform string) string {
	return s.prefix + "outbox/due/" + platform + "/"
}
func (s *Store) kDigest(id string) string  { return s.prefix + "digests/" + id }
func (s *Store) kSchedule(n string) string { return s.prefix + "schedule/" + n }
func (s *Store) kSources() string          { return s.prefix + "sources" }
func (s *Store) kGeneration() string       { return s.prefix + "knowledge/generation" }
func (s *Store) kCorpusGen(g uint64) string {
	return fmt.Sprintf("%sknowledge/corpus/%020d/", s.prefix, g)
}

// kDue is a pending delivery's entry in its platform's due index: its
// next attempt as 16 hex digits of Unix nanoseconds, so keys sort by time.
func (s *Store) kDue(dv *digest.Delivery) string {
	return s.kDuePrefix(dv.Platform) + timeHex(dv.NextAttempt) + "/" + dv.Key
}

func timeHex(t time.Time) string {
	n := t.UnixNano()
	if n < 0 {
		n = 0
	}
	return fmt.Sprintf("%016x", uint64(n))
}

// ctx bounds one request to etcd.
func (s *Store) ctx(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, s.timeout)
}

// fail turns an etcd client error into ErrUnavailable, unless the
// caller's own context ended.
func fail(parent context.Context, what string, err error) error {
	if perr := parent.Err(); perr != nil {
		return fmt.Errorf("%s: %w", what, perr)
	}
	return fmt.Errorf("%s: %w (%s)", what, ErrUnavailable, safeErr(err))
}

// safeErr is err's text, which etcd's client never fills with a password.
func safeErr(err error) string { return err.Error() }

// txn runs one transaction: cmps (and the fence, when fenced) then ops.
// It reports whether the comparisons held; with fenced, a failure because
// the fence no longer holds is ErrNotLeader.
func (s *Store) txn(parent context.Context, what string, fenced bool, cmps []clientv3.Cmp, ops []clientv3.Op) (*clientv3.TxnResponse, error) {
	if fenced && s.fence != nil {
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(s.fence.Key), "=", s.fence.Rev))
	}
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Txn(ctx).If(cmps...).Then(ops...).Commit()
	if err != nil {
		return nil, fail(parent, what, err)
	}
	if !resp.Succeeded && fenced && s.fence != nil {
		if err := s.checkFence(parent); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	return resp, nil
}

// checkFence returns ErrNotLeader when the fence's key is gone or another.
func (s *Store) checkFence(parent context.Context) error {
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Get(ctx, s.fence.Key)
	if err != nil {
		return fail(parent, "check leadership", err)
	}
	if len(resp.Kvs) == 0 || resp.Kvs[0].CreateRevision != s.fence.Rev {
		return ErrNotLeader
	}
	return nil
}

// get reads one key: its value (nil when absent) and its mod revision (0).
func (s *Store) get(parent context.Context, what, key string) ([]byte, int64, error) {
	ctx, cancel := s.ctx(parent)
	defer cancel()
	resp, err := s.c.Get(ctx, key)
	if err != nil {
		return nil, 0, fail(parent, what, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, 0, nil
	}
	return resp.Kvs[0].Value, resp.Kvs[0].ModRevision, nil
}

// unchanged compares key's mod revision with rev; 0 means "absent".
func unchanged(key string, rev int64) clientv3.Cmp {
	return clientv3.Compare(clientv3.ModRevision(key), "=", rev)
}

// maxAttempts bounds how often a write whose comparison failed because
// another writer came first reads again and retries.
const maxAttempts = 64

// errConflict is a write that lost every retry to other writers.
var errConflict = errors.New("other writers kept changing the same keys; try again")
