package kepyaml

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kepbot/kepbot/internal/safetar"
	"github.com/kepbot/kepbot/knowledge"
)

// ReadTarGz reads every keps/**/kep.yaml of a kubernetes/enhancements
// .tar.gz, in the GitHub layout (one top folder such as
// kubernetes-enhancements-<sha>/) or with keps/ at the top. It streams the
// entries straight into the parser and never writes to disk.
//
// The whole read fails, saying what was wrong, on an entry name that is
// absolute or climbs out with "..", on more than lim.MaxEntries entries, more
// than lim.MaxTotalBytes decompressed, more than lim.MaxCompressedBytes of
// gzip, and on a stream that is not tar.gz. One file is skipped, with a
// Skip saying why, when it is a symlink, hardlink or device, is over
// lim.MaxFileBytes (refused by its declared size without being read) or
// does not parse.
func ReadTarGz(r io.Reader, lim Limits) (*knowledge.Corpus, error) {
	res, err := LoadTarGz(r, lim)
	if err != nil {
		return nil, err
	}
	return res.Corpus, nil
}

// LoadTarGz is ReadTarGz with the report. The Source's Path is the
// archive's top folder when it has one. Its Commit is the one git archive
// wrote in the archive's PAX header (GitHub's tarballs carry it), else the
// one the top folder names (kubernetes-enhancements-<sha>). Its AsOf is the
// commit's date, which git archive stamps on every entry; an archive
// without that header was made by hand, its entry times are file times, and
// its date stays unknown.
func LoadTarGz(r io.Reader, lim Limits) (*Result, error) {
	lim = lim.withDefaults()
	b := newBuilder(lim)
	top, decided := "", false
	gitArchive := false
	var stamped time.Time
	err := safetar.Walk(r, lim.tar(), func(e *safetar.Entry) error {
		if e.Kind == safetar.Global {
			if c := e.PAX["comment"]; isCommit(c) {
				b.stamp.Commit, gitArchive = c, true
			}
			return nil
		}
		if e.ModTime.After(stamped) {
			stamped = e.ModTime
		}
		if !decided {
			top, decided = topFolder(e), true
		}
		rel := strings.TrimPrefix(e.Name, top+"/")
		if top != "" && rel == top {
			rel = ""
		}
		read, named := isKEPYAML(rel)
		if named && e.Kind == safetar.Other {
			b.report.Files++
		}
		switch {
		case e.Kind == safetar.Other:
			if named || strings.HasPrefix(rel, "keps/") {
				what := safetar.TypeName(e.Type)
				if e.Link != "" {
					what += " to " + clip(e.Link, 80)
				}
				b.skip(rel, KindLink, "a "+what+"; only regular files are read and links are never followed")
			}
		case e.Kind != safetar.File || !named:
		case !read:
			b.outside(rel)
		default:
			b.report.Files++
			data, err := e.ReadAll()
			var le *safetar.LimitError
			if errors.As(err, &le) && le.Name != "" {
				b.skip(rel, KindTooLarge, fmt.Sprintf("%d bytes declared, over the limit of %d; not read", e.Size, lim.MaxFileBytes))
				return nil
			}
			if err != nil {
				return err
			}
			f, err := parseFile(rel, data, lim.MaxFileBytes)
			b.addParsed(rel, f, err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read kep.yaml tarball: %w", err)
	}
	if gitArchive && !stamped.IsZero() {
		b.stamp.Date = stamped.UTC().Format(time.DateOnly)
	}
	if sha, ok := strings.CutPrefix(top, "kubernetes-enhancements-"); ok && b.stamp.Commit == "" && isCommit(sha) {
		b.stamp.Commit = sha
	}
	return b.finish(top)
}

// topFolder decides from the first entry whether the archive has a top
// folder, as GitHub's kubernetes-enhancements-<sha>/ does: it has one when
// the first entry is a folder, or inside a folder, other than keps.
func topFolder(e *safetar.Entry) string {
	first, _, nested := strings.Cut(e.Name, "/")
	if first == "keps" || (!nested && e.Kind != safetar.Dir) {
		return ""
	}
	return first
}

// isCommit reports whether s looks like a git commit hash, full or short.
func isCommit(s string) bool {
	return len(s) >= 7 && len(s) <= 40 && strings.Trim(s, "0123456789abcdef") == ""
}
