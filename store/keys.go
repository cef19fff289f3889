package store

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/kepbot/kepbot/knowledge"
)

// Keys are built so that bbolt's byte order is the order people expect:
// numbers are big-endian and fixed-width, so KEP 99 comes before KEP 100
// and release 1.9 before 1.10. Each key function reports ok=false for a
// value that has no key (a negative number, say); writers turn that into an
// error and readers into a miss.
//
//	keps             number(4)                                → KEP with History
//	releases         version(8)                               → release facts
//	release_items    version(8) stage(1) seq(4)               → item
//	release_notices  version(8) len(kind)(1) kind seq(4)      → notice
//	sources          seq(4)                                   → source
//	release_changes  version(8) seq(4)                        → release-note entry
//	release_patches  version(8) patch number(4)               → patch release
//
// seq is the position of the value in the Knowledge it came from, so lists
// read back in the order they were given.

const (
	versionKeyLen = 8
	seqLen        = 4
	maxKindLen    = math.MaxUint8
)

// kepKey is a KEP number as 4 big-endian bytes.
func kepKey(n int) (k [4]byte, ok bool) {
	if !fitsUint32(n) {
		return k, false
	}
	binary.BigEndian.PutUint32(k[:], uint32(n))
	return k, true
}

// kepFromKey reads a key kepKey made.
func kepFromKey(k []byte) (int, error) {
	if len(k) != 4 {
		return 0, fmt.Errorf("%w: KEP key is %d bytes, want 4", errCorrupt, len(k))
	}
	return int(binary.BigEndian.Uint32(k)), nil
}

// versionKey is a version as major and minor, 4 big-endian bytes each.
func versionKey(v knowledge.Version) (k [versionKeyLen]byte, ok bool) {
	if !fitsUint32(v.Major) || !fitsUint32(v.Minor) {
		return k, false
	}
	binary.BigEndian.PutUint32(k[0:4], uint32(v.Major))
	binary.BigEndian.PutUint32(k[4:8], uint32(v.Minor))
	return k, true
}

// itemPrefix is the key prefix of release v's items at stage s; with
// StageNone it is the prefix of all the release's items.
func itemPrefix(v knowledge.Version, s knowledge.Stage) ([]byte, bool) {
	vk, ok := versionKey(v)
	if !ok || s < 0 || s > math.MaxUint8 {
		return nil, false
	}
	if s == knowledge.StageNone {
		return vk[:], true
	}
	return append(vk[:], byte(s)), true
}

// itemKey is the key of the seq'th item of release v, at stage s.
func itemKey(v knowledge.Version, s knowledge.Stage, seq int) ([]byte, bool) {
	vk, ok := versionKey(v)
	if !ok || s < 0 || s > math.MaxUint8 || !fitsUint32(seq) {
		return nil, false
	}
	k := make([]byte, 0, versionKeyLen+1+seqLen)
	k = append(k, vk[:]...)
	k = append(k, byte(s))
	return binary.BigEndian.AppendUint32(k, uint32(seq)), true
}

// noticePrefix is the key prefix of release v's notices of one kind; with
// kind "" it is the prefix of all the release's notices.
func noticePrefix(v knowledge.Version, kind knowledge.NoticeKind) ([]byte, bool) {
	vk, ok := versionKey(v)
	if !ok || len(kind) > maxKindLen {
		return nil, false
	}
	if kind == "" {
		return vk[:], true
	}
	k := make([]byte, 0, versionKeyLen+1+len(kind))
	k = append(k, vk[:]...)
	k = append(k, byte(len(kind)))
	return append(k, kind...), true
}

// noticeKey is the key of the seq'th notice of release v. The kind is
// length-prefixed so that no kind's keys fall inside another's prefix.
func noticeKey(v knowledge.Version, kind knowledge.NoticeKind, seq int) ([]byte, bool) {
	vk, ok := versionKey(v)
	if !ok || len(kind) > maxKindLen || !fitsUint32(seq) {
		return nil, false
	}
	k := make([]byte, 0, versionKeyLen+1+len(kind)+seqLen)
	k = append(k, vk[:]...)
	k = append(k, byte(len(kind)))
	k = append(k, kind...)
	return binary.BigEndian.AppendUint32(k, uint32(seq)), true
}

// seqKey is a position as 4 big-endian bytes.
func seqKey(seq int) (k [seqLen]byte, ok bool) {
	if !fitsUint32(seq) {
		return k, false
	}
	binary.BigEndian.PutUint32(k[:], uint32(seq))
	return k, true
}

// seqFromKey reads the position that ends an item or notice key.
func seqFromKey(k []byte) (int, error) {
	if len(k) < seqLen {
		return 0, fmt.Errorf("%w: key is %d bytes, too short for a position", errCorrupt, len(k))
	}
	return int(binary.BigEndian.Uint32(k[len(k)-seqLen:])), nil
}

// fitsUint32 reports whether n can be a 4-byte key.
func fitsUint32(n int) bool { return n >= 0 && uint64(n) <= math.MaxUint32 }

// releaseSeqKey is release v's key followed by a 4-byte number: the key of
// its release-note entries (by position) and patch releases (by number).
func releaseSeqKey(v knowledge.Version, n int) ([]byte, bool) {
	vk, ok := versionKey(v)
	if !ok || !fitsUint32(n) {
		return nil, false
	}
	k := make([]byte, versionKeyLen+seqLen)
	copy(k, vk[:])
	binary.BigEndian.PutUint32(k[versionKeyLen:], uint32(n))
	return k, true
}
