package refresh

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
)

// Default URLs of the sources. Each can be changed in the config and the
// environment (BOT_SYNC_URL, BOT_RELNOTES_URL, BOT_LIFECYCLE_URL,
// BOT_PATCHES_URL, BOT_API_LIFECYCLE_URL), for a mirror or a test server.
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
	// DefaultAPILifecycleURL is the folder of GitHub's tarballs of
	// kubernetes/api (the mirror of the Go module k8s.io/api) per tag:
	// <base>/v0.N.P.tar.gz is Kubernetes 1.N.P's, redirected to codeload.
	DefaultAPILifecycleURL = "https://github.com/kubernetes/api/archive/refs/tags"
)

// DefaultHosts are the hosts the default sources live on.
var DefaultHosts = []string{"api.github.com", "codeload.github.com", "github.com", "raw.githubusercontent.com"}

// FirstNotes is the oldest release whose notes as data are asked for when
// the knowledge knows none: sig-release keeps them in this form from 1.25.
var FirstNotes = knowledge.Version{Major: 1, Minor: 25}

// FirstAPI is the oldest release whose API lifecycle markers are asked
// for: prerelease-lifecycle-gen was added to k8s.io/api in 1.19.
var FirstAPI = knowledge.Version{Major: 1, Minor: 19}

// Names of the sources in the registry: the keys of their states, their
// metrics and the lines of a report.
const (
	NameKEPYAML   = "kep.yaml"
	NameLifecycle = "lifecycle"
	NamePatches   = "patches"
	// NameAPILifecycle names the API lifecycle sources together, one per
	// release (APIName), as Options.Only takes it.
	NameAPILifecycle = "api-lifecycle"
)

// NotesName and PageName are the names of release v's notes and page.
func NotesName(v knowledge.Version) string { return "release-notes/" + v.String() }
func PageName(v knowledge.Version) string  { return "release-page/" + v.String() }

// APIName is the name of release v's k8s.io/api source:
// "api-lifecycle/1.30".
func APIName(v knowledge.Version) string { return NameAPILifecycle + "/" + v.String() }

// kind says how a source is read.
type kind int

const (
	kindKEPYAML kind = iota
	kindNotes
	kindPage
	kindLifecycle
	kindPatches
	kindAPI
)

// source is one entry of the registry.
type source struct {
	name    string
	url     string // as configured: may hold a token in its query, so never logged (see shown)
	kind    kind
	release knowledge.Version // kindNotes, kindPage, kindAPI
	tag     string            // kindAPI: the module's tag, v0.30.14
	// optional is true for a release not known yet: a 404 means its notes
	// are not published, not a failure. An API lifecycle source is always
	// optional: its tag may not be published on the mirror yet.
	optional bool
}

// shown is the source's URL fit to print and store.
func (s source) shown() string { return fetch.Redact(s.url) }

// URLs are where the sources live.
type URLs struct {
	Sync, Relnotes, Lifecycle, Patches string
	// APILifecycle is the folder of k8s.io/api's tarballs per tag:
	// <APILifecycle>/v0.N.P.tar.gz.
	APILifecycle string
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
	if u.APILifecycle == "" {
		u.APILifecycle = DefaultAPILifecycleURL
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

// apiSource is release v's k8s.io/api entry at tag: base's
// <base>/<tag>.tar.gz, keeping base's query (a mirror's token) at the end.
func apiSource(base string, v knowledge.Version, tag string) source {
	q := ""
	if i := strings.IndexByte(base, '?'); i >= 0 {
		base, q = base[:i], base[i:]
	}
	return source{name: APIName(v), url: strings.TrimRight(base, "/") + "/" + tag + ".tar.gz" + q, kind: kindAPI, release: v, tag: tag, optional: true}
}

// apiTag is one k8s.io/api tag: v0.N.P, and whether it is a pre-release
// (v0.37.0-rc.1, older than v0.37.0).
type apiTag struct {
	release knowledge.Version
	patch   int
	pre     bool
}

func (t apiTag) String() string {
	return fmt.Sprintf("v0.%d.%d", t.release.Minor, t.patch)
}

// covers reports whether the knowledge holding tag t makes asking for w
// needless: the same minor, at w's patch or a later one (a tag never
// changes, and a later patch supersedes it).
func (t apiTag) covers(w apiTag) bool {
	return t.release == w.release && (t.patch > w.patch || t.patch == w.patch && !t.pre)
}

// parseAPITag reads a module tag: v0.30.14, v0.37.0-rc.1.
func parseAPITag(tag string) (apiTag, bool) {
	v, ok := apilifecycle.ReleaseOfTag(tag)
	if !ok {
		return apiTag{}, false
	}
	rest := strings.TrimPrefix(tag, fmt.Sprintf("v0.%d.", v.Minor))
	num, pre, _ := strings.Cut(rest, "-")
	p, err := strconv.Atoi(num)
	if err != nil || p < 0 {
		return apiTag{}, false
	}
	return apiTag{release: v, patch: p, pre: pre != ""}, true
}

// latestAPITags returns the tag of k8s.io/api to read for each release
// from FirstAPI whose latest patch the lifecycle data names (1.30.14 is
// v0.30.14), oldest release first. Releases it does not name, or names
// no patch of, are not asked for.
func latestAPITags(lcs []knowledge.Lifecycle) []apiTag {
	best := map[knowledge.Version]apiTag{}
	for _, l := range lcs {
		if l.Release.Less(FirstAPI) || l.Release.Major != 1 {
			continue
		}
		parts := strings.Split(strings.TrimSpace(l.Latest), ".")
		if len(parts) != 3 || parts[0] != "1" || parts[1] != strconv.Itoa(l.Release.Minor) {
			continue
		}
		p, err := strconv.Atoi(parts[2])
		if err != nil || p < 0 || p > 9999 {
			continue
		}
		if b, ok := best[l.Release]; !ok || b.patch < p {
			best[l.Release] = apiTag{release: l.Release, patch: p}
		}
	}
	out := make([]apiTag, 0, len(best))
	for _, t := range best {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].release.Less(out[j].release) })
	return out
}

// heldAPI returns, by release, the newest k8s.io/api tag among sources and
// the source's ID. A source whose tag is unknown (k8s.io/api@v0.37) holds
// no tag.
func heldAPI(sources []knowledge.Source) map[knowledge.Version]heldTag {
	out := map[knowledge.Version]heldTag{}
	for _, s := range sources {
		tag, ok := strings.CutPrefix(s.ID, apilifecycle.APIModule+"@")
		if s.Kind != knowledge.SourceAPILifecycle || !ok {
			continue
		}
		t, ok := parseAPITag(tag)
		if !ok {
			continue
		}
		if h, seen := out[t.release]; !seen || !h.tag.covers(t) {
			out[t.release] = heldTag{tag: t, id: s.ID}
		}
	}
	return out
}

type heldTag struct {
	tag apiTag
	id  string
}

// apiIDsOf returns the IDs of the k8s.io/api sources of release v among
// sources, at any tag: those a newer patch of v replaces.
func apiIDsOf(sources []knowledge.Source, v knowledge.Version) []string {
	var out []string
	for _, s := range sources {
		if s.Kind != knowledge.SourceAPILifecycle || !strings.HasPrefix(s.ID, apilifecycle.APIModule+"@") {
			continue
		}
		if r, ok := knowledge.APISourceRelease(s.ID); ok && r == v {
			out = append(out, s.ID)
		}
	}
	return out
}
