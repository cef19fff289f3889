package apilifecycle

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// ErrNotMergeable is returned by MergeInto for a release whose merge would
// depend on what a merged table no longer keeps.
var ErrNotMergeable = errors.New("cannot be merged into the API types known")

// MergeInto merges one release read into types, a table Merge made (or
// MergeInto before), and returns the new table, sorted as Merge sorts it;
// types itself is not changed. It is what a refresh uses to take in one
// release of k8s.io/api without reading every other release again.
//
// The result is what Merge returns for the releases types was merged from
// with rel added, rel standing in for a release of the same module and
// minor merged before (another patch: a tag never changes, but a minor's
// newest patch does; the caller drops that release's Source). Let v be
// rel.Release and id rel.SourceID(). The rules, type by type:
//
//   - A type rel carries that types lacks is added: First = Last = v; its
//     markers are rel's, MarkedIn = v, when rel has any for it; Source = id.
//   - A type rel carries that types holds: First = min(First, v), Last =
//     max(Last, v). When rel has markers for it and MarkedIn is zero or not
//     newer than v, the markers become rel's, MarkedIn = v and Source = id
//     (the newest release that has markers wins, and rel replaces its
//     minor's markers). A type with no markers at all has Source = id when
//     v is its Last.
//   - A type of rel's module that rel does not carry is kept as it is,
//     except one only rel's minor carried (First = Last = v), which is
//     dropped: the patch merged before carried it, the newer one does not.
//
// So a release newer than every release merged extends Last for the types
// it carries, adds its new types and moves MarkedIn and Source to it where
// it has markers; one older than every release merged extends First (and
// takes no markers from a newer release); one of a minor merged before at
// another patch replaces that minor's markers for the types it carries.
// Types of other modules are never touched (a type's module is its
// Source's), but by a type rel also carries, which Merge would join too.
//
// It fails with ErrNotMergeable, returning nil, when rel is another patch
// of a minor merged before and the result would need what types no longer
// keep (the releases between a type's First and Last, or the markers of
// older releases):
//
//   - a type whose markers are that minor's (MarkedIn = v) but that rel
//     carries without markers, or does not carry while other releases do:
//     Merge would take the markers of the newest older release that has
//     any;
//   - a type that minor bounds (First or Last = v, not both) that rel does
//     not carry: its new First or Last is the nearest release that carries
//     it.
//
// k8s.io/api adds and drops types and changes markers only in minor
// releases, never in a patch, so this is not met with real releases; a
// full ingest of every release (Merge) takes such a release in.
//
// A nil rel returns a copy of types.
func MergeInto(types []knowledge.APIType, rel *Release) ([]knowledge.APIType, error) {
	out := make([]knowledge.APIType, 0, len(types))
	for _, t := range types {
		out = append(out, copyType(t))
	}
	if rel == nil {
		return out, nil
	}
	v, id := rel.Release, rel.SourceID()
	carried, order := releaseTypes(rel)
	ours := func(t knowledge.APIType) bool { return moduleOfSource(t.Source) == rel.Module }

	at := make(map[knowledge.APIRef]int, len(out))
	for i, t := range out {
		at[t.API] = i
	}
	// types of rel's module that rel does not carry: kept, dropped or refused
	var drop []int
	for i, t := range out {
		if _, ok := carried[t.API]; ok || !ours(t) {
			continue
		}
		switch {
		case t.First == v && t.Last == v:
			drop = append(drop, i)
		case t.MarkedIn == v:
			return nil, notMergeable(rel, t.API, "its markers are those of the %s patch merged before, and %s no longer carries it", v, rel.Tag)
		case t.First == v || t.Last == v:
			return nil, notMergeable(rel, t.API, "the %s patch merged before carried it, and %s no longer does", v, rel.Tag)
		}
	}
	for _, ref := range order {
		m := carried[ref]
		i, ok := at[ref]
		if !ok {
			t := knowledge.APIType{API: ref, First: v, Last: v, Source: id}
			setMarkers(&t, m, v, id)
			at[ref] = len(out)
			out = append(out, t)
			continue
		}
		t := &out[i]
		if ours(*t) && t.MarkedIn == v && m.IsZero() {
			return nil, notMergeable(rel, ref, "its markers are those of the %s patch merged before, and %s carries it without markers", v, rel.Tag)
		}
		if v.Less(t.First) {
			t.First = v
		}
		if t.Last.Less(v) {
			t.Last = v
		}
		switch {
		case !m.IsZero() && (t.MarkedIn.IsZero() || !v.Less(t.MarkedIn)):
			setMarkers(t, m, v, id)
		case t.MarkedIn.IsZero() && t.Last == v:
			t.Source = id
		}
	}
	if len(drop) > 0 {
		kept := out[:0]
		gone := map[int]bool{}
		for _, i := range drop {
			gone[i] = true
		}
		for i, t := range out {
			if !gone[i] {
				kept = append(kept, t)
			}
		}
		out = kept
	}
	sortTypes(out)
	return out, nil
}

// releaseTypes returns the types rel carries with their markers, as Merge
// reads them (a kind met twice takes the markers of the last that has
// any), and their refs in the order first met.
func releaseTypes(rel *Release) (map[knowledge.APIRef]Markers, []knowledge.APIRef) {
	carried := map[knowledge.APIRef]Markers{}
	var order []knowledge.APIRef
	for _, gv := range rel.APIs {
		for _, k := range gv.Kinds {
			ref := knowledge.APIRef{Group: gv.Group, Version: gv.Version, Kind: k}
			prev, seen := carried[ref]
			if !seen {
				order = append(order, ref)
			}
			if m, ok := gv.Markers[k]; ok && !m.IsZero() {
				prev = m
			}
			carried[ref] = prev
		}
	}
	return carried, order
}

// setMarkers gives t the markers m of release v, whose source is id.
func setMarkers(t *knowledge.APIType, m Markers, v knowledge.Version, id string) {
	if m.IsZero() {
		return
	}
	t.Introduced, t.Deprecated, t.Removed = m.Introduced, m.Deprecated, m.Removed
	t.Replacement = nil
	if m.Replacement != nil {
		r := *m.Replacement
		t.Replacement = &r
	}
	t.MarkedIn, t.Source = v, id
}

func copyType(t knowledge.APIType) knowledge.APIType {
	if t.Replacement != nil {
		r := *t.Replacement
		t.Replacement = &r
	}
	return t
}

func notMergeable(rel *Release, ref knowledge.APIRef, format string, args ...any) error {
	return fmt.Errorf("%w: %s %s: %s %s: %s; a full ingest of every release takes it in",
		ErrNotMergeable, rel.Module, rel.Tag, ref.GroupVersion(), ref.Kind, fmt.Sprintf(format, args...))
}

// moduleOfSource is the module of a release's Source ID: "k8s.io/api" of
// "k8s.io/api@v0.37.2".
func moduleOfSource(id string) string {
	mod, _, _ := strings.Cut(id, "@")
	return mod
}

// sortTypes sorts types by group, version and kind: the order of what
// Merge and MergeInto return.
func sortTypes(out []knowledge.APIType) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].API, out[j].API
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
}
