package kepyaml

import (
	"fmt"

	"github.com/kepbot/kepbot/knowledge/internal/limit"
)

// Limits bound what one read takes in. A zero field takes its default.
type Limits struct {
	MaxFileBytes       int64 // one kep.yaml; the real ones are under 3 KB
	MaxTotalBytes      int64 // a tarball's decompressed bytes, or a folder's kep.yaml bytes
	MaxEntries         int   // tar entries, or folder entries walked
	MaxCompressedBytes int64 // a tarball's gzip bytes
}

// DefaultLimits returns limits that fit a GitHub tarball of
// kubernetes/enhancements (a few MB of gzip, a few thousand entries) many
// times over and stop a bomb early: 256 KiB per kep.yaml, 512 MiB
// decompressed, 100,000 entries, 256 MiB compressed.
func DefaultLimits() Limits {
	return Limits{
		MaxFileBytes:       256 << 10,
		MaxTotalBytes:      512 << 20,
		MaxEntries:         100_000,
		MaxCompressedBytes: 256 << 20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.MaxFileBytes = limit.Or(l.MaxFileBytes, d.MaxFileBytes)
	l.MaxTotalBytes = limit.Or(l.MaxTotalBytes, d.MaxTotalBytes)
	l.MaxEntries = limit.Or(l.MaxEntries, d.MaxEntries)
	l.MaxCompressedBytes = limit.Or(l.MaxCompressedBytes, d.MaxCompressedBytes)
	return l
}

// Shape limits for one parsed kep.yaml. Real files have about 300 nodes,
// 25 keys and a depth of 4; these stop alias bombs, deep nesting and the
// quadratic duplicate-key check of huge mappings long before they cost.
const (
	maxItems       = 20_000 // lines, commas, brackets, braces and aliases, before parsing
	maxNodes       = 50_000 // nodes visited, each alias expansion counted again
	maxDepth       = 64
	maxMappingKeys = 2_000
	maxTitleRunes  = 300
	// Caps on what one file adds, so aliases and long lists cannot make
	// the parser's own work grow faster than the file.
	maxListVersions = 8   // items of a milestone written as a list
	maxGates        = 200 // feature gate names kept; real KEPs have a few
	maxNotes        = 20  // notes kept per file
)

// Skip kinds: the first words of every Skip.Reason this package writes, and
// the keys of Report.Skipped.
const (
	KindTooLarge    = "too large"
	KindNotYAML     = "not valid YAML"
	KindBomb        = "YAML bomb"
	KindNotKEP      = "not a KEP"
	KindNoNumber    = "no KEP number"
	KindPlaceholder = "placeholder KEP number 0"
	KindDuplicate   = "duplicate KEP number"
	KindLink        = "not a regular file"
	KindOutside     = "outside keps/"
	KindUnreadable  = "unreadable"
)

// ParseError is why one kep.yaml could not be read. Kind is one of the
// Kind constants; Error() names the file and says what was wrong.
type ParseError struct {
	Path string
	Kind string
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Path == "" {
		return e.Kind + ": " + e.Msg
	}
	return fmt.Sprintf("%s: %s: %s", e.Path, e.Kind, e.Msg)
}

func perr(path, kind, format string, args ...any) *ParseError {
	return &ParseError{Path: path, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
