package store

import (
	"errors"
	"fmt"
	"math"

	"github.com/kepbot/kepbot/knowledge"
)

// The value codec is a compact, hand-written binary format: every field is
// written in a fixed order, integers as (zig-zag) varints, strings and lists
// with a varint length in front. It exists because encoding/json took about
// 28 µs to decode one KEP with five 600-byte mentions, and a lookup must be
// a small fraction of the 50 µs answer budget (see BenchmarkDecodeKEP).
//
// Every value starts with a format byte naming its record type and layout,
// so a value of the wrong kind or of a future layout is an error, not
// garbage. Decoders never panic: a short, long or malformed value returns
// errCorrupt.

// errCorrupt is wrapped by every decode failure.
var errCorrupt = errors.New("corrupt value")

// encoder appends fields to buf.
type encoder struct {
	buf []byte
}

func (e *encoder) uvarint(x uint64) {
	for x >= 0x80 {
		e.buf = append(e.buf, byte(x)|0x80)
		x >>= 7
	}
	e.buf = append(e.buf, byte(x))
}

// int writes a signed integer zig-zag encoded, so small negatives stay short.
func (e *encoder) int(x int) {
	v := int64(x)
	e.uvarint(uint64(v<<1) ^ uint64(v>>63))
}

func (e *encoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encoder) strs(ss []string) {
	e.uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) version(v knowledge.Version) {
	e.int(v.Major)
	e.int(v.Minor)
}

func (e *encoder) stage(s knowledge.Stage) { e.int(int(s)) }

func (e *encoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// decoder reads fields from s, a copy of the stored value: strings it
// returns share s, so one value costs one allocation however many strings
// it holds, and nothing points into bbolt's memory after the transaction.
// After the first failure every read returns a zero value and err keeps
// the first error.
type decoder struct {
	s   string
	off int
	err error
	// lists, when set, is the block strs takes its lists from, shared by
	// the decoders of one list read (valueList).
	lists *[]string
}

func newDecoder(b []byte) *decoder { return &decoder{s: string(b)} }

// valueList is the values one list read visits (every KEP, or a
// release's items, notices, entries or patches), copied as they are visited. Decoding them
// afterwards from one string, with their string lists cut from shared
// blocks, costs a few allocations for the whole list instead of one per
// value and list. The engine keeps every release's lists for as long as
// it runs, and each object kept is one more for every garbage collection
// to mark.
type valueList struct {
	buf  []byte
	ends []int
}

// add copies raw, a value bbolt gave.
func (l *valueList) add(raw []byte) {
	l.buf = append(l.buf, raw...)
	l.ends = append(l.ends, len(l.buf))
}

// decodeValues decodes every value of l, in the order added, into a new
// slice with read; a value that does not decode fails, named by name.
// No values give a nil slice.
func decodeValues[T any](l *valueList, read func(*decoder, *T) error, name func(i int) string) ([]T, error) {
	if len(l.ends) == 0 {
		return nil, nil
	}
	s := string(l.buf)
	var lists []string
	out := make([]T, len(l.ends))
	start := 0
	for i, end := range l.ends {
		if err := read(&decoder{s: s[start:end], lists: &lists}, &out[i]); err != nil {
			return nil, fmt.Errorf("read %s: %w", name(i), err)
		}
		start = end
	}
	return out, nil
}

// listBlock is how many strings a block of d.lists holds.
const listBlock = 512

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at byte %d of %d", errCorrupt, fmt.Sprintf(format, args...), d.off, len(d.s))
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.off >= len(d.s) {
			d.fail("value ends inside a number")
			return 0
		}
		c := d.s[d.off]
		d.off++
		if shift == 63 && c > 1 {
			break
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	d.fail("number overflows 64 bits")
	return 0
}

func (d *decoder) int() int {
	u := d.uvarint()
	v := int64(u>>1) ^ -int64(u&1)
	if v < math.MinInt || v > math.MaxInt {
		d.fail("number %d does not fit an int", v)
		return 0
	}
	return int(v)
}

// count reads a list length and checks that the rest of the value could
// hold that many elements of at least minSize bytes, so a corrupt length
// cannot make a decoder allocate gigabytes.
func (d *decoder) count(minSize int) int {
	n := d.uvarint()
	if d.err != nil {
		return 0
	}
	if n > uint64(len(d.s)-d.off)/uint64(minSize) {
		d.fail("list of %d elements is longer than the value", n)
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.count(1)
	if d.err != nil || n == 0 {
		return ""
	}
	s := d.s[d.off : d.off+n]
	d.off += n
	return s
}

// strs returns nil for an empty list, as the knowledge values use nil.
func (d *decoder) strs() []string {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	var out []string
	if l := d.lists; l == nil {
		out = make([]string, n)
	} else {
		if cap(*l)-len(*l) < n {
			*l = make([]string, 0, max(n, listBlock))
		}
		at := len(*l)
		*l = (*l)[:at+n]
		out = (*l)[at : at+n : at+n] // full: appending to it copies
	}
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) version() knowledge.Version {
	major := d.int()
	minor := d.int()
	return knowledge.Version{Major: major, Minor: minor}
}

func (d *decoder) stage() knowledge.Stage { return knowledge.Stage(d.int()) }

func (d *decoder) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("flag is neither 0 nor 1")
	return false
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.s) {
		d.fail("value ends early")
		return 0
	}
	c := d.s[d.off]
	d.off++
	return c
}

// header checks the format byte that starts every value.
func (d *decoder) header(want byte, what string) {
	if got := d.byte(); d.err == nil && got != want {
		d.off--
		d.fail("%s value has format byte 0x%02x, want 0x%02x", what, got, want)
	}
}

// finish reports the first error, or that bytes were left over.
func (d *decoder) finish() error {
	if d.err == nil && d.off != len(d.s) {
		d.fail("%d bytes left over", len(d.s)-d.off)
	}
	return d.err
}
