package knowledge

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// SourceAPILifecycle is one release of the Go module k8s.io/api (or of
// k8s.io/apiextensions-apiserver, k8s.io/kube-aggregator): the group
// versions and kinds it registers and the lifecycle markers
// (prerelease-lifecycle-gen) of its alpha and beta types.
const SourceAPILifecycle SourceKind = "api-lifecycle"

// APIRef names one API type: a kind served under a group and version. The
// core group is "" (apiVersion "v1"). Kind is empty when a reference names
// a whole group/version.
type APIRef struct {
	Group   string `json:"group,omitempty"`
	Version string `json:"version"`
	Kind    string `json:"kind,omitempty"`
}

// GroupVersion writes r as a manifest's apiVersion: "apps/v1", or "v1"
// for the core group.
func (r APIRef) GroupVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// String writes "apps/v1 Deployment", or the group/version alone when r
// names no kind.
func (r APIRef) String() string {
	if r.Kind == "" {
		return r.GroupVersion()
	}
	return r.GroupVersion() + " " + r.Kind
}

// GroupVersionOnly returns r without its kind.
func (r APIRef) GroupVersionOnly() APIRef { return APIRef{Group: r.Group, Version: r.Version} }

// ParseAPIVersion reads a manifest's apiVersion, "apps/v1" or "v1", into
// its group and version. ok is false when s is not shaped like one: empty,
// more than one slash, or a version that does not start with "v" and a
// digit.
func ParseAPIVersion(s string) (group, version string, ok bool) {
	group, version, found := strings.Cut(s, "/")
	if !found {
		group, version = "", s
	} else if group == "" || strings.Contains(version, "/") {
		return "", "", false
	}
	if !IsAPIVersionName(version) {
		return "", "", false
	}
	return group, version, true
}

// IsAPIVersionName reports whether s is written like a Kubernetes API
// version: v1, v2beta2, v1alpha3.
func IsAPIVersionName(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '1' || s[1] > '9' {
		return false
	}
	i := 1
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == len(s) {
		return true
	}
	rest := s[i:]
	for _, pre := range []string{"alpha", "beta"} {
		if n, ok := strings.CutPrefix(rest, pre); ok {
			if n == "" {
				return false
			}
			_, err := strconv.Atoi(n)
			return err == nil && n[0] != '0' && n[0] != '+' && n[0] != '-'
		}
	}
	return false
}

// APILevel is how stable an API version is: alpha, beta or GA.
type APILevel string

// The API levels.
const (
	APIAlpha APILevel = "alpha"
	APIBeta  APILevel = "beta"
	APIGA    APILevel = "ga"
)

// LevelOf returns the level of an API version: v1alpha1 is alpha, v2beta2
// beta, v1 GA.
func LevelOf(version string) APILevel {
	switch {
	case strings.Contains(version, "alpha"):
		return APIAlpha
	case strings.Contains(version, "beta"):
		return APIBeta
	}
	return APIGA
}

// Label is how answers write a level: "alpha", "beta", "GA".
func (l APILevel) Label() string {
	if l == APIGA {
		return "GA"
	}
	return string(l)
}

// APIType is what the API modules say of one kind under one group/version
// across the releases read: which releases carry it, and its lifecycle
// markers as the newest release that has any gives them (the markers of
// older releases are often projections a later release corrected).
type APIType struct {
	API APIRef `json:"api"`
	// First and Last are the oldest and the newest release read whose
	// module carries the type. A type the newest release read no longer
	// carries is gone from the API (the server cannot serve a version
	// without its types); one still carried may nonetheless have stopped
	// being served long ago.
	First Version `json:"first"`
	Last  Version `json:"last"`
	// Introduced, Deprecated and Removed are the markers, zero when the
	// type has none. Deprecated and Removed are often what the generator
	// projects (introduced + 3, deprecated + 3), not what happened.
	Introduced Version `json:"introduced,omitzero"`
	Deprecated Version `json:"deprecated,omitzero"`
	Removed    Version `json:"removed,omitzero"`
	// Replacement is the type the markers name to use instead.
	Replacement *APIRef `json:"replacement,omitempty"`
	// MarkedIn is the release whose markers these are; zero when the type
	// has none.
	MarkedIn Version `json:"marked_in,omitzero"`
	// Source is the Source.ID of the release read at MarkedIn, or at Last
	// for a type without markers.
	Source string `json:"source"`
}

// APIAction is what a document says happened to an API version in a
// release.
type APIAction string

// The API actions documents state.
const (
	APIRemoved    APIAction = "removed"    // no longer served from this release
	APIDeprecated APIAction = "deprecated" // still served, warned about
	APIIntroduced APIAction = "introduced" // served from this release
	APIKept       APIAction = "kept"       // a document says it will not be removed
)

// APIClaim is one statement a document makes about API versions in one
// release: that some kinds of a group/version stop being served, are
// deprecated, or are introduced there.
type APIClaim struct {
	Action  APIAction `json:"action"`
	Release Version   `json:"release"`
	// GroupVersion is written as the document writes it: a full
	// "resource.k8s.io/v1alpha3", or a version alone ("v1alpha1") when the
	// document names only the kinds and their version; Compile finds the
	// group from the kinds.
	GroupVersion string `json:"group_version"`
	// Kinds are the kinds the statement is about; none means every kind of
	// the group/version but those in Except.
	Kinds  []string `json:"kinds,omitempty"`
	Except []string `json:"except,omitempty"`
	// ReplacedBy is the group/version the document says to use instead,
	// and Since the release it says that is available from.
	ReplacedBy string  `json:"replaced_by,omitempty"`
	Since      Version `json:"since,omitzero"`
	// ReplacedByKind is the kind the document says to use instead when it
	// is another kind than the one it speaks of, named without a version
	// ("use the EndpointSlice API instead"): Compile finds its version.
	ReplacedByKind string `json:"replaced_by_kind,omitempty"`
	// Kept is set when the document says the API will not be removed
	// ("The API will not be removed").
	Kept   bool   `json:"kept,omitempty"`
	PR     int    `json:"pr,omitempty"`   // the release-note entry that says so
	Source string `json:"source"`         // Source.ID
	Line   int    `json:"line,omitempty"` // 1-based line in the source, when known
}

// APIBasis says what a lifecycle value rests on.
type APIBasis string

// The kinds of evidence, strongest first: the release notes of the release
// that did it, the deprecated API migration guide, a release post or note,
// then the API modules (a release whose module no longer carries the type,
// the lifecycle markers, the first release that carries it).
const (
	BasisNotes   APIBasis = "release-notes"
	BasisGuide   APIBasis = "guide"
	BasisPost    APIBasis = "post"
	BasisAbsent  APIBasis = "absent"
	BasisMarkers APIBasis = "markers"
	BasisPresent APIBasis = "present"
)

// APIEvidence is one source's word on one lifecycle value of an API type:
// that it was introduced, deprecated or removed in Release, or (Action
// empty) that Replacement replaces it.
type APIEvidence struct {
	Action      APIAction `json:"action,omitempty"`
	Release     Version   `json:"release,omitzero"`
	Replacement *APIRef   `json:"replacement,omitempty"`
	Basis       APIBasis  `json:"basis"`
	Source      string    `json:"source"` // Source.ID
	PR          int       `json:"pr,omitempty"`
	// Used is true for the evidence the joined value rests on; the rest
	// agree with it or are overruled by stronger evidence.
	Used bool `json:"used,omitempty"`
}

// APILifecycle is one API type joined from every source: when it was
// introduced, deprecated and removed, what replaces it, and each source's
// word on it. A zero Version is unknown (Introduced: before the first
// release read) or not yet (Deprecated, Removed). A Removed or Deprecated
// newer than the newest release read is planned, not reached.
type APILifecycle struct {
	API         APIRef  `json:"api"`
	Introduced  Version `json:"introduced,omitzero"`
	Deprecated  Version `json:"deprecated,omitzero"`
	Removed     Version `json:"removed,omitzero"`
	Replacement *APIRef `json:"replacement,omitempty"`
	// First and Last are the oldest and newest releases read whose module
	// carries the type (zero for a type only documents name).
	First    Version       `json:"first,omitzero"`
	Last     Version       `json:"last,omitzero"`
	Evidence []APIEvidence `json:"evidence,omitempty"`
	// Kept is set when a document says the type will not be removed (the
	// 1.33 notes of v1 Endpoints): a deprecation with no removal to come.
	Kept bool `json:"kept,omitempty"`
}

// Level is the stability of the type's version.
func (l *APILifecycle) Level() APILevel { return LevelOf(l.API.Version) }

// APISourceID names the source that is one release of an API module:
// "k8s.io/api@v0.37.2". tag is the module's tag, v0.N.P for Kubernetes
// 1.N.P.
func APISourceID(module, tag string) string { return module + "@" + tag }

// APISourceRelease returns the Kubernetes minor release an API module's
// source stands for: k8s.io/api@v0.37.2 is 1.37. ok is false for an ID
// APISourceID did not write.
func APISourceRelease(id string) (v Version, ok bool) {
	_, tag, found := strings.Cut(id, "@v0.")
	if !found {
		return Version{}, false
	}
	minor, _, _ := strings.Cut(tag, ".")
	n, err := strconv.Atoi(minor)
	if err != nil || n <= 0 || n > 9999 {
		return Version{}, false
	}
	return Version{Major: 1, Minor: n}, true
}

// UsedEvidence returns the evidence l's value for action rests on.
func UsedEvidence(l *APILifecycle, action APIAction) APIEvidence {
	for _, e := range l.Evidence {
		if e.Used && e.Action == action && e.Replacement == nil {
			return e
		}
	}
	return APIEvidence{}
}

// BasisWords says what a value rests on: "the 1.33 release notes, PR
// #129207", "the migration guide", "k8s.io/api v0.37.2's lifecycle
// markers", "k8s.io/api v0.34.13 no longer has it".
func BasisWords(e APIEvidence, sources map[string]Source) string {
	name := SourceName(sources[e.Source])
	if name == "" {
		name = e.Source
	}
	switch e.Basis {
	case BasisNotes:
		s := "the " + e.Release.String() + " release notes"
		if e.PR > 0 {
			s += fmt.Sprintf(", PR #%d", e.PR)
		}
		return s
	case BasisGuide:
		return "the deprecated API migration guide"
	case BasisPost:
		return name
	case BasisAbsent:
		return ModuleName(e.Source) + " no longer has it"
	case BasisMarkers:
		if e.Action == APIIntroduced { // introductions are written by hand, never projected
			return ModuleName(e.Source) + "'s lifecycle markers"
		}
		return ModuleName(e.Source) + "'s lifecycle markers, not confirmed by a release note"
	case BasisPresent:
		return "first in " + ModuleName(e.Source)
	}
	return name
}

// ModuleName writes an API module's source ID as "k8s.io/api v0.37.2".
func ModuleName(id string) string { return strings.Replace(id, "@", " ", 1) }

// APIFacts is one API type in an answer: its lifecycle, each value with
// what it rests on, for scripts (`bot ask --json`).
type APIFacts struct {
	APIVersion string   `json:"api_version"`
	Kind       string   `json:"kind"`
	Level      APILevel `json:"level"`
	Introduced string   `json:"introduced,omitempty"`
	Deprecated string   `json:"deprecated,omitempty"`
	Removed    string   `json:"removed,omitempty"`
	// DeprecationPlanned and RemovalPlanned are set when that release is
	// newer than the newest release read: planned, not reached.
	DeprecationPlanned bool `json:"deprecation_planned,omitempty"`
	RemovalPlanned     bool `json:"removal_planned,omitempty"`
	// Replacement is what to use instead, in the release asked about (else
	// the newest release read), and the release it is served from.
	Replacement     string `json:"replacement,omitempty"`
	ReplacementFrom string `json:"replacement_from,omitempty"`
	// Served says whether it is served in the release asked about; nil when
	// no release was asked about, or when the sources cannot tell.
	Served   *bool         `json:"served,omitempty"`
	Evidence []APIEvidence `json:"evidence,omitempty"`
	Sources  []SourceRef   `json:"sources,omitempty"`
}

// APITable is the joined API lifecycle, indexed for answers and scans: by
// group/version/kind, by kind and by group/version, each ignoring case.
// It is read-only once made, so safe for concurrent use.
type APITable struct {
	types    []APILifecycle
	byRef    map[APIRef]int   // lower-case group, version and kind
	byKind   map[string][]int // lower-case kind
	byGV     map[string][]int // lower-case apiVersion
	groups   map[string]bool  // lower-case group names the modules serve
	releases []Version
}

// NewAPITable indexes types (as Compile makes them) and the releases whose
// API modules were read.
func NewAPITable(types []APILifecycle, releases []Version) *APITable {
	t := &APITable{
		types:    types,
		byRef:    make(map[APIRef]int, len(types)),
		byKind:   map[string][]int{},
		byGV:     map[string][]int{},
		groups:   map[string]bool{},
		releases: releases,
	}
	for i, l := range types {
		t.byRef[lowerRef(l.API)] = i
		k := strings.ToLower(l.API.Kind)
		t.byKind[k] = append(t.byKind[k], i)
		gv := strings.ToLower(l.API.GroupVersion())
		t.byGV[gv] = append(t.byGV[gv], i)
		if !l.First.IsZero() || l.API.Group != "" {
			t.groups[strings.ToLower(l.API.Group)] = true
		}
	}
	return t
}

func lowerRef(r APIRef) APIRef {
	return APIRef{Group: strings.ToLower(r.Group), Version: strings.ToLower(r.Version), Kind: strings.ToLower(r.Kind)}
}

// Known reports whether the table can answer: it was joined from at least
// one release of the API modules (documents alone cannot tell what is
// served now, nor what is planned).
func (t *APITable) Known() bool { return len(t.releases) > 0 && len(t.types) > 0 }

// Len is the number of API types the table knows.
func (t *APITable) Len() int { return len(t.types) }

// All returns every type, by group, version and kind. Read it, never change it.
func (t *APITable) All() []APILifecycle { return t.types }

// Releases returns the releases whose API modules were read, oldest first.
func (t *APITable) Releases() []Version { return t.releases }

// Latest is the newest release whose API module was read: a removal or
// deprecation after it is planned, not reached. Zero when none was read.
func (t *APITable) Latest() Version {
	if len(t.releases) == 0 {
		return Version{}
	}
	return t.releases[len(t.releases)-1]
}

// Reached reports whether release v has happened as far as the table
// knows: it is not newer than the newest release read.
func (t *APITable) Reached(v Version) bool {
	l := t.Latest()
	return !v.IsZero() && !l.IsZero() && !l.Less(v)
}

// Lookup returns the type ref names, ignoring case.
func (t *APITable) Lookup(ref APIRef) (*APILifecycle, bool) {
	i, ok := t.byRef[lowerRef(ref)]
	if !ok {
		return nil, false
	}
	return &t.types[i], true
}

// Kind returns every type of that kind, in any group and version.
func (t *APITable) Kind(kind string) []*APILifecycle {
	return t.pick(t.byKind[strings.ToLower(kind)])
}

// GroupVersion returns every kind of an apiVersion ("batch/v1beta1").
func (t *APITable) GroupVersion(apiVersion string) []*APILifecycle {
	return t.pick(t.byGV[strings.ToLower(apiVersion)])
}

func (t *APITable) pick(ix []int) []*APILifecycle {
	out := make([]*APILifecycle, len(ix))
	for i, j := range ix {
		out[i] = &t.types[j]
	}
	return out
}

// BuiltinGroup reports whether group is built into Kubernetes: served by
// the API modules read ("" is the core group). Any other group belongs to
// a CustomResourceDefinition or an aggregated API.
func (t *APITable) BuiltinGroup(group string) bool { return t.groups[strings.ToLower(group)] }

// Kinds lists every kind the table knows, once each, sorted.
func (t *APITable) Kinds() []string {
	out := make([]string, 0, len(t.byKind))
	seen := map[string]bool{}
	for _, l := range t.types {
		if !seen[l.API.Kind] {
			seen[l.API.Kind] = true
			out = append(out, l.API.Kind)
		}
	}
	sort.Strings(out)
	return out
}

// payloadGroups are the API groups whose types are request payloads the
// API server sends to a webhook, never resources it serves, and whom it
// sends them to.
var payloadGroups = map[string]string{
	"admission.k8s.io":   "admission webhooks",
	"imagepolicy.k8s.io": "an image policy webhook",
}

// PayloadTo names who the API server sends l's type to when it is a
// request payload, not a served resource (admission.k8s.io AdmissionReview,
// imagepolicy.k8s.io ImageReview); "" for a served type.
func (l *APILifecycle) PayloadTo() string { return payloadGroups[l.API.Group] }

// AlphaServing says what an alpha group/version needs to be served: the
// API server turns it on with --runtime-config and its feature gate, where
// it has one, is on.
func AlphaServing(gv string) string {
	return "alpha: served only where the API server enables it (--runtime-config=" + gv + "=true) and its feature gate is on"
}

// ServedIn reports whether l is served in release v: introduced at or
// before v (or of unknown start) and not yet removed. An alpha type is
// served only where its feature gate turns it on.
func (l *APILifecycle) ServedIn(v Version) bool {
	if !l.Removed.IsZero() && !v.Less(l.Removed) {
		return false
	}
	return l.Introduced.IsZero() || !v.Less(l.Introduced)
}

// DeprecatedIn reports whether l is deprecated in release v (and still
// served there).
func (l *APILifecycle) DeprecatedIn(v Version) bool {
	return !l.Deprecated.IsZero() && !v.Less(l.Deprecated) && l.ServedIn(v)
}

// maxReplacementSteps bounds a walk along replacements; real chains are
// three long (flowcontrol v1beta1 → v1beta2 → v1beta3 → v1).
const maxReplacementSteps = 16

// Bridge returns l's own replacement when the end of its chain, rep
// (looked up as r), came only with l's removal while l's own replacement
// was served before it: a cluster older than that removal moves to the
// bridge first (flowcontrol v1beta2 to v1beta3, served since 1.26, before
// 1.29 brings v1). ok is false when there is no such step.
func (t *APITable) Bridge(l *APILifecycle, rep APIRef, r *APILifecycle) (bridge *APILifecycle, ok bool) {
	if r == nil || l.Replacement == nil || *l.Replacement == rep || l.Removed.IsZero() || r.Introduced.Less(l.Removed) {
		return nil, false
	}
	d, known := t.Lookup(*l.Replacement)
	if !known || d.Introduced.IsZero() || !d.Introduced.Less(l.Removed) {
		return nil, false
	}
	return d, true
}

// BridgeWords says what a cluster older than l's removal moves to first,
// b (APITable.Bridge): "; before 1.29, flowcontrol.apiserver.k8s.io/v1beta3
// FlowSchema (served since 1.26)", written after the replacement.
func BridgeWords(l, b *APILifecycle) string {
	return "; before " + l.Removed.String() + ", " + b.API.String() + " (served since " + b.Introduced.String() + ")"
}

// ReplacementIn returns what to use instead of l in release v: of the
// kinds l's replacements name (followed along their own replacements) and
// l's own kind, the type served in v that is not deprecated there when one
// is, and the most stable of those (GA, then beta, then alpha; then the
// newer). In l's own group only a version of at least l's major version
// that is more stable or newer counts (autoscaling/v2beta1 moves to
// v2beta2 or v2, never back to v1, which has no metrics; a beta never to
// an alpha), unless nothing else is served. A replacement must be served
// in v: one the table does not know is none (apps/v1 has no
// DeploymentRollback). ok is false when nothing served in v replaces it.
func (t *APITable) ReplacementIn(l *APILifecycle, v Version) (ref APIRef, found *APILifecycle, ok bool) {
	kinds := []APIRef{l.API}
	seen := map[APIRef]bool{lowerRef(l.API): true}
	for cur, step := l, 0; step < maxReplacementSteps && cur.Replacement != nil; step++ {
		key := lowerRef(*cur.Replacement)
		if seen[key] {
			break
		}
		seen[key] = true
		kinds = append(kinds, *cur.Replacement)
		next, known := t.Lookup(*cur.Replacement)
		if !known {
			break
		}
		cur = next
	}
	var best, back *APILifecycle
	for _, c := range t.candidates(kinds, v) {
		if c == l {
			continue
		}
		if strings.EqualFold(c.API.Group, l.API.Group) && strings.EqualFold(c.API.Kind, l.API.Kind) && !moreStable(c.API.Version, l.API.Version) {
			continue
		}
		if strings.EqualFold(c.API.Group, l.API.Group) && apiMajor(c.API.Version) < apiMajor(l.API.Version) {
			back = betterIn(back, c, v)
			continue
		}
		best = betterIn(best, c, v)
	}
	if best == nil {
		best = back
	}
	if best == nil {
		return APIRef{}, nil, false
	}
	return best.API, best, true
}

// ServedInsteadIn returns what to use in release v for l, a type v does
// not serve (not yet, or never: apps/v1beta3): the type of l's group and
// kind served in v, or of a type whose replacement l is (extensions/
// v1beta1 Ingress for networking.k8s.io/v1 Ingress), not deprecated there
// when one is, and the most stable. ok is false when v serves none.
func (t *APITable) ServedInsteadIn(l *APILifecycle, v Version) (found *APILifecycle, ok bool) {
	refs := []APIRef{l.API}
	for _, c := range t.Kind(l.API.Kind) {
		if c.Replacement != nil && lowerRef(*c.Replacement) == lowerRef(l.API) {
			refs = append(refs, c.API)
		}
	}
	var best *APILifecycle
	for _, c := range t.candidates(refs, v) {
		if c != l {
			best = betterIn(best, c, v)
		}
	}
	return best, best != nil
}

// candidates lists the types served in v of the groups and kinds of refs,
// each once.
func (t *APITable) candidates(refs []APIRef, v Version) []*APILifecycle {
	var out []*APILifecycle
	seen := map[*APILifecycle]bool{}
	for _, r := range refs {
		for _, c := range t.Kind(r.Kind) {
			if !seen[c] && strings.EqualFold(c.API.Group, r.Group) && c.ServedIn(v) {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// betterIn returns the better of best and c to move to in v: not
// deprecated there before deprecated, then the more stable.
func betterIn(best, c *APILifecycle, v Version) *APILifecycle {
	switch {
	case best == nil:
		return c
	case best.DeprecatedIn(v) != c.DeprecatedIn(v):
		if c.DeprecatedIn(v) {
			return best
		}
		return c
	case moreStable(c.API.Version, best.API.Version):
		return c
	}
	return best
}

// apiMajor reads the major version of an API version: 2 of v2beta1.
func apiMajor(version string) int {
	m, _, _ := splitAPIVersion(version)
	return m
}

// moreStable reports whether API version a is a better thing to move to
// than b: GA before beta before alpha, then the newer.
func moreStable(a, b string) bool {
	rank := map[APILevel]int{APIGA: 2, APIBeta: 1, APIAlpha: 0}
	if la, lb := rank[LevelOf(a)], rank[LevelOf(b)]; la != lb {
		return la > lb
	}
	return CompareAPIVersions(a, b) > 0
}
