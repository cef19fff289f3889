package knowledge

import (
	"sort"
	"strings"
)

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

// ReplacementIn returns what to use instead of l in release v: its
// replacement, followed along the replacements' own replacements to the
// first served in v and not deprecated there; failing that, the most
// stable version of the same group and kind served in v (and not
// deprecated there, when one is), or the first of the chain served in v.
// ok is false when nothing served in v replaces it. A replacement the
// table does not hold is returned as a reference alone (nil lifecycle)
// when it is the first step.
func (t *APITable) ReplacementIn(l *APILifecycle, v Version) (ref APIRef, found *APILifecycle, ok bool) {
	cur := l
	seen := map[APIRef]bool{lowerRef(l.API): true}
	var served *APILifecycle // the first of the chain served in v, deprecated there
	for step := 0; step < maxReplacementSteps && cur.Replacement != nil; step++ {
		next, known := t.Lookup(*cur.Replacement)
		if !known {
			if step == 0 {
				return *cur.Replacement, nil, true
			}
			break
		}
		key := lowerRef(next.API)
		if seen[key] {
			break
		}
		seen[key] = true
		if next.ServedIn(v) {
			if !next.DeprecatedIn(v) {
				return next.API, next, true
			}
			if served == nil {
				served = next
			}
		}
		cur = next
	}
	same := t.sameKindIn(l.API, v)
	switch {
	case same != nil && (served == nil || !same.DeprecatedIn(v)):
		return same.API, same, true
	case served != nil:
		return served.API, served, true
	}
	return APIRef{}, nil, false
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

// sameKindIn returns the most stable version of ref's group and kind
// served in v that is more stable than ref's own: a beta is never told to
// move back to an alpha.
func (t *APITable) sameKindIn(ref APIRef, v Version) *APILifecycle {
	var best *APILifecycle
	for _, c := range t.Kind(ref.Kind) {
		if !strings.EqualFold(c.API.Group, ref.Group) || !moreStable(c.API.Version, ref.Version) || !c.ServedIn(v) {
			continue
		}
		if best == nil || (best.DeprecatedIn(v) && !c.DeprecatedIn(v)) ||
			(best.DeprecatedIn(v) == c.DeprecatedIn(v) && moreStable(c.API.Version, best.API.Version)) {
			best = c
		}
	}
	return best
}
