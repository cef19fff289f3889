package apilifecycle

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/limit"
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
	l.MaxCompressedBytes = limit.Or(l.MaxCompressedBytes, d.MaxCompressedBytes)
	l.MaxTotalBytes = limit.Or(l.MaxTotalBytes, d.MaxTotalBytes)
	l.MaxEntries = limit.Or(l.MaxEntries, d.MaxEntries)
	l.MaxReadBytes = limit.Or(l.MaxReadBytes, d.MaxReadBytes)
	if l.MaxFileBytes <= 0 || l.MaxFileBytes > MaxFileSize {
		l.MaxFileBytes = d.MaxFileBytes // the parsers refuse more anyway
	}
	return l
}

// Errors of ReadModuleTarGz; test with errors.Is.
var (
	ErrLimit      = errors.New("over a limit")
	ErrUnsafePath = safetar.ErrUnsafePath
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
	walkLimits := safetar.Limits{MaxCompressedBytes: lim.MaxCompressedBytes, MaxTotalBytes: lim.MaxTotalBytes,
		MaxEntries: lim.MaxEntries, MaxFileBytes: lim.MaxFileBytes}
	err := safetar.Walk(r, walkLimits, func(e *safetar.Entry) error {
		if e.Kind == safetar.Global {
			if c := e.PAX["comment"]; isCommit(c) {
				commit = c
			}
			return nil
		}
		if e.ModTime.After(stamped) {
			stamped = e.ModTime
		}
		parts := strings.Split(e.Name, "/")
		if !topSet {
			// the first package met tells the layout: <group>/<version>/
			// at the top, or in one top folder (GitHub's api-0.37.2/)
			switch {
			case len(parts) >= 2 && knowledge.IsAPIVersionName(parts[1]):
				top, topSet = "", true
			case len(parts) >= 3 && knowledge.IsAPIVersionName(parts[2]):
				top, topSet = parts[0], true
			default:
				return nil // no package yet
			}
			if err := checkTop(top, tag); err != nil {
				return err
			}
		}
		if top != "" {
			if parts[0] != top {
				return nil // outside the top folder: not the module's
			}
			parts = parts[1:]
		}
		// <group>/<version>/...: an API package when version is one
		if len(parts) < 2 || strings.HasPrefix(parts[0], ".") || !knowledge.IsAPIVersionName(parts[1]) {
			return nil
		}
		dir := parts[0] + "/" + parts[1]
		if len(parts) == 2 && e.Kind == safetar.Dir {
			pkgOf(dir)
			return nil
		}
		if len(parts) != 3 || (parts[2] != RegisterFile && parts[2] != MarkersFile) {
			if len(parts) > 2 {
				pkgOf(dir)
			}
			return nil
		}
		p := pkgOf(dir)
		file := parts[2]
		data, readErr, err := readModuleFile(e, file, lim)
		if err != nil {
			return err
		}
		if read += int64(len(data)); read > lim.MaxReadBytes {
			return fmt.Errorf("%w: its register.go and markers files are over %d bytes together", ErrLimit, lim.MaxReadBytes)
		}
		if file == RegisterFile {
			p.register, p.registerErr, p.hasRegister = data, readErr, true
		} else {
			p.markers, p.markersErr = data, readErr
		}
		return nil
	})
	var le *safetar.LimitError
	switch {
	case errors.As(err, &le):
		return nil, fmt.Errorf("read module tarball: %w", &limitError{le})
	case err != nil:
		return nil, fmt.Errorf("read module tarball: %w", err)
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

// readModuleFile reads a register.go or markers file of a package. A file
// over the limit, a link or another kind of entry is not read: readErr
// says why, for a Skip. err is a stream that failed.
func readModuleFile(e *safetar.Entry, file string, lim TarLimits) (data []byte, readErr, err error) {
	if e.Kind != safetar.File {
		what := safetar.TypeName(e.Type)
		if e.Link != "" {
			what += " to " + clip(e.Link)
		}
		return nil, fmt.Errorf("%s is a %s; only regular files are read and links are never followed", file, what), nil
	}
	data, err = e.ReadAll()
	var le *safetar.LimitError
	switch {
	case errors.As(err, &le) && e.Size > lim.MaxFileBytes:
		return nil, fmt.Errorf("%s: %w: %d bytes, over the limit of %d; not read", file, ErrLimit, e.Size, lim.MaxFileBytes), nil
	case errors.As(err, &le):
		return nil, fmt.Errorf("%s: %w: over the limit of %d bytes; not read", file, ErrLimit, lim.MaxFileBytes), nil
	case err != nil:
		return nil, nil, err
	}
	return data, nil, nil
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
			return fmt.Errorf("the archive's top folder %s is of %s, not %s", top, got, tag)
		}
	}
	return nil
}

func isCommit(s string) bool {
	return len(s) >= 7 && len(s) <= 40 && strings.Trim(s, "0123456789abcdef") == ""
}

// limitError is the error of a stream over a limit, as safetar's
// CapReader says it; it wraps ErrLimit.
type limitError struct{ le *safetar.LimitError }

func (e *limitError) Error() string { return e.le.Error() }

func (e *limitError) Unwrap() error { return ErrLimit }
