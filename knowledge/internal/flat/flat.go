package flat

import (
	"sort"
	"strings"
)

// Strings is a list of strings kept as one string.
type Strings struct {
	text string
	ends []uint32 // ends[i]: where string i ends in text
}

// NewStrings keeps ss, in order.
func NewStrings(ss []string) Strings {
	size := 0
	for _, s := range ss {
		size += len(s)
	}
	var b strings.Builder
	b.Grow(size)
	ends := make([]uint32, len(ss))
	for i, s := range ss {
		b.WriteString(s)
		ends[i] = uint32(b.Len())
	}
	return Strings{text: b.String(), ends: ends}
}

// Len is the number of strings.
func (s Strings) Len() int { return len(s.ends) }

// At returns string i, a piece of the one string.
func (s Strings) At(i int) string { return s.text[start(s.ends, i):s.ends[i]] }

// Search returns the first i whose string is not less than t, or Len; the
// strings must be sorted.
func (s Strings) Search(t string) int {
	return sort.Search(s.Len(), func(i int) bool { return s.At(i) >= t })
}

// Lists is a list of lists of T kept as one slice.
type Lists[T any] struct {
	items []T
	ends  []uint32 // ends[i]: where list i ends in items
}

// NewLists keeps ls, in order.
func NewLists[T any](ls [][]T) Lists[T] {
	n := 0
	for _, l := range ls {
		n += len(l)
	}
	items := make([]T, 0, n)
	ends := make([]uint32, len(ls))
	for i, l := range ls {
		items = append(items, l...)
		ends[i] = uint32(len(items))
	}
	return Lists[T]{items: items, ends: ends}
}

// Len is the number of lists.
func (l Lists[T]) Len() int { return len(l.ends) }

// At returns list i, with no room past its end: appending to it copies.
func (l Lists[T]) At(i int) []T {
	from, to := start(l.ends, i), l.ends[i]
	return l.items[from:to:to]
}

// start is where piece i begins, given where every piece ends.
func start(ends []uint32, i int) uint32 {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}
