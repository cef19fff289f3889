package safetar

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/internal/limit"
)

// Limits bound what Walk reads. A zero field takes its default.
type Limits struct {
	MaxCompressedBytes int64 // gzip bytes read from the source
	MaxTotalBytes      int64 // bytes out of the decompressor: headers, data and padding
	MaxEntries         int   // tar headers, of any type
	MaxFileBytes       int64 // one file read through ReadAll
	MaxPathBytes       int   // one entry name
	MaxPathDepth       int   // elements of one entry name
}

// The defaults: a GitHub tarball of kubernetes/enhancements is a few MB of
// gzip and tens of MB of tar with a few thousand entries.
const (
	DefaultMaxCompressedBytes = 256 << 20
	DefaultMaxTotalBytes      = 512 << 20
	DefaultMaxEntries         = 100_000
	DefaultMaxFileBytes       = 256 << 10
	DefaultMaxPathBytes       = 1024
	DefaultMaxPathDepth       = 32
)

// WithDefaults returns l with each zero or negative field set to its default.
func (l Limits) WithDefaults() Limits {
	l.MaxCompressedBytes = limit.Or(l.MaxCompressedBytes, DefaultMaxCompressedBytes)
	l.MaxTotalBytes = limit.Or(l.MaxTotalBytes, DefaultMaxTotalBytes)
	l.MaxEntries = limit.Or(l.MaxEntries, DefaultMaxEntries)
	l.MaxFileBytes = limit.Or(l.MaxFileBytes, DefaultMaxFileBytes)
	l.MaxPathBytes = limit.Or(l.MaxPathBytes, DefaultMaxPathBytes)
	l.MaxPathDepth = limit.Or(l.MaxPathDepth, DefaultMaxPathDepth)
	return l
}

// LimitError says which limit a stream or a file broke.
type LimitError struct {
	What  string // "compressed bytes", "decompressed bytes", "entries", "file bytes"
	Limit int64
	Name  string // the entry, for file limits
}

func (e *LimitError) Error() string {
	if e.Name != "" {
		return fmt.Sprintf("%s is over the limit of %d %s", e.Name, e.Limit, e.What)
	}
	return fmt.Sprintf("the archive is over the limit of %d %s (a bomb, or raise the limit)", e.Limit, e.What)
}

// ErrUnsafePath is wrapped by the error for an entry whose name is absolute,
// climbs out with "..", or is otherwise not a plain relative path.
var ErrUnsafePath = errors.New("unsafe entry name")

// Kind says what sort of entry an Entry is.
type Kind int

// Entry kinds. Only files and folders are ever read; every other kind
// (symlinks, hardlinks, devices, FIFOs, sparse files) is Other, handed to
// the caller only so it can say it passed the entry over.
const (
	File Kind = iota
	Dir
	Other
	// Global is an archive-wide PAX header: git archive (and so GitHub's
	// tarballs) writes the commit there as "comment". Its records are in
	// Entry.PAX; it has no name.
	Global
)

// Entry is one tar entry. Its name has been checked by CheckName.
type Entry struct {
	Name    string // slash-separated, cleaned, no trailing slash
	Kind    Kind
	Size    int64             // as the header declares; never trusted for reading
	ModTime time.Time         // as the header declares
	Type    byte              // the tar type flag
	Link    string            // link target, for links
	PAX     map[string]string // the records of a Global entry

	r   io.Reader
	max int64
}

// ReadAll reads a regular file whole. A file over Limits.MaxFileBytes is
// refused with a *LimitError: by its declared size without reading it, or
// at MaxFileBytes+1 bytes read whatever the header says.
func (e *Entry) ReadAll() ([]byte, error) {
	if e.Kind != File {
		return nil, fmt.Errorf("%s is not a regular file", e.Name)
	}
	if e.Size > e.max {
		return nil, &LimitError{What: "file bytes", Limit: e.max, Name: e.Name}
	}
	b, err := capped.Read(e.r, e.max)
	switch {
	case errors.Is(err, capped.ErrTooLarge):
		return nil, &LimitError{What: "file bytes", Limit: e.max, Name: e.Name}
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", e.Name, err)
	}
	return b, nil
}

// TypeName names a tar type flag for messages: "symbolic link", "hard
// link", ...
func TypeName(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symbolic link"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeDir:
		return "folder"
	case tar.TypeChar:
		return "character device"
	case tar.TypeBlock:
		return "block device"
	case tar.TypeFifo:
		return "FIFO"
	case tar.TypeGNUSparse:
		return "sparse file"
	case tar.TypeCont:
		return "contiguous file"
	}
	return fmt.Sprintf("entry of type %q", t)
}

// Walk reads the gzip-compressed tar stream r and calls visit for every
// file, folder and other entry, in archive order. visit may read a file's
// data with Entry.ReadAll before it returns; data it does not read is
// skipped (decompressed and counted, never kept).
//
// Walk fails on the first unsafe name, on a broken limit (compressed bytes,
// decompressed bytes, entries) and on a stream that is not tar.gz, or is
// cut short or damaged before the gzip trailer's checksum; the error says
// which. An error from visit stops the walk and is returned as it is.
func Walk(r io.Reader, lim Limits, visit func(*Entry) error) error {
	lim = lim.WithDefaults()
	zr, err := gzip.NewReader(&capReader{r: r, max: lim.MaxCompressedBytes, what: "compressed bytes"})
	switch {
	case err == io.EOF:
		return errors.New("the stream is empty; want a .tar.gz")
	case errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("not gzip data (a .tar.gz starts with the bytes 1f 8b): %w", err)
	case err != nil:
		return describe(err, "read gzip header")
	}
	defer zr.Close()
	unzipped := &capReader{r: zr, max: lim.MaxTotalBytes, what: "decompressed bytes"}
	tr := tar.NewReader(unzipped)
	for n := 1; ; n++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			// read to the gzip trailer, whose checksum tells a cut or
			// damaged stream
			if _, err := io.Copy(io.Discard, unzipped); err != nil {
				return describe(err, "after the last entry")
			}
			return nil
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			return describe(err, fmt.Sprintf("read entry %d", n))
		}
		if n > lim.MaxEntries {
			return &LimitError{What: "entries", Limit: int64(lim.MaxEntries)}
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			if err := visit(&Entry{Kind: Global, Type: hdr.Typeflag, PAX: hdr.PAXRecords}); err != nil {
				return err
			}
			continue
		}
		name, err := CheckName(hdr.Name, lim)
		if err != nil {
			return err
		}
		e := &Entry{Name: name, Size: hdr.Size, ModTime: hdr.ModTime, Type: hdr.Typeflag, Link: hdr.Linkname, r: tr, max: lim.MaxFileBytes}
		switch hdr.Typeflag {
		case tar.TypeReg:
			e.Kind = File
		case tar.TypeDir:
			e.Kind = Dir
		default:
			e.Kind = Other
		}
		if err := visit(e); err != nil {
			return err
		}
	}
}

// CheckName returns the cleaned slash form of a tar entry name, or an error
// wrapping ErrUnsafePath when the name is empty, absolute, holds a ".."
// element, a backslash, a NUL or a drive letter, or is longer or deeper than
// the limits allow.
func CheckName(name string, lim Limits) (string, error) {
	lim = lim.WithDefaults()
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w %q: %s; a source's archive holds only relative paths", ErrUnsafePath, clip(name), why)
	}
	switch {
	case len(name) > lim.MaxPathBytes:
		return bad(fmt.Sprintf("longer than %d bytes", lim.MaxPathBytes))
	case strings.TrimSuffix(name, "/") == "":
		return bad("empty")
	case strings.HasPrefix(name, "/"):
		return bad("absolute")
	case strings.ContainsAny(name, "\\\x00"):
		return bad("holds a backslash or NUL")
	case len(name) >= 2 && name[1] == ':':
		return bad("starts with a drive letter")
	}
	parts := strings.Split(strings.TrimSuffix(name, "/"), "/")
	for _, p := range parts {
		if p == ".." {
			return bad(`holds a ".." element`)
		}
	}
	if len(parts) > lim.MaxPathDepth {
		return bad(fmt.Sprintf("deeper than %d folders", lim.MaxPathDepth))
	}
	clean := path.Clean(name)
	if !filepath.IsLocal(clean) || clean == "." {
		return bad("not a local path")
	}
	return clean, nil
}

// CapReader returns a reader of r that fails with a *LimitError, its What
// being what, once more than max bytes were read through it: the guard
// Walk puts on the compressed and the decompressed bytes, for a caller
// that reads a tar.gz of its own.
func CapReader(r io.Reader, max int64, what string) io.Reader {
	return &capReader{r: r, max: max, what: what}
}

// capReader fails with a *LimitError once more than max bytes were read.
type capReader struct {
	r    io.Reader
	n    int64
	max  int64
	what string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n > c.max {
		return 0, &LimitError{What: c.what, Limit: c.max}
	}
	if room := c.max - c.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return 0, &LimitError{What: c.what, Limit: c.max}
	}
	return n, err
}

// describe keeps a *LimitError as it is and wraps anything else.
func describe(err error, doing string) error {
	var le *LimitError
	if errors.As(err, &le) {
		return le
	}
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, tar.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: not a complete .tar.gz: %w", doing, err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
