package refresh

import (
	"fmt"
	"strings"

	"github.com/kepbot/kepbot/internal/fetch"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/relnotes"
)

// Default URLs of the sources. Each can be changed in the config and the
// environment (BOT_SYNC_URL, BOT_RELNOTES_URL, BOT_LIFECYCLE_URL,
// BOT_PATCHES_URL), for a mirror or a test server.
const (
	// DefaultSyncURL is GitHub's REST endpoint for a tarball of
	// kubernetes/enhancements' default branch; it redirects to codeload.
	DefaultSyncURL = "https://api.github.com/repos/kubernetes/enhancements/tarball"
	// DefaultRelnotesURL is sig-release's releases folder: release-1.N/
	// holds README.md and release-notes/release-notes-draft.json.
	DefaultRelnotesURL = "https://raw.githubusercontent.com/kubernetes/sig-release/master/releases"
	// DefaultLifecycleURL is endoflife.date's Kubernetes product file.
	DefaultLifecycleURL = "https://raw.githubusercontent.com/endoflife-date/endoflife.date/master/products/kubernetes.md"
	// DefaultPatchesURL is endoflife.date release-data's list of every
	// Kubernetes patch release.
	DefaultPatchesURL = "https://raw.githubusercontent.com/endoflife-date/release-data/main/releases/kubernetes.json"
)

// DefaultHosts are the hosts the default sources live on.
var DefaultHosts = []string{"api.github.com", "codeload.github.com", "github.com", "raw.githubusercontent.com"}

// FirstNotes is the oldest release whose notes as data are asked for when
// the knowledge knows none: sig-release keeps them in this form from 1.25.
var FirstNotes = knowledge.Version{Major: 1, Minor: 25}

// Names of the sources in the registry: the keys of their states, their
// metrics and the lines of a report.
const (
	NameKEPYAML   = "kep.yaml"
	NameLifecycle = "lifecycle"
	NamePatches   = "patches"
)

// NotesName and PageName are the names of release v's notes and page.
func NotesName(v knowledge.Version) string { return "release-notes/" + v.String() }
func PageName(v knowledge.Version) string  { return "release-page/" + v.String() }

// kind says how a source is read.
type kind int

const (
	kindKEPYAML kind = iota
	kindNotes
	kindPage
	kindLifecycle
	kindPatches
)

// source is one entry of the registry.
type source struct {
	name    string
	url     string // as configured: may hold a token in its query, so never logged (see shown)
	kind    kind
	release knowledge.Version // kindNotes, kindPage
	// optional is true for a release not known yet: a 404 means its notes
	// are not published, not a failure.
	optional bool
}

// shown is the source's URL fit to print and store.
func (s source) shown() string { return fetch.Redact(s.url) }

// URLs are where the sources live.
type URLs struct {
	Sync, Relnotes, Lifecycle, Patches string
}

// withDefaults fills in every URL left empty.
func (u URLs) withDefaults() URLs {
	if u.Sync == "" {
		u.Sync = DefaultSyncURL
	}
	if u.Relnotes == "" {
		u.Relnotes = DefaultRelnotesURL
	}
	if u.Lifecycle == "" {
		u.Lifecycle = DefaultLifecycleURL
	}
	if u.Patches == "" {
		u.Patches = DefaultPatchesURL
	}
	return u
}

// releaseURL is the URL of file under release v's folder of base (the
// releases folder), keeping base's query (a mirror's token) at the end.
func releaseURL(base string, v knowledge.Version, file string) string {
	q := ""
	if i := strings.IndexByte(base, '?'); i >= 0 {
		base, q = base[:i], base[i:]
	}
	return fmt.Sprintf("%s/release-%s/%s%s", strings.TrimRight(base, "/"), v, file, q)
}

// notesSource and pageSource are release v's entries.
func notesSource(base string, v knowledge.Version, optional bool) source {
	return source{name: NotesName(v), url: releaseURL(base, v, "release-notes/release-notes-draft.json"), kind: kindNotes, release: v, optional: optional}
}

func pageSource(base string, v knowledge.Version, optional bool) source {
	return source{name: PageName(v), url: releaseURL(base, v, "README.md"), kind: kindPage, release: v, optional: optional}
}

// knownNotes returns the releases whose notes as data the knowledge holds:
// those its sources name, and those a state says were read.
func knownNotes(sources []knowledge.Source, states map[string]bool) []knowledge.Version {
	seen := map[knowledge.Version]bool{}
	var out []knowledge.Version
	add := func(v knowledge.Version) {
		if !v.IsZero() && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, s := range sources {
		if s.Kind == knowledge.SourceReleaseNotesData {
			if v, ok := relnotes.ReleaseOf(s.ID); ok {
				add(v)
			}
		}
	}
	for name, ok := range states {
		if v, err := knowledge.ParseVersion(strings.TrimPrefix(name, "release-notes/")); ok && err == nil && strings.HasPrefix(name, "release-notes/") {
			add(v)
		}
	}
	sortVersions(out)
	return out
}
