package slack

import (
	"strconv"
	"sync"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// Bounds of the reply cache. A KEP card is a few KiB of JSON; the largest
// list page stays under Slack's message limit.
const (
	replyCacheEntries  = 1024    // encoded replies kept
	replyCacheBytes    = 8 << 20 // their bytes together
	replyCacheMaxReply = 64 << 10
	replyCacheAliases  = 4096 // question texts kept with the key they parse to
)

// replyCache keeps what the HTTP slash path needs to answer a question
// again without the answerer and the renderer: which engine.AnswerKey a
// question's text parses to (that never changes), and the encoded response
// for each key and response type, tagged with the answerer's generation
// it was asked in. A reply of an older generation is never served. When
// full it forgets a random entry. It is safe for concurrent use; a lookup
// only read-locks.
type replyCache struct {
	gen engine.Generational

	mu      sync.RWMutex
	aliases map[string]engine.AnswerKey
	replies map[replyKey]*cachedReply
	bytes   int
}

// replyKey is a canonical question and whether it was asked --public.
type replyKey struct {
	q      engine.AnswerKey
	public bool
}

// cachedReply is one encoded slash-command response. It is shared and
// never changed once kept.
type cachedReply struct {
	gen    uint64
	kind   string   // the answer's kind, for metrics and logs
	query  string   // the answer's canonical question, for logs
	body   []byte   // the JSON response
	length []string // its Content-Length header value
}

// newReplyCache returns a cache for answerer's replies, or nil when the
// answerer does not say when its answers change: then nothing may be kept.
func newReplyCache(answerer knowledge.Answerer) *replyCache {
	g, ok := answerer.(engine.Generational)
	if !ok {
		return nil
	}
	return &replyCache{
		gen:     g,
		aliases: make(map[string]engine.AnswerKey),
		replies: make(map[replyKey]*cachedReply),
	}
}

// generation is the answerer's generation now: read it before asking.
func (c *replyCache) generation() uint64 { return c.gen.Generation() }

// lookup returns the reply kept for question (the slash command's text as
// slashText leaves it) and public in the answerer's current generation,
// or nil. It allocates nothing.
func (c *replyCache) lookup(question []byte, public bool) *cachedReply {
	gen := c.gen.Generation()
	c.mu.RLock()
	defer c.mu.RUnlock()
	k, ok := c.aliases[string(question)]
	if !ok {
		return nil
	}
	r := c.replies[replyKey{k, public}]
	if r == nil || r.gen != gen {
		return nil
	}
	return r
}

// keep keeps body, the encoded reply to ans, for question (parsed to key)
// and public, asked in generation gen. It copies body. It keeps nothing when
// the generation has moved on, the reply is too large, or ans is an error
// other than a miss or bad input (a store failure, a panic, a timeout).
func (c *replyCache) keep(question string, key engine.AnswerKey, public bool, gen uint64, ans *knowledge.Answer, body []byte) {
	if !keepable(ans) || len(body) > replyCacheMaxReply || c.gen.Generation() != gen {
		return
	}
	r := &cachedReply{gen: gen, kind: string(ans.Kind), query: ans.Query,
		body: append([]byte(nil), body...), length: []string{strconv.Itoa(len(body))}}
	rk := replyKey{key, public}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.aliases[question]; !ok {
		for len(c.aliases) >= replyCacheAliases {
			for q := range c.aliases { // a random one
				delete(c.aliases, q)
				break
			}
		}
		c.aliases[question] = key
	}
	if old := c.replies[rk]; old != nil {
		c.bytes -= len(old.body)
		delete(c.replies, rk)
	}
	for len(c.replies) > 0 && (len(c.replies) >= replyCacheEntries || c.bytes+len(r.body) > replyCacheBytes) {
		for k, old := range c.replies { // a random one
			c.bytes -= len(old.body)
			delete(c.replies, k)
			break
		}
	}
	c.replies[rk] = r
	c.bytes += len(r.body)
}

// keepable reports whether ans may be kept: any answer but an error, and
// the errors that stay true until the knowledge changes.
func keepable(ans *knowledge.Answer) bool {
	if ans.Kind != knowledge.KindError {
		return true
	}
	return ans.Error != nil && (ans.Error.Code == knowledge.ENOTFOUND || ans.Error.Code == knowledge.EBADINPUT)
}

// len returns how many replies and aliases are kept.
func (c *replyCache) len() (replies, aliases int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.replies), len(c.aliases)
}
