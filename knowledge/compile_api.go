package knowledge

import (
	"slices"
	"sort"
	"strings"
)

// compileAPIs joins what the API modules say of each type (c.APITypes)
// with what documents say of API versions (c.APIClaims, and the notices
// that name an API) into one lifecycle per group/version/kind, and returns
// it with the releases whose modules were read.
//
// Each value rests on its strongest evidence (see basisRank): the release
// notes of the release that did it win over the migration guide, the guide
// over release posts, and any document over the modules, whose removal
// markers are often projections. Among the modules' evidence, a release
// whose module no longer carries a type bounds its removal: the markers'
// release is kept when it is not later. Every source's word stays in
// Evidence, so answers can say where sources disagree.
func compileAPIs(c *Corpus, sources []Source) ([]APILifecycle, []Version) {
	mods := apiModules(sources)
	j := &apiJoin{at: map[APIRef]int{}}
	for _, t := range c.APITypes {
		j.addType(t, mods)
	}
	for _, cl := range apiClaims(c, sources) {
		j.addClaim(cl)
	}
	for i := range j.out {
		resolveAPI(&j.out[i])
	}
	sort.Slice(j.out, func(a, b int) bool { return APIRefLess(j.out[a].API, j.out[b].API) })
	return j.out, mods.all()
}

// apiJoin gathers the lifecycles being joined.
type apiJoin struct {
	out []APILifecycle
	at  map[APIRef]int // index in out
}

func (j *apiJoin) entry(ref APIRef) *APILifecycle {
	if i, ok := j.at[ref]; ok {
		return &j.out[i]
	}
	j.at[ref] = len(j.out)
	j.out = append(j.out, APILifecycle{API: ref})
	return &j.out[len(j.out)-1]
}

// addType records a module's word on one type: its markers, the first
// release that carries it (when an older one was read) and the release
// after the last that carries it (when a newer one was read).
func (j *apiJoin) addType(t APIType, mods apiModuleReleases) {
	if t.API.Kind == "" || t.API.Version == "" {
		return
	}
	l := j.entry(t.API)
	l.First, l.Last = t.First, t.Last
	mod := apiModuleOf(t.Source)
	if !t.Introduced.IsZero() {
		l.Evidence = append(l.Evidence, APIEvidence{Action: APIIntroduced, Release: t.Introduced, Basis: BasisMarkers, Source: t.Source})
	}
	if !t.Deprecated.IsZero() {
		l.Evidence = append(l.Evidence, APIEvidence{Action: APIDeprecated, Release: t.Deprecated, Basis: BasisMarkers, Source: t.Source})
	}
	if !t.Removed.IsZero() {
		l.Evidence = append(l.Evidence, APIEvidence{Action: APIRemoved, Release: t.Removed, Basis: BasisMarkers, Source: t.Source})
	}
	if t.Replacement != nil {
		r := *t.Replacement
		// k8s.io/api names the list type (IngressClassList) as the
		// replacement of networking.k8s.io/v1beta1 IngressClass: the
		// replacement of a kind is that kind.
		if r.Kind == t.API.Kind+"List" {
			r.Kind = t.API.Kind
		}
		l.Evidence = append(l.Evidence, APIEvidence{Replacement: &r, Basis: BasisMarkers, Source: t.Source})
	}
	if !t.First.IsZero() && mods.readBefore(mod, t.First) {
		l.Evidence = append(l.Evidence, APIEvidence{Action: APIIntroduced, Release: t.First, Basis: BasisPresent, Source: mods.source(mod, t.First, t.Source)})
	}
	// A GA type the modules stop carrying is one that was never served on
	// its own (core/v1 PodStatusResult): only a prerelease version that
	// goes is a removal.
	if next, src, ok := mods.after(mod, t.Last); ok && !t.Last.IsZero() && LevelOf(t.API.Version) != APIGA {
		l.Evidence = append(l.Evidence, APIEvidence{Action: APIRemoved, Release: next, Basis: BasisAbsent, Source: src})
	}
}

// addClaim records a document's word on the kinds of a group/version. A
// claim whose group it cannot tell (a version alone, with kinds no group
// or several groups serve at that version), or that names no kind the
// modules know and lists none itself, is dropped.
func (j *apiJoin) addClaim(cl apiClaim) {
	group, version, ok := j.claimGroup(cl)
	if !ok {
		return
	}
	kinds := cl.Kinds
	if len(kinds) == 0 {
		kinds = j.kindsBefore(group, version, cl.Release, cl.Except)
	}
	for _, kind := range kinds {
		ref := APIRef{Group: group, Version: version, Kind: kind}
		if !j.plausible(ref, cl) {
			continue
		}
		l := j.entry(ref)
		l.Evidence = append(l.Evidence, APIEvidence{Action: cl.Action, Release: cl.Release, Basis: cl.basis, Source: cl.Source, PR: cl.PR})
		if cl.Kept {
			l.Evidence = append(l.Evidence, APIEvidence{Action: APIKept, Release: cl.Release, Basis: cl.basis, Source: cl.Source, PR: cl.PR})
		}
		if cl.ReplacedByKind != "" {
			if rep, ok := j.servedKind(cl.ReplacedByKind, cl.Release); ok {
				l.Evidence = append(l.Evidence, APIEvidence{Replacement: &rep, Basis: cl.basis, Source: cl.Source, PR: cl.PR})
			}
			continue
		}
		if cl.ReplacedBy == "" {
			continue
		}
		rg, rv, ok := ParseAPIVersion(cl.ReplacedBy)
		if !ok {
			continue
		}
		rep := APIRef{Group: rg, Version: rv, Kind: kind}
		l.Evidence = append(l.Evidence, APIEvidence{Replacement: &rep, Basis: cl.basis, Source: cl.Source, PR: cl.PR})
		if !cl.Since.IsZero() {
			r := j.entry(rep)
			r.Evidence = append(r.Evidence, APIEvidence{Action: APIIntroduced, Release: cl.Since, Basis: cl.basis, Source: cl.Source, PR: cl.PR})
		}
	}
}

// claimGroup finds the group and version a claim speaks of: written in
// full, or (a version alone) the one group whose modules serve every kind
// the claim names at that version.
func (j *apiJoin) claimGroup(cl apiClaim) (group, version string, ok bool) {
	if strings.Contains(cl.GroupVersion, "/") {
		return ParseAPIVersion(cl.GroupVersion)
	}
	version = cl.GroupVersion
	if !IsAPIVersionName(version) || len(cl.Kinds) == 0 {
		return "", "", false
	}
	found := ""
	for _, kind := range cl.Kinds {
		var groups []string
		for _, l := range j.out {
			if l.API.Version == version && l.API.Kind == kind && !l.First.IsZero() && !slices.Contains(groups, l.API.Group) {
				groups = append(groups, l.API.Group)
			}
		}
		if len(groups) != 1 || (found != "" && groups[0] != found) {
			return "", "", false
		}
		found = groups[0]
	}
	return found, version, true
}

// servedKind is the group/version that serves kind in release v, named by
// a document without its version ("use the EndpointSlice API"): the most
// stable of those the modules carry in v. ok is false when none does.
func (j *apiJoin) servedKind(kind string, v Version) (APIRef, bool) {
	rank := map[APILevel]int{APIGA: 0, APIBeta: 1, APIAlpha: 2}
	var best *APILifecycle
	for i := range j.out {
		l := &j.out[i]
		if l.API.Kind != kind || l.First.IsZero() || v.Less(l.First) || l.Last.Less(v) {
			continue
		}
		if best == nil || rank[l.Level()] < rank[best.Level()] {
			best = l
		}
	}
	if best == nil {
		return APIRef{}, false
	}
	return best.API, true
}

// kindsBefore lists the kinds the modules carried under group/version in
// the release before v (all it ever carried, when no module says), but
// those in except.
func (j *apiJoin) kindsBefore(group, version string, v Version, except []string) []string {
	prev := Version{Major: v.Major, Minor: v.Minor - 1}
	var out []string
	for _, l := range j.out {
		if l.API.Group != group || l.API.Version != version || l.First.IsZero() || containsFold(except, l.API.Kind) {
			continue
		}
		if v.Minor > 0 && (prev.Less(l.First) || l.Last.Less(prev)) {
			continue
		}
		out = append(out, l.API.Kind)
	}
	return out
}

// plausible reports whether a claim can be about ref: a removal or a
// deprecation in a release before the modules' first release of the type
// marks it introduced in is a claim about something else.
func (j *apiJoin) plausible(ref APIRef, cl apiClaim) bool {
	i, ok := j.at[ref]
	if !ok || cl.Action == APIIntroduced {
		return true
	}
	for _, e := range j.out[i].Evidence {
		if e.Action == APIIntroduced && e.Basis == BasisMarkers && cl.Release.Less(e.Release) {
			return false
		}
	}
	return true
}

// basisRank orders evidence strongest first.
var basisRank = map[APIBasis]int{BasisNotes: 0, BasisGuide: 1, BasisPost: 2, BasisAbsent: 3, BasisMarkers: 4, BasisPresent: 5}

// BasisRank orders evidence strongest first: 0 for release notes, the
// strongest, up to 5 for the module holding the type.
func BasisRank(b APIBasis) int { return basisRank[b] }

// introducedRank orders evidence of an introduction: the first release
// whose module registers the type (when an older one was read) is where it
// came; the documents next; the markers last, since they give what was
// planned (ClusterTrustBundle is marked introduced in 1.26, and only the
// module of 1.27 registers it).
var introducedRank = map[APIBasis]int{BasisPresent: 0, BasisNotes: 1, BasisGuide: 2, BasisPost: 3, BasisMarkers: 4}

// resolveAPI sets l's values from its evidence and marks what each rests on.
func resolveAPI(l *APILifecycle) {
	sortEvidence(l.Evidence)
	for i, e := range l.Evidence {
		if e.Action == APIKept {
			l.Kept = true
			l.Evidence[i].Used = true
		}
	}
	if i := pickRemoval(l.Evidence); i >= 0 && !(l.Kept && l.Evidence[i].Basis == BasisMarkers) {
		l.Removed = l.Evidence[i].Release
		l.Evidence[i].Used = true
	}
	if i := pickBy(l.Evidence, APIDeprecated, basisRank); i >= 0 {
		d := l.Evidence[i].Release
		if l.Removed.IsZero() || !l.Removed.Less(d) {
			l.Deprecated = d
			l.Evidence[i].Used = true
		}
	}
	if i := pickBy(l.Evidence, APIIntroduced, introducedRank); i >= 0 {
		l.Introduced = l.Evidence[i].Release
		l.Evidence[i].Used = true
	}
	for i := range l.Evidence {
		if e := &l.Evidence[i]; e.Replacement != nil && *e.Replacement != l.API {
			r := *e.Replacement
			l.Replacement = &r
			e.Used = true
			break
		}
	}
}

// pickRemoval chooses the removal evidence: the strongest document's
// (the earliest of its releases); else, among the modules, the markers'
// release unless a release whose module no longer carries the type comes
// before it, which then wins.
func pickRemoval(ev []APIEvidence) int {
	best := -1
	for i, e := range ev {
		if e.Action != APIRemoved || e.Basis == BasisAbsent || e.Basis == BasisMarkers {
			continue
		}
		if best < 0 || basisRank[e.Basis] < basisRank[ev[best].Basis] ||
			(e.Basis == ev[best].Basis && e.Release.Less(ev[best].Release)) {
			best = i
		}
	}
	if best >= 0 {
		return best
	}
	absent, marker := -1, -1
	for i, e := range ev {
		switch {
		case e.Action != APIRemoved:
		case e.Basis == BasisAbsent && absent < 0:
			absent = i
		case e.Basis == BasisMarkers && marker < 0:
			marker = i
		}
	}
	if marker >= 0 && (absent < 0 || !ev[absent].Release.Less(ev[marker].Release)) {
		return marker
	}
	return absent
}

// pickBy chooses the evidence of one action ranked first by rank, the
// earliest release among equals.
func pickBy(ev []APIEvidence, action APIAction, rank map[APIBasis]int) int {
	best := -1
	for i, e := range ev {
		if e.Action != action || e.Replacement != nil {
			continue
		}
		if best < 0 || rank[e.Basis] < rank[ev[best].Basis] ||
			(e.Basis == ev[best].Basis && e.Release.Less(ev[best].Release)) {
			best = i
		}
	}
	return best
}

// sortEvidence orders evidence by action (removed, deprecated, introduced,
// replacement), then strength, then release, then source, so that a
// lifecycle's evidence reads the same from any order of sources.
func sortEvidence(ev []APIEvidence) {
	act := func(e APIEvidence) int {
		switch {
		case e.Replacement != nil:
			return 3
		case e.Action == APIRemoved:
			return 0
		case e.Action == APIDeprecated:
			return 1
		}
		return 2
	}
	sort.SliceStable(ev, func(a, b int) bool {
		x, y := ev[a], ev[b]
		if act(x) != act(y) {
			return act(x) < act(y)
		}
		if basisRank[x.Basis] != basisRank[y.Basis] {
			return basisRank[x.Basis] < basisRank[y.Basis]
		}
		if x.Release != y.Release {
			return x.Release.Less(y.Release)
		}
		if x.Source != y.Source {
			return x.Source < y.Source
		}
		return x.PR < y.PR
	})
}

// apiClaim is an APIClaim with the basis its source gives it.
type apiClaim struct {
	APIClaim
	basis APIBasis
}

// apiClaims gathers what documents say of API versions: the claims the
// release notes as data make, and every notice that names an API (the
// migration guide's removals, release posts' and notes' API removals).
func apiClaims(c *Corpus, sources []Source) []apiClaim {
	kind := map[string]SourceKind{}
	for _, s := range sources {
		kind[s.ID] = s.Kind
	}
	basisOf := func(src string) APIBasis {
		switch kind[src] {
		case SourceReleaseNotesData:
			return BasisNotes
		case SourceDeprecationGuide:
			return BasisGuide
		}
		return BasisPost
	}
	var out []apiClaim
	for _, cl := range c.APIClaims {
		if !cl.Release.IsZero() && cl.GroupVersion != "" {
			out = append(out, apiClaim{APIClaim: cl, basis: basisOf(cl.Source)})
		}
	}
	for _, n := range c.Notices {
		if n.API == nil || n.Release.IsZero() {
			continue
		}
		action := APIRemoved
		if n.Kind == NoticeDeprecation {
			action = APIDeprecated
		} else if n.Kind != NoticeRemoval {
			continue
		}
		out = append(out, apiClaim{APIClaim: APIClaim{
			Action: action, Release: n.Release, GroupVersion: n.API.GroupVersion, Kinds: n.API.Kinds,
			ReplacedBy: n.API.ReplacedBy, Since: n.API.Since, PR: n.PR, Source: n.Source, Line: n.Line,
		}, basis: basisOf(n.Source)})
	}
	return out
}

// apiModuleReleases lists, per API module, the releases read and their
// sources, oldest first.
type apiModuleReleases map[string][]apiModuleRelease

type apiModuleRelease struct {
	release Version
	source  string
}

func apiModules(sources []Source) apiModuleReleases {
	m := apiModuleReleases{}
	for _, s := range sources {
		if s.Kind != SourceAPILifecycle {
			continue
		}
		v, ok := APISourceRelease(s.ID)
		if !ok {
			continue
		}
		mod := apiModuleOf(s.ID)
		m[mod] = append(m[mod], apiModuleRelease{release: v, source: s.ID})
	}
	for _, rs := range m {
		sort.Slice(rs, func(a, b int) bool { return rs[a].release.Less(rs[b].release) })
	}
	return m
}

// apiModuleOf is the module of an API module's source ID: "k8s.io/api".
func apiModuleOf(id string) string {
	mod, _, _ := strings.Cut(id, "@")
	return mod
}

// readBefore reports whether module mod was read at a release older than v.
func (m apiModuleReleases) readBefore(mod string, v Version) bool {
	rs := m[mod]
	return len(rs) > 0 && rs[0].release.Less(v)
}

// after returns the first release read of module mod newer than v.
func (m apiModuleReleases) after(mod string, v Version) (Version, string, bool) {
	for _, r := range m[mod] {
		if v.Less(r.release) {
			return r.release, r.source, true
		}
	}
	return Version{}, "", false
}

// source returns the source of module mod's release v, else fallback.
func (m apiModuleReleases) source(mod string, v Version, fallback string) string {
	for _, r := range m[mod] {
		if r.release == v {
			return r.source
		}
	}
	return fallback
}

// all lists every release read, of any module, oldest first, once each.
func (m apiModuleReleases) all() []Version {
	var out []Version
	for _, rs := range m {
		for _, r := range rs {
			if !slices.Contains(out, r.release) {
				out = append(out, r.release)
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Less(out[b]) })
	return out
}

// APIRefLess orders references by group, version (by stability: v1alpha1,
// v1beta1, v1, v2beta1, v2), then kind.
func APIRefLess(a, b APIRef) bool {
	if a.Group != b.Group {
		return a.Group < b.Group
	}
	if a.Version != b.Version {
		return CompareAPIVersions(a.Version, b.Version) < 0
	}
	return a.Kind < b.Kind
}

// CompareAPIVersions orders API versions as Kubernetes does: by major
// number, then alpha before beta before GA, then by the pre-release
// number. v1alpha1 < v1beta1 < v1beta2 < v1 < v2beta1 < v2.
func CompareAPIVersions(a, b string) int {
	ma, la, na := splitAPIVersion(a)
	mb, lb, nb := splitAPIVersion(b)
	switch {
	case ma != mb:
		return cmpInt(ma, mb)
	case la != lb:
		return cmpInt(la, lb)
	case na != nb:
		return cmpInt(na, nb)
	}
	return strings.Compare(a, b)
}

// splitAPIVersion reads v2beta3 as 2, 1 (alpha 0, beta 1, GA 2), 3.
func splitAPIVersion(s string) (major, level, n int) {
	s = strings.TrimPrefix(s, "v")
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		major = major*10 + int(s[i]-'0')
		i++
	}
	rest := s[i:]
	level = 2
	switch {
	case strings.HasPrefix(rest, "alpha"):
		level, rest = 0, rest[len("alpha"):]
	case strings.HasPrefix(rest, "beta"):
		level, rest = 1, rest[len("beta"):]
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return major, level, n
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
