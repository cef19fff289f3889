package kepyaml

import (
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// Reader gathers the kep.yaml files of one kubernetes/enhancements tree
// handed to it one at a time, by whoever walks the tree (a fetcher reading
// a tarball as it streams): Add for each file named kep.yaml, Skip for one
// that cannot be read (a link, a device, one over the size limit), then
// Finish for the corpus. It never reads anything itself.
type Reader struct {
	b *builder
}

// NewReader returns a Reader with lim (zero fields take their defaults).
func NewReader(lim Limits) *Reader { return &Reader{b: newBuilder(lim)} }

// Limits returns the limits the Reader applies, defaults filled in.
func (r *Reader) Limits() Limits { return r.b.lim }

// Add parses the kep.yaml at rel. A file outside keps/ becomes a Skip (a
// test fixture), as does one that does not parse or breaks a limit.
func (r *Reader) Add(rel string, data []byte) {
	read, named := IsKEPYAML(rel)
	switch {
	case !named:
	case !read:
		r.b.outside(rel)
	default:
		r.b.add(rel, data)
	}
}

// Skip records that rel was passed over, and why: kind is one of the Kind
// constants, msg the rest of the reason. A file named kep.yaml counts among
// the files read.
func (r *Reader) Skip(rel, kind, msg string) {
	if _, named := IsKEPYAML(rel); named {
		r.b.report.Files++
	}
	r.b.skip(rel, kind, msg)
}

// Finish settles duplicate numbers and returns what was read. where names
// the tree (its Source Path); stamp is the commit it holds and that
// commit's date, as the tree says of itself, never a file time. It fails
// when no kep.yaml was found at all.
func (r *Reader) Finish(where string, stamp provenance.Stamp) (*Result, error) {
	r.b.stamp = stamp
	return r.b.finish(where)
}
