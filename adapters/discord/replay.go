package discord

import (
	"sync"
	"time"
)

// maxSeenIDs bounds each generation of seenIDs.
const maxSeenIDs = 100_000

// seenIDs remembers interaction IDs so that a signed request replayed
// inside the signature window is refused. IDs live in two generations, the
// current one and the one before; the current one becomes the old one
// after 2×SignatureWindow, so an ID is remembered at least that long, or
// sooner once it holds max IDs, so memory stays bounded under any load (at
// more than max IDs per 2×SignatureWindow, the memory is that much
// shorter). Each check costs the same however many IDs are kept. It is
// safe for concurrent use.
type seenIDs struct {
	mu       sync.Mutex
	max      int
	cur, old map[string]struct{}
	since    time.Time // when cur began
}

func newSeenIDs(max int) *seenIDs {
	return &seenIDs{max: max, cur: map[string]struct{}{}, old: map[string]struct{}{}}
}

// first reports whether id is new at now, and remembers it.
func (s *seenIDs) first(id string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.since.IsZero() {
		s.since = now
	}
	if now.Sub(s.since) >= 2*SignatureWindow || len(s.cur) >= s.max {
		s.old, s.cur, s.since = s.cur, make(map[string]struct{}, len(s.cur)), now
	}
	if _, ok := s.cur[id]; ok {
		return false
	}
	if _, ok := s.old[id]; ok {
		return false
	}
	s.cur[id] = struct{}{}
	return true
}
