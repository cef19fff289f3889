package apilifecycle

import (
	"sort"

	"github.com/kepbot/kepbot/knowledge"
)

// Merge joins the releases read into one knowledge.APIType per
// group/version/kind. Releases may come in any order and from several
// modules (their groups differ); they are taken oldest first (then by
// module and tag, so that the result never depends on the order given).
//
//   - First and Last are the oldest and newest release read that carries
//     the type;
//   - Introduced, Deprecated, Removed and Replacement are the markers as
//     the newest release that has any for the type gives them (older
//     releases' are often projections a later one corrected), MarkedIn that
//     release;
//   - Source is the Source ID of the release at MarkedIn, or at Last for a
//     type without markers.
//
// The result is sorted by group, version and kind.
func Merge(releases []*Release) []knowledge.APIType {
	rs := sorted(releases)
	at := map[knowledge.APIRef]int{}
	var out []knowledge.APIType
	for _, r := range rs {
		src := r.SourceID()
		for _, gv := range r.APIs {
			for _, k := range gv.Kinds {
				ref := knowledge.APIRef{Group: gv.Group, Version: gv.Version, Kind: k}
				i, ok := at[ref]
				if !ok {
					i = len(out)
					at[ref] = i
					out = append(out, knowledge.APIType{API: ref, First: r.Release})
				}
				t := &out[i]
				t.Last = r.Release
				if m, ok := gv.Markers[k]; ok && !m.IsZero() {
					t.Introduced, t.Deprecated, t.Removed = m.Introduced, m.Deprecated, m.Removed
					t.Replacement = nil
					if m.Replacement != nil {
						rep := *m.Replacement
						t.Replacement = &rep
					}
					t.MarkedIn = r.Release
					t.Source = src
				} else if t.MarkedIn.IsZero() {
					t.Source = src
				}
			}
		}
	}
	sortTypes(out)
	return out
}

// Corpus makes the corpus of the releases read: one knowledge.Source per
// release (oldest first, then by module), the merged APITypes, and what
// each release skipped.
func Corpus(releases []*Release) *knowledge.Corpus {
	rs := sorted(releases)
	c := &knowledge.Corpus{APITypes: Merge(rs)}
	for _, r := range rs {
		c.Sources = append(c.Sources, r.Source())
		c.Skipped = append(c.Skipped, r.Skipped...)
	}
	return c
}

// sorted returns the releases but nil ones, oldest first, then by module
// and tag.
func sorted(releases []*Release) []*Release {
	rs := make([]*Release, 0, len(releases))
	for _, r := range releases {
		if r != nil {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if c := a.Release.Compare(b.Release); c != 0 {
			return c < 0
		}
		if a.Module != b.Module {
			return a.Module < b.Module
		}
		return a.Tag < b.Tag
	})
	return rs
}
