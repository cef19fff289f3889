package engine

import (
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/kepbot/kepbot/knowledge"
)

// AnswerKey is what an answer that anyone may share depends on: every part
// of a Question that its canonical form (Question.Canonical) writes. Two
// questions with the same AnswerKey have the same canonical form and the
// same answer; Text (as typed) and From are left out, and of Filters only
// the SIG an upgrade keeps to is in (upgrade 1.29 1.32 sig-node).
type AnswerKey struct {
	Kind    knowledge.QuestionKind
	KEP     int
	Version knowledge.Version
	To      knowledge.Version
	Stage   knowledge.Stage
	Notice  knowledge.NoticeKind
	Words   string
	SIG     string
}

// CacheKey returns the AnswerKey of q, and false when q's answer must not
// be shared: subscription questions (subscribe, unsubscribe, subscriptions)
// depend on who asks and where (Question.From) and change what is stored,
// and a kind CacheKey does not know may do either. It builds no string.
//
// A scan's answer depends on the manifests it carries, never kept: it has
// no key.
func CacheKey(q knowledge.Question) (AnswerKey, bool) {
	if q.Patch != nil {
		return AnswerKey{}, false // 1.35.8 is not 1.35: rare enough not to keep
	}
	switch q.Kind {
	case knowledge.AskKEP, knowledge.AskRelease, knowledge.AskReleaseStage, knowledge.AskNotices, knowledge.AskReleases, knowledge.AskHelp,
		knowledge.AskGate, knowledge.AskSearch, knowledge.AskDiff, knowledge.AskUpgrade, knowledge.AskSIG, knowledge.AskAPI:
		return AnswerKey{Kind: q.Kind, KEP: q.KEP, Version: q.Version, To: q.To, Stage: q.Stage, Notice: q.Notice, Words: q.Words, SIG: q.Filters["sig"]}, true
	}
	return AnswerKey{}, false
}

// cacheShards is how many independently locked parts a large
// CachedAnswerer has; small ones have one, so their bound is exact LRU-ish.
const cacheShards = 16

// CachedAnswerer is an Answerer that remembers the answers of another
// (the Engine) by the question's canonical form (CacheKey), so a question
// asked again is answered without reading the store. It is safe for
// concurrent use: answers are kept in shards, each behind a read-write
// lock that a hit only read-locks.
//
// Answers, and the domain errors it keeps, are shared by everyone who asks
// the same question: callers must not change an *Answer (or *Error) they
// get, nor anything it points to. Copy the Answer to change it.
//
// It keeps at most the size given to NewCachedAnswerer, evicting with the
// clock algorithm (an approximation of least recently used). It keeps
// answers and errors of code ENOTFOUND and EBADINPUT; any other error (a
// store failure, a cancelled context) and questions CacheKey refuses
// (subscriptions, which depend on Question.From) go to the wrapped
// Answerer every time.
//
// Invalidate drops every kept answer. The knowledge changes only through
// ReplaceKnowledge, and bbolt lets only one process hold the database
// file, so the process that replaces the knowledge is the one whose cache
// answers: calling Invalidate after an in-process ReplaceKnowledge keeps
// every answer it gives true to the new knowledge.
type CachedAnswerer struct {
	next   knowledge.Answerer
	gen    atomic.Uint64
	seed   maphash.Seed
	shards []cacheShard
}

// cacheShard is one independently locked part of a CachedAnswerer: a map
// from key to slot and a clock over the slots.
type cacheShard struct {
	mu    sync.RWMutex
	index map[AnswerKey]int
	slots []cacheSlot // grown as answers come, up to size
	size  int
	n     int // slots in use
	hand  int // the clock's hand: the next slot eviction looks at
	_     [64]byte
}

// cacheSlot holds one answer or domain error, the generation it was
// computed in, and whether it was asked for since the hand last passed.
type cacheSlot struct {
	key AnswerKey
	ans *knowledge.Answer
	err error
	gen uint64
	ref atomic.Bool
}

// NewCachedAnswerer returns a CachedAnswerer in front of next keeping at
// most size answers (at least one).
func NewCachedAnswerer(next knowledge.Answerer, size int) *CachedAnswerer {
	size = max(size, 1)
	n := 1
	if size >= 64*cacheShards {
		n = cacheShards
	}
	c := &CachedAnswerer{next: next, seed: maphash.MakeSeed(), shards: make([]cacheShard, n)}
	for i := range c.shards {
		per := size / n
		if i < size%n {
			per++
		}
		// Grown as answers come, not made at full size: a cache
		// mostly empty would still be scanned by every collection.
		c.shards[i].index = make(map[AnswerKey]int)
		c.shards[i].size = per
	}
	return c
}

// Answer answers q from what it keeps, or asks the wrapped Answerer and
// keeps the answer. It fails as the wrapped Answerer does. An answer the
// wrapped Answerer left without Query gets q's canonical form, on a copy.
func (c *CachedAnswerer) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	key, ok := CacheKey(q)
	if !ok {
		return c.next.Answer(ctx, q)
	}
	sh := c.shard(key)
	if e, hit := sh.get(key, c.gen.Load()); hit {
		return e.ans, e.err
	}
	gen := c.gen.Load() // before asking: an Invalidate from now on wins
	a, err := c.next.Answer(ctx, q)
	if err == nil && a == nil {
		return nil, nil // nothing to keep; the caller reports it
	}
	if err == nil && a.Query == "" {
		cp := *a
		cp.Query = q.Canonical()
		a = &cp
	}
	if err == nil || keepsError(err) {
		sh.put(key, a, err, gen, &c.gen)
	}
	return a, err
}

// keepsError reports whether err is a domain error worth keeping: a miss
// or a question the knowledge cannot answer. Both stay true until the
// knowledge changes.
func keepsError(err error) bool {
	code := knowledge.ErrorCode(err)
	return code == knowledge.ENOTFOUND || code == knowledge.EBADINPUT
}

// Generational is an Answerer that says when its answers change, such as
// *CachedAnswerer. By implementing it an Answerer promises that its answer
// to a question kept by CacheKey depends only on that key, and is the same
// *Answer, until Generation moves on: what an adapter renders from it may
// be kept until then.
type Generational interface {
	knowledge.Answerer
	Generation() uint64
}

// Generation counts Invalidate calls. Whoever keeps something derived from
// this CachedAnswerer's answers (a rendered message) tags it with the
// generation read before asking and drops it when Generation has moved on.
func (c *CachedAnswerer) Generation() uint64 { return c.gen.Load() }

// Invalidate drops every kept answer and moves Generation on. It first
// invalidates the wrapped Answerer when that has an Invalidate method (an
// *Engine), so that no question asked after the new generation can be
// answered from the old knowledge; calling the Engine's own Invalidate as
// well does no harm. Call it after ReplaceKnowledge. It never fails.
func (c *CachedAnswerer) Invalidate() {
	if inv, ok := c.next.(interface{ Invalidate() }); ok {
		inv.Invalidate()
	}
	c.gen.Add(1)
	for i := range c.shards {
		c.shards[i].reset()
	}
}

// Len returns how many answers and errors are kept.
func (c *CachedAnswerer) Len() int {
	n := 0
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.RLock()
		n += sh.n
		sh.mu.RUnlock()
	}
	return n
}

func (c *CachedAnswerer) shard(k AnswerKey) *cacheShard {
	if len(c.shards) == 1 {
		return &c.shards[0]
	}
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(string(k.Kind))
	h.WriteString(k.Words)
	maphash.WriteComparable(&h, [6]int{k.KEP, k.Version.Major, k.Version.Minor, k.To.Major, k.To.Minor, int(k.Stage)})
	h.WriteString(string(k.Notice))
	return &c.shards[h.Sum64()%uint64(len(c.shards))]
}

// kept is one answer or domain error as the cache hands it out.
type kept struct {
	ans *knowledge.Answer
	err error
}

// get returns what is kept under k in generation gen, if anything, and
// marks it used.
func (sh *cacheShard) get(k AnswerKey, gen uint64) (kept, bool) {
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	i, ok := sh.index[k]
	if !ok {
		return kept{}, false
	}
	s := &sh.slots[i]
	if s.gen != gen {
		return kept{}, false
	}
	if !s.ref.Load() {
		s.ref.Store(true)
	}
	return kept{s.ans, s.err}, true
}

// put keeps a (or err) under k, computed in generation gen, unless
// Invalidate has moved the generation on since.
func (sh *cacheShard) put(k AnswerKey, a *knowledge.Answer, err error, gen uint64, cur *atomic.Uint64) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if cur.Load() != gen {
		return
	}
	i, ok := sh.index[k]
	if !ok {
		i = sh.victim(gen)
		if old := &sh.slots[i]; old.ans != nil || old.err != nil {
			delete(sh.index, old.key) // every entry holds an answer or an error
		}
		sh.index[k] = i
	}
	s := &sh.slots[i]
	s.key, s.ans, s.err, s.gen = k, a, err, gen
	s.ref.Store(false)
}

// victim returns the slot for a new entry: a free one while there are
// any, else the first the hand finds that was not used since it last
// passed (or is from an older generation), clearing use marks on its way.
func (sh *cacheShard) victim(gen uint64) int {
	if sh.n < sh.size {
		if sh.n == len(sh.slots) {
			sh.slots = append(sh.slots, cacheSlot{})
		}
		sh.n++
		return sh.n - 1
	}
	for {
		i := sh.hand
		sh.hand = (sh.hand + 1) % len(sh.slots)
		s := &sh.slots[i]
		if s.gen == gen && s.ref.Load() {
			s.ref.Store(false)
			continue
		}
		return i
	}
}

// reset drops every entry of the shard.
func (sh *cacheShard) reset() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	clear(sh.index)
	for i := range sh.slots[:sh.n] {
		s := &sh.slots[i]
		s.key, s.ans, s.err, s.gen = AnswerKey{}, nil, nil, 0
		s.ref.Store(false)
	}
	sh.n, sh.hand = 0, 0
}
