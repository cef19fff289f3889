package discord

import (
	"strconv"
	"testing"
	"time"
)

// TestSeenIDsWindow: an ID is refused again for at least twice the
// signature window, across a change of generation, and forgotten after.
func TestSeenIDsWindow(t *testing.T) {
	s := newSeenIDs(maxSeenIDs)
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	if !s.first("a", t0) {
		t.Fatal("a new ID refused")
	}
	if s.first("a", t0.Add(time.Second)) {
		t.Fatal("a replay inside the window accepted")
	}
	late := t0.Add(2*SignatureWindow - time.Second)
	if !s.first("b", late) {
		t.Fatal("another ID refused")
	}
	turn := t0.Add(2 * SignatureWindow)
	if !s.first("c", turn) { // a new generation begins here
		t.Fatal("c refused")
	}
	if s.first("a", turn) || s.first("b", turn.Add(time.Minute)) {
		t.Error("an ID forgotten less than twice the window after it was seen")
	}
	if !s.first("a", turn.Add(2*SignatureWindow)) {
		t.Error("an ID still refused two generations later")
	}
}

// TestSeenIDsBounded: under more IDs than a generation holds, memory stays
// at two generations and the newest IDs are still refused again.
func TestSeenIDsBounded(t *testing.T) {
	const max = 50
	s := newSeenIDs(max)
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for i := range 10 * max {
		if !s.first(strconv.Itoa(i), t0) {
			t.Fatalf("new ID %d refused", i)
		}
		if n := len(s.cur) + len(s.old); n > 2*max {
			t.Fatalf("%d IDs kept after %d, want at most %d", n, i+1, 2*max)
		}
	}
	for i := 10*max - max; i < 10*max; i++ {
		if s.first(strconv.Itoa(i), t0) {
			t.Fatalf("recent ID %d accepted again", i)
		}
	}
}
