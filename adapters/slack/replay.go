package slack

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/kepbot/kepbot/knowledge"
)

// A signed request stays valid for the whole signature window (five
// minutes either side of its timestamp), and Slack's signature is not a
// nonce: a request captured on the way (a proxy's log, a misrouted copy)
// could be sent again, byte for byte, and would verify. So the HTTP
// endpoints remember the signature of every request they served until the
// request's timestamp has left the window, and refuse a repeat with 401
// ("replayed request") before anything is read, answered or changed: a
// replayed `subscribe` does not subscribe again, a replayed question is not
// answered again, not even from the reply cache.
//
// Only verified requests are remembered, so nobody without the signing
// secret can fill the memory. Slack itself never sends the same bytes
// twice: each invocation carries its own trigger_id, and an Events API
// retry (X-Slack-Retry-Num) is a new request, signed when it is sent, at
// least seconds after the first (3 s for an http_timeout, then about a
// minute and five minutes; a retry keeping the first timestamp would be
// refused as stale at five minutes by every Slack SDK), so its signature
// differs and it passes; the event it carries is answered once by its
// event_id (dedupe.go).

// ReplayGuard remembers the signatures of the requests already served.
// The adapter always keeps them in its memory (the single-process
// default); replicas sharing state in etcd also share them there
// (etcdstore.ReplayGuard, given with WithReplayGuard), so that a request
// replayed to another replica is refused too. Implementations are safe
// for concurrent use.
type ReplayGuard interface {
	// Seen records signature (Slack's "v0=" and 64 lower-case hex digits)
	// as used until until, and reports whether it was recorded already,
	// and not yet expired: the request is then a replay. Of two calls with
	// the same signature at once, exactly one reports false. It fails when
	// it cannot tell (etcd unreachable).
	Seen(ctx context.Context, signature string, until time.Time) (bool, error)
}

// WithReplayGuard shares the signatures of served requests through g as
// well as keeping them in memory: replicas on etcd share one set.
//
// When g fails (etcd unreachable), the adapter does not refuse the
// request: it relies on its own memory, which still refuses every replay
// of a request this replica served, and refuses the questions that change
// subscriptions with the shared store's own "unreachable, nothing was
// changed, try again" (they could not be written anyway). What it lets
// through then is a replay, to another replica, of a request that only
// reads: answered twice, nothing changed. Refusing every request instead
// would stop all answers while etcd is away, against serve's promise to
// keep answering from each replica's knowledge, and Slack disables the
// event subscription of an app failing 5% of its deliveries in an hour.
// After a failure g is left alone for sharedRetry, so an etcd that is
// away costs one timeout, not one a request.
func WithReplayGuard(g ReplayGuard) Option { return func(a *Adapter) { a.shared = g } }

// sharedRetry is how long the shared guard is left alone after it failed.
const sharedRetry = 2 * time.Second

// DefaultReplayMemory bounds the signatures the in-memory guard keeps.
// A signature is kept about five minutes (until its timestamp leaves the
// window: at most ten, for a request signed five minutes ahead). Slack
// sends an app at most 30,000 Events API deliveries an hour per workspace
// (8 a second) and slash commands and button presses at the pace people
// type, so 65,536 keep a whole window at 218 requests a second, 26
// workspaces at the Events ceiling, in about 5 MiB (an entry is a 16-byte
// key and its expiry, in a map and in a queue: 4.8 MiB measured full,
// TestMemoryReplayMemory). Past that the oldest go first, before their
// time, and the adapter logs it: memory stays bounded, and replays of the
// oldest requests pass until the load falls. Only verified requests are
// kept, so only real Slack traffic fills it, never a flood of forgeries.
const DefaultReplayMemory = 1 << 16

// errReplayed is why a request is refused after its signature checked
// out: it was served before.
var errReplayed = errors.New("replayed request")

// errSharedUnchecked answers a subscription change whose request could not
// be checked against the other replicas: the words of etcdstore's
// ErrUnavailable, which the change would have met anyway.
var errSharedUnchecked error = &knowledge.Error{Code: knowledge.EINTERNAL,
	Message: "The shared store is unreachable right now, so nothing was changed; try again in a minute."}

// replayKey is a signature's 256 bits folded into 128 (its halves XORed):
// enough to tell apart the requests of a window (an HMAC nobody can steer
// without the secret, and only verified requests are recorded), in half
// the memory.
type replayKey [16]byte

type replayEntry struct {
	key   replayKey
	until int64 // Unix nanoseconds
}

// memoryReplay is the in-memory ReplayGuard: a map of the signatures kept,
// with their expiry, and a queue of them in the order they came, oldest
// first, that bounds the map to max entries. A check allocates nothing
// once the queue has grown.
type memoryReplay struct {
	now func() time.Time
	max int
	// early is told when the oldest signature goes before its time, and
	// how long it had left; it is called with mu held.
	early func(left time.Duration)

	mu    sync.Mutex
	kept  map[replayKey]int64
	queue []replayEntry // a ring: n entries from head
	head  int
	n     int
}

func newMemoryReplay(max int, now func() time.Time) *memoryReplay {
	if max < 1 {
		max = 1
	}
	return &memoryReplay{now: now, max: max, kept: make(map[replayKey]int64)}
}

// Seen implements ReplayGuard. It never fails.
func (m *memoryReplay) Seen(_ context.Context, signature string, until time.Time) (bool, error) {
	return m.seen(keyOf(signature), until), nil
}

// seen is Seen for a signature's key: the adapter's way, with the bytes
// the verifier decoded.
func (m *memoryReplay) seen(k replayKey, until time.Time) bool {
	now := m.now().UnixNano()
	u := until.UnixNano()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.expire(now)
	if at, ok := m.kept[k]; ok && at >= now {
		return true
	}
	if m.n == m.max {
		e := m.pop()
		if e.until >= now && m.early != nil {
			m.early(time.Duration(e.until - now))
		}
	}
	m.push(replayEntry{k, u})
	m.kept[k] = u
	return false
}

// expire forgets the signatures at the head of the queue whose time is up.
// One that came later but expires sooner waits for those before it; Seen
// checks the expiry of what it finds.
func (m *memoryReplay) expire(now int64) {
	for m.n > 0 && m.queue[m.head].until < now {
		m.pop()
	}
}

// pop removes the oldest entry, and its signature unless it came again.
func (m *memoryReplay) pop() replayEntry {
	e := m.queue[m.head]
	if at, ok := m.kept[e.key]; ok && at == e.until {
		delete(m.kept, e.key)
	}
	m.queue[m.head] = replayEntry{}
	m.head = (m.head + 1) % len(m.queue)
	m.n--
	return e
}

// push appends e, growing the ring (by doubling, up to max) when full.
func (m *memoryReplay) push(e replayEntry) {
	if m.n == len(m.queue) {
		size := min(max(2*len(m.queue), 64), m.max)
		q := make([]replayEntry, size)
		for i := range m.n {
			q[i] = m.queue[(m.head+i)%len(m.queue)]
		}
		m.queue, m.head = q, 0
	}
	m.queue[(m.head+m.n)%len(m.queue)] = e
	m.n++
}

// len returns how many signatures are kept.
func (m *memoryReplay) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.kept)
}

// keyOf is the key of signature: its 32 bytes folded when it is "v0=" and
// 64 hex digits, as Slack's are, else a hash of the whole string folded.
func keyOf(signature string) replayKey {
	var b [sha256.Size]byte
	if len(signature) != 3+2*len(b) || signature[:3] != "v0=" || !decodeHex(b[:], signature[3:]) {
		b = sha256.Sum256([]byte(signature))
	}
	return fold(&b)
}

// fold XORs the halves of a signature's bytes.
func fold(b *[sha256.Size]byte) replayKey {
	var k replayKey
	for i := range k {
		k[i] = b[i] ^ b[i+len(k)]
	}
	return k
}

// replayed records req with the replay guards and reports whether it was
// a replay: one this replica served (its memory, which gets the bytes the
// verifier decoded), or another (the shared guard, which gets the
// signature in lower case). unchecked is true when the shared guard could
// not be asked.
func (a *Adapter) replayed(ctx context.Context, req *signed) (replayed, unchecked bool) {
	if a.cfg.AllowReplays {
		return false, false // a load test that sends one signed request again and again
	}
	if a.replay.seen(fold(&req.mac), req.until) {
		return true, false
	}
	if a.shared == nil {
		return false, false
	}
	now := a.clock()
	if now.UnixNano() < a.sharedDown.Load() {
		return false, true
	}
	seen, err := a.shared.Seen(ctx, req.signature(), req.until)
	if err != nil {
		a.sharedDown.Store(now.Add(sharedRetry).UnixNano())
		l := a.log.Sample(sharedSampler)
		l.Warn().Str("error", err.Error()).
			Msg("slack: the replay check shared by the replicas is unavailable; refusing the replays this replica saw, and subscription changes")
		return false, true
	}
	return seen, false
}

// sharedSampler samples the warning that the shared guard failed.
var sharedSampler = &zerolog.BurstSampler{Burst: 1, Period: time.Minute}

// replayUncheckedKey marks the context of a request the shared replay
// guard could not check.
type replayUncheckedKey struct{}

func withReplayUnchecked(ctx context.Context) context.Context {
	return context.WithValue(ctx, replayUncheckedKey{}, true)
}

// replayUnchecked reports whether ctx is a request's that the shared
// replay guard could not check: it may be a replay served by another
// replica, so it changes no subscription.
func replayUnchecked(ctx context.Context) bool {
	v, _ := ctx.Value(replayUncheckedKey{}).(bool)
	return v
}

// detached is a context for work that outlives the request of ctx (a
// background answer), keeping only its replay mark.
func detached(ctx context.Context) context.Context {
	if replayUnchecked(ctx) {
		return withReplayUnchecked(context.Background())
	}
	return context.Background()
}

// replaySampler samples the warning that the in-memory guard is full.
var replaySampler = &zerolog.BurstSampler{Burst: 1, Period: time.Minute}

// replayFull warns, once a minute at most, that the in-memory guard forgot
// a signature before its window ended.
func (a *Adapter) replayFull(left time.Duration) {
	l := a.log.Sample(replaySampler)
	l.Warn().Int("kept", DefaultReplayMemory).Dur("left", left).
		Msg("slack: more requests in the signature window than the replay guard keeps; the oldest are forgotten early, so their replays pass")
}
