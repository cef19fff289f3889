package archive

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge/sources/kepyaml"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
	"github.com/kepbot/kepbot/knowledge/sources/safetar"
)

// ReadTarGz reads every keps/**/kep.yaml of a kubernetes/enhancements
// .tar.gz as it streams, in GitHub's layout (one top folder,
// kubernetes-enhancements-<sha>/) or with keps/ at the top, never writing
// to disk. Entries are checked by safetar (no absolute or climbing names,
// bounded entries and bytes, no gzip bomb); links and devices where a
// kep.yaml should be are Skips.
//
// The commit is the one git archive wrote in the archive's PAX header
// (GitHub's tarballs carry it), else the one the top folder names; the
// date is the commit's, which git archive stamps on every entry. An archive
// without that header was made by hand: its entry times are file times,
// and its date stays unknown.
func ReadTarGz(r io.Reader, lim kepyaml.Limits) (*kepyaml.Result, error) {
	kr := kepyaml.NewReader(lim)
	lim = kr.Limits()
	var stamp provenance.Stamp
	gitArchive := false
	var stamped time.Time
	top, decided := "", false
	err := safetar.Walk(r, tarLimits(lim), func(e *safetar.Entry) error {
		if e.Kind == safetar.Global {
			if c := e.PAX["comment"]; IsCommit(c) {
				stamp.Commit, gitArchive = c, true
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
		read, named := kepyaml.IsKEPYAML(rel)
		switch {
		case e.Kind == safetar.Other:
			if named || strings.HasPrefix(rel, "keps/") {
				what := safetar.TypeName(e.Type)
				if e.Link != "" {
					what += " to " + clip(e.Link, 80)
				}
				kr.Skip(rel, kepyaml.KindLink, "a "+what+"; only regular files are read and links are never followed")
			}
		case e.Kind != safetar.File || !named:
		case !read:
			kr.Add(rel, nil) // outside keps/: recorded as such, never parsed
		default:
			data, err := e.ReadAll()
			var le *safetar.LimitError
			if errors.As(err, &le) && le.Name != "" {
				kr.Skip(rel, kepyaml.KindTooLarge, fmt.Sprintf("%d bytes declared, over the limit of %d; not read", e.Size, lim.MaxFileBytes))
				return nil
			}
			if err != nil {
				return err
			}
			kr.Add(rel, data)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read kep.yaml tarball: %w", err)
	}
	if gitArchive && !stamped.IsZero() {
		stamp.Date = stamped.UTC().Format(time.DateOnly)
	}
	if sha, ok := strings.CutPrefix(top, "kubernetes-enhancements-"); ok && stamp.Commit == "" && isHex(sha, 4) {
		stamp.Commit = sha
	}
	return kr.Finish(top, stamp)
}

func tarLimits(l kepyaml.Limits) safetar.Limits {
	return safetar.Limits{
		MaxCompressedBytes: l.MaxCompressedBytes,
		MaxTotalBytes:      l.MaxTotalBytes,
		MaxEntries:         l.MaxEntries,
		MaxFileBytes:       l.MaxFileBytes,
	}.WithDefaults()
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

// IsCommit reports whether s looks like a git commit hash, full or short.
func IsCommit(s string) bool { return isHex(s, 7) }

// isHex reports whether s is lower-case hex of min to 40 digits: a commit
// a folder name abbreviates (GitHub's archives use 7 or more).
func isHex(s string, min int) bool {
	return len(s) >= min && len(s) <= 40 && strings.Trim(s, "0123456789abcdef") == ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
