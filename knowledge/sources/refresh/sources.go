package refresh

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
	"github.com/kepbot/kepbot/knowledge/sources/apilifecycle"
	"github.com/kepbot/kepbot/knowledge/sources/fetch"
	"github.com/kepbot/kepbot/knowledge/sources/relnotes"
)

// DefaultHosts are the hosts the default sources live on.
var DefaultHosts = []string{"api.github.com", "codeload.github.com", "github.com", "raw.githubusercontent.com", "proxy.golang.org", "vuln.go.dev"}

// FirstNotes is the oldest release whose notes as data are asked for when
// the knowledge knows none: sig-release keeps them in this form from 1.25.
var FirstNotes = knowledge.Version{Major: 1, Minor: 25}

// FirstAPI is the oldest release whose API lifecycle markers are asked
// for: prerelease-lifecycle-gen was added to k8s.io/api in 1.19.
var FirstAPI = knowledge.Version{Major: 1, Minor: 19}

// Names are the names of the registry's formats refresh asks for, as
// Options.Only takes them.
func Names() []string {
	var out []string
	for _, f := range sources.Formats {
		if f.Remote != nil {
			out = append(out, f.Name)
		}
	}
	return out
}

// NotesName and PageName are the names of release v's notes and page.
func NotesName(v knowledge.Version) string { return sources.NameReleaseNotes + "/" + v.String() }
func PageName(v knowledge.Version) string  { return sources.NameReleasePage + "/" + v.String() }

// APIName is the name of release v's k8s.io/api source:
// "api-lifecycle/1.30".
func APIName(v knowledge.Version) string { return sources.NameAPILifecycle + "/" + v.String() }

// source is one source a pass asks: one of a format's (sources.Each).
type source struct {
	name    string
	url     string // as configured: may hold a token in its query, so never logged (see shown)
	format  *sources.Format
	release knowledge.Version // EachRelease, EachAPITag
	tag     string            // EachAPITag: the module's tag, v0.30.14
	// optional is true for a release not known yet: a 404 means its notes
	// are not published, not a failure. An API lifecycle source is always
	// optional: its tag may not be published on the mirror yet.
	optional bool
}

// shown is the source's URL fit to print and store.
func (s source) shown() string { return fetch.Redact(s.url) }

// URLs are where the sources live, by the registry's URL setting
// (sources.Remote.Setting: sync, relnotes, lifecycle, patches,
// api-lifecycle); a setting left out or empty is its default.
type URLs map[string]string

// withDefaults returns u with every setting of the registry filled in.
func (u URLs) withDefaults() URLs {
	out := URLs{}
	for _, f := range sources.Formats {
		if r := f.Remote; r != nil {
			out[r.Setting] = r.Default
		}
	}
	for k, v := range u {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// withQuery joins base, path and base's query (a mirror's token), which
// stays at the end.
func withQuery(base, path string) string {
	q := ""
	if i := strings.IndexByte(base, '?'); i >= 0 {
		base, q = base[:i], base[i:]
	}
	return strings.TrimRight(base, "/") + "/" + path + q
}

// onceSource is format f's one source.
func onceSource(u URLs, f *sources.Format) source {
	return source{name: f.Name, url: u[f.Remote.Setting], format: f}
}

// releaseSource is release v's source of format f: the file under
// release-1.N/ of its setting's folder.
func releaseSource(u URLs, f *sources.Format, v knowledge.Version, optional bool) source {
	url := withQuery(u[f.Remote.Setting], "release-"+v.String()+"/"+f.Remote.File)
	return source{name: f.Name + "/" + v.String(), url: url, format: f, release: v, optional: optional}
}

// knownNotes returns the releases whose notes as data the knowledge holds:
// those its sources name, and those a state says were read.
func knownNotes(srcs []knowledge.Source, states map[string]bool) []knowledge.Version {
	seen := map[knowledge.Version]bool{}
	var out []knowledge.Version
	add := func(v knowledge.Version) {
		if !v.IsZero() && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, s := range srcs {
		if s.Kind == knowledge.SourceReleaseNotesData {
			if v, ok := relnotes.ReleaseOf(s.ID); ok {
				add(v)
			}
		}
	}
	for name, ok := range states {
		if rest, cut := strings.CutPrefix(name, sources.NameReleaseNotes+"/"); ok && cut {
			v, err := knowledge.ParseVersion(rest)
			if err != nil {
				continue
			}
			add(v)
		}
	}
	sortVersions(out)
	return out
}

// apiSource is release v's source of format f at tag: <url>/<tag>.tar.gz.
func apiSource(u URLs, f *sources.Format, v knowledge.Version, tag string) source {
	return source{name: f.Name + "/" + v.String(), url: withQuery(u[f.Remote.Setting], tag+".tar.gz"), format: f, release: v, tag: tag, optional: true}
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
func heldAPI(srcs []knowledge.Source) map[knowledge.Version]heldTag {
	out := map[knowledge.Version]heldTag{}
	for _, s := range srcs {
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
func apiIDsOf(srcs []knowledge.Source, v knowledge.Version) []string {
	var out []string
	for _, s := range srcs {
		if s.Kind != knowledge.SourceAPILifecycle || !strings.HasPrefix(s.ID, apilifecycle.APIModule+"@") {
			continue
		}
		if r, ok := knowledge.APISourceRelease(s.ID); ok && r == v {
			out = append(out, s.ID)
		}
	}
	return out
}
