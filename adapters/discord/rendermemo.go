package discord

import (
	"encoding/json"
	"sync"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// Bounds of the render memo: a KEP card is a few KiB of JSON.
const (
	memoEntries = 1024
	memoBytes   = 8 << 20
)

// renderMemo keeps how answers a engine.Generational shares were rendered: the first
// response, encoded, and the follow-up messages, so asking again costs no
// rendering and no encoding. It starts over when the generation moves on
// or when it is full. It is safe for concurrent use; a hit only
// read-locks.
type renderMemo struct {
	gen engine.Generational

	mu    sync.RWMutex
	at    uint64 // the generation the entries belong to
	m     map[memoKey]*rendering
	bytes int
}

type memoKey struct {
	ans     *knowledge.Answer
	button  bool
	private bool
}

// rendering is one answer as sent; shared and never changed once kept.
type rendering struct {
	first *callback
	rest  []Message
}

// newRenderMemo returns a memo for answerer's answers, or nil when it
// does not share them: then each answer is new and nothing is worth
// keeping.
func newRenderMemo(answerer knowledge.Answerer) *renderMemo {
	g, ok := answerer.(engine.Generational)
	if !ok {
		return nil
	}
	return &renderMemo{gen: g, m: map[memoKey]*rendering{}}
}

// render returns ans drawn, privately or not (see draw), the first
// message made a response by respond (a reply, or a replacement when a
// button asked), from the memo when it was rendered before in this
// generation.
func (r *renderMemo) render(ans *knowledge.Answer, button, private bool, respond func(Message) *callback) (*callback, []Message) {
	if r == nil || ans.Kind == knowledge.KindError {
		// An error answer is made anew for each asking: kept by its
		// pointer, it would never be found again.
		msgs := draw(ans, private)
		return respond(msgs[0]), msgs[1:]
	}
	k := memoKey{ans, button, private}
	gen := r.gen.Generation() // before rendering: a later generation never gets this one's rendering
	r.mu.RLock()
	got, ok := r.m[k]
	hit := ok && r.at == gen
	r.mu.RUnlock()
	if hit {
		return got.first, got.rest
	}
	msgs := draw(ans, private)
	first := respond(msgs[0])
	raw, err := json.Marshal(first)
	if err != nil {
		return first, msgs[1:] // the caller encodes it again and reports the error
	}
	first.raw = raw
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at != gen || len(r.m) >= memoEntries || r.bytes+len(raw) > memoBytes {
		clear(r.m)
		r.at, r.bytes = gen, 0
	}
	r.m[k] = &rendering{first: first, rest: msgs[1:]}
	r.bytes += len(raw)
	return first, msgs[1:]
}
