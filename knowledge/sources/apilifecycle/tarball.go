package apilifecycle

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/capped"
	"github.com/kepbot/kepbot/knowledge/sources/safetar"
)

// TarLimits bound what ReadModuleTarGz reads. A zero field takes its
// default.
type TarLimits struct {
	MaxCompressedBytes int64 // gzip bytes read from the stream
	MaxTotalBytes      int64 // bytes out of the decompressor: headers, data and padding
	MaxEntries         int   // tar headers, of any type
	MaxFileBytes       int64 // one register.go or markers file
	// MaxReadBytes bounds the register.go and markers files read, all
	// together: they are kept until the stream ends.
	MaxReadBytes int64
}

// DefaultTarLimits fit a GitHub tarball of kubernetes/api (some 10 MB of
// gzip, under 100 MB and a few thousand entries unpacked, mostly generated
// protobuf code and test data; its register.go and markers files are under
// 1 MB together) several times over and stop a bomb early: 128 MiB
// compressed, 1 GiB decompressed, 100,000 entries, MaxFileSize per file
// read, 64 MiB of files read.
func DefaultTarLimits() TarLimits {
	return TarLimits{
		MaxCompressedBytes: 128 << 20,
		MaxTotalBytes:      1 << 30,
		MaxEntries:         100_000,
		MaxFileBytes:       MaxFileSize,
		MaxReadBytes:       64 << 20,
	}
}

func (l TarLimits) withDefaults() TarLimits {
	d := DefaultTarLimits()
	if l.MaxCompressedBytes <= 0 {
		l.MaxCompressedBytes = d.MaxCompressedBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = d.MaxEntries
	}
	if l.MaxReadBytes <= 0 {
		l.MaxReadBytes = d.MaxReadBytes
	}
	if l.MaxFileBytes <= 0 || l.MaxFileBytes > MaxFileSize {
		l.MaxFileBytes = d.MaxFileBytes // the parsers refuse more anyway
	}
	return l
}

// Errors of ReadModuleTarGz; test with errors.Is.
var (
	ErrLimit      = errors.New("over a limit")
	ErrUnsafePath = errors.New("unsafe entry name")
	ErrBadTag     = errors.New("not a module tag like v0.37.2")
)

// ReadModuleTarGz reads one release of an API module from a .tar.gz of its
// repository at a tag, as GitHub serves it
// (https://github.com/kubernetes/api/archive/refs/tags/v0.37.2.tar.gz: one
// top folder, api-0.37.2/, then <group>/<version>/register.go), or with the
// group folders at the top. It reads the stream once, never writing to
// disk, and returns what ReadRelease returns for a folder, so releases
// fetched apart can be merged (Merge, Corpus). It uses DefaultTarLimits.
func ReadModuleTarGz(r io.Reader, module, tag string) (*Release, error) {
	return ReadModuleTarGzLimits(r, module, tag, TarLimits{})
}

// ReadModuleTarGzLimits is ReadModuleTarGz with limits.
//
// tag must be the module's tag, v0.N.P: it gives the release (1.N). An
// archive whose top folder names another version (api-0.36.1/) is refused.
// Entries are checked as they come: an absolute name, one with a ".."
// element, a backslash or a NUL fails the read; so does going over a
// limit (ErrLimit). Links and devices are never followed nor read: one
// where a register.go or markers file should be is a Skip, like a file
// over MaxFileBytes.
//
// The commit is the one git archive writes in the archive's PAX header
// (GitHub's tarballs carry it), and AsOf that commit's day, which git
// archive stamps on every entry; an archive without that header was not
// made by git archive, its entry times are file times, and AsOf stays "".
// Path is left for the caller.
func ReadModuleTarGzLimits(r io.Reader, module, tag string, lim TarLimits) (*Release, error) {
	v, ok := ReleaseOfTag(tag)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrBadTag, clip(tag))
	}
	lim = lim.withDefaults()
	b := newBuilder(module, v, tag)
	type pkg struct {
		register, markers       []byte
		registerErr, markersErr error
		hasRegister             bool
	}
	pkgs := map[string]*pkg{}
	pkgOf := func(dir string) *pkg {
		p := pkgs[dir]
		if p == nil {
			p = &pkg{}
			pkgs[dir] = p
		}
		return p
	}
	var commit string
	var read int64 // bytes of the files read
	var stamped time.Time
	top, topSet := "", false // the top folder, once a package tells it

	zr, err := gzip.NewReader(safetar.CapReader(r, lim.MaxCompressedBytes, "compressed bytes"))
	var le *safetar.LimitError
	switch {
	case err == io.EOF:
		return nil, errors.New("read module tarball: the stream is empty; want a .tar.gz")
	case errors.As(err, &le):
		return nil, fmt.Errorf("read module tarball: %w", &limitError{le})
	case err != nil:
		return nil, fmt.Errorf("read module tarball: not gzip data (a .tar.gz starts with the bytes 1f 8b): %w", err)
	}
	defer zr.Close()
	unzipped := safetar.CapReader(zr, lim.MaxTotalBytes, "decompressed bytes")
	tr := tar.NewReader(unzipped)
	for n := 1; ; n++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			// read to the gzip trailer, whose checksum tells a cut or
			// damaged stream
			if _, err := io.Copy(io.Discard, unzipped); err != nil {
				return nil, fmt.Errorf("read module tarball: after the last entry: %w", limitOr(err))
			}
			break
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			return nil, fmt.Errorf("read module tarball: entry %d: %w", n, limitOr(err))
		}
		if n > lim.MaxEntries {
			return nil, fmt.Errorf("read module tarball: %w: more than %d entries", ErrLimit, lim.MaxEntries)
		}
		if hdr.Typeflag == tar.TypeXGlobalHeader {
			if c := hdr.PAXRecords["comment"]; isCommit(c) {
				commit = c
			}
			continue
		}
		name, err := checkName(hdr.Name)
		if err != nil {
			return nil, fmt.Errorf("read module tarball: %w", err)
		}
		if hdr.ModTime.After(stamped) {
			stamped = hdr.ModTime
		}
		parts := strings.Split(name, "/")
		if !topSet {
			// the first package met tells the layout: <group>/<version>/
			// at the top, or in one top folder (GitHub's api-0.37.2/)
			switch {
			case len(parts) >= 2 && knowledge.IsAPIVersionName(parts[1]):
				top, topSet = "", true
			case len(parts) >= 3 && knowledge.IsAPIVersionName(parts[2]):
				top, topSet = parts[0], true
			default:
				continue // no package yet
			}
			if err := checkTop(top, tag); err != nil {
				return nil, err
			}
		}
		if top != "" {
			if parts[0] != top {
				continue // outside the top folder: not the module's
			}
			parts = parts[1:]
		}
		// <group>/<version>/...: an API package when version is one
		if len(parts) < 2 || strings.HasPrefix(parts[0], ".") || !knowledge.IsAPIVersionName(parts[1]) {
			continue
		}
		dir := parts[0] + "/" + parts[1]
		if len(parts) == 2 && hdr.Typeflag == tar.TypeDir {
			pkgOf(dir)
			continue
		}
		if len(parts) != 3 || (parts[2] != RegisterFile && parts[2] != MarkersFile) {
			if len(parts) > 2 {
				pkgOf(dir)
			}
			continue
		}
		p := pkgOf(dir)
		file := parts[2]
		var data []byte
		var readErr error
		switch hdr.Typeflag {
		case tar.TypeReg: // the reader turns the old TypeRegA into TypeReg
			if hdr.Size > lim.MaxFileBytes {
				readErr = fmt.Errorf("%s: %w: %d bytes, over the limit of %d; not read", file, ErrLimit, hdr.Size, lim.MaxFileBytes)
				break
			}
			data, err = capped.Read(tr, lim.MaxFileBytes)
			switch {
			case errors.Is(err, capped.ErrTooLarge):
				readErr = fmt.Errorf("%s: %w: over the limit of %d bytes; not read", file, ErrLimit, lim.MaxFileBytes)
				data = nil
			case err != nil:
				return nil, fmt.Errorf("read module tarball: %s: %w", name, limitOr(err))
			}
			if read += int64(len(data)); read > lim.MaxReadBytes {
				return nil, fmt.Errorf("read module tarball: %w: its register.go and markers files are over %d bytes together", ErrLimit, lim.MaxReadBytes)
			}
		default:
			what := typeName(hdr.Typeflag)
			if hdr.Linkname != "" {
				what += " to " + clip(hdr.Linkname)
			}
			readErr = fmt.Errorf("%s is a %s; only regular files are read and links are never followed", file, what)
		}
		if file == RegisterFile {
			p.register, p.registerErr, p.hasRegister = data, readErr, true
		} else {
			p.markers, p.markersErr = data, readErr
		}
	}
	dirs := make([]string, 0, len(pkgs))
	for d := range pkgs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		p := pkgs[d]
		switch {
		case p.registerErr != nil:
			b.found++
			b.skip(d, p.registerErr.Error())
		case !p.hasRegister:
			b.found++
			b.skip(d, "no "+RegisterFile+": no such file or folder")
		default:
			b.add(d, p.register, p.markers, p.markersErr)
		}
	}
	rel, err := b.finish()
	if err != nil {
		return nil, err
	}
	rel.Commit = commit
	if commit != "" && !stamped.IsZero() {
		rel.AsOf = stamped.UTC().Format(time.DateOnly)
	}
	return rel, nil
}

// checkTop refuses an archive whose top folder is named for another
// version than tag: GitHub names it <repo>-<tag without v>.
func checkTop(top, tag string) error {
	i := strings.LastIndex(top, "-0.")
	if i < 0 {
		return nil
	}
	if got := "v" + top[i+1:]; got != tag {
		if _, ok := ReleaseOfTag(got); ok {
			return fmt.Errorf("read module tarball: the archive's top folder %s is of %s, not %s", top, got, tag)
		}
	}
	return nil
}

// checkName returns an entry's name cleaned, or an error for a name that
// is absolute, climbs with "..", or holds a backslash, a NUL or a drive
// letter.
func checkName(name string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w %q: %s; a module's archive holds only relative paths", ErrUnsafePath, clip(name), why)
	}
	switch {
	case len(name) > 1024:
		return bad("longer than 1024 bytes")
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
	if len(parts) > 32 {
		return bad("deeper than 32 folders")
	}
	clean := path.Clean(name)
	if clean == "." || !fsValid(clean) {
		return bad("not a local path")
	}
	return clean, nil
}

// fsValid reports whether name is a valid io/fs path: no empty, "." or
// ".." element.
func fsValid(name string) bool {
	for _, p := range strings.Split(name, "/") {
		if p == "" || p == "." || p == ".." {
			return false
		}
	}
	return true
}

func isCommit(s string) bool {
	return len(s) >= 7 && len(s) <= 40 && strings.Trim(s, "0123456789abcdef") == ""
}

func typeName(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symbolic link"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar:
		return "character device"
	case tar.TypeBlock:
		return "block device"
	case tar.TypeFifo:
		return "FIFO"
	case tar.TypeDir:
		return "folder"
	}
	return fmt.Sprintf("entry of type %q", t)
}

// limitError is the error of a stream over a limit, as safetar's
// CapReader says it; it wraps ErrLimit.
type limitError struct{ le *safetar.LimitError }

func (e *limitError) Error() string { return e.le.Error() }

func (e *limitError) Unwrap() error { return ErrLimit }

// limitOr returns the limit error inside err, or err said plainly.
func limitOr(err error) error {
	var le *safetar.LimitError
	switch {
	case errors.As(err, &le):
		return &limitError{le}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, tar.ErrHeader):
		return fmt.Errorf("not a complete .tar.gz (cut short or damaged): %w", err)
	}
	return err
}
