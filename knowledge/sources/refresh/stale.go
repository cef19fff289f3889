package refresh

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/store"
)

// StaleNotes is an Answerer that adds a note to every answer while some
// sources have failed for longer than a configured age: answers still come
// from the last good knowledge (stale beats down), and say since when it
// may be out of date. Serve sets the note after every pass (Update).
type StaleNotes struct {
	next    knowledge.Answerer
	note    atomic.Pointer[string]
	changes atomic.Uint64 // note changes, for Generation
}

// Generation moves on whenever the answers may change: when next's does
// (a *engine.CachedAnswerer's Invalidate) and when the note changes.
// Caches of rendered answers key on it.
func (s *StaleNotes) Generation() uint64 {
	g := s.changes.Load()
	if gn, ok := s.next.(interface{ Generation() uint64 }); ok {
		g += gn.Generation()
	}
	return g
}

// NewStaleNotes wraps next.
func NewStaleNotes(next knowledge.Answerer) *StaleNotes { return &StaleNotes{next: next} }

// Answer answers q with next, adding the staleness note to answers about
// the knowledge (not to help, subscriptions or errors). Answers next
// shares are copied before the note is added.
func (s *StaleNotes) Answer(ctx context.Context, q knowledge.Question) (*knowledge.Answer, error) {
	a, err := s.next.Answer(ctx, q)
	note := s.note.Load()
	if err != nil || a == nil || note == nil {
		return a, err
	}
	switch a.Kind {
	case knowledge.KindHelp, knowledge.KindSubscription, knowledge.KindError:
		return a, nil
	}
	cp := *a
	cp.Notes = append(append(make([]string, 0, len(a.Notes)+1), a.Notes...), *note)
	return &cp, nil
}

// Note returns the note answers carry now, "" for none.
func (s *StaleNotes) Note() string {
	if n := s.note.Load(); n != nil {
		return *n
	}
	return ""
}

// Update sets the note from the sources' states: the sources failing for
// longer than age at now, and since when.
func (s *StaleNotes) Update(states map[string]store.SourceState, now time.Time, age time.Duration) {
	note := StaleNote(states, now, age)
	if note == s.Note() {
		return
	}
	if note == "" {
		s.note.Store(nil)
	} else {
		s.note.Store(&note)
	}
	s.changes.Add(1)
}

// StaleNote says which sources have failed for longer than age at now, and
// since when, in one sentence; "" when none has.
func StaleNote(states map[string]store.SourceState, now time.Time, age time.Duration) string {
	var names []string
	since := time.Time{}
	for name, st := range states {
		if IsHostState(name) || st.FailingSince.IsZero() || now.Sub(st.FailingSince) < age {
			continue
		}
		names = append(names, name)
		if since.IsZero() || st.FailingSince.Before(since) {
			since = st.FailingSince
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	what := strings.Join(names, ", ")
	if len(names) > 3 {
		what = strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more sources", len(names)-3)
	}
	return fmt.Sprintf("This may be out of date: I could not refresh %s since %s; I answer from what I last read.",
		what, since.UTC().Format("2006-01-02 15:04 MST"))
}
