package knowledge

import "fmt"

// NoticeGroup is one part of an answer's notices, headed by what they are,
// in the order every platform draws them.
type NoticeGroup struct {
	Title   string
	Notices []Notice
}

// Heading is the group's title with its count: "APIs that stop being
// served (12)".
func (g NoticeGroup) Heading() string { return fmt.Sprintf("%s (%d)", g.Title, len(g.Notices)) }

// NoticeGroups splits a's notices into the groups every platform draws, in
// the answer's order. An answer that breaks first (an upgrade) has: the
// APIs that stop being served, the other removals, what needs action
// before upgrading, and the deprecations; any other answer: the APIs that
// stop being served, then the rest. Empty groups are left out.
func NoticeGroups(a *Answer) []NoticeGroup {
	apis, others := SplitAPIRemovals(a.Notices)
	groups := []NoticeGroup{{Title: "APIs that stop being served", Notices: apis}}
	if !a.BreaksFirst {
		groups = append(groups, NoticeGroup{Title: "Notices", Notices: others})
	} else {
		var removed, action, deprecated []Notice
		for _, n := range others {
			switch {
			case n.Kind == NoticeRemoval:
				removed = append(removed, n)
			case n.NeedsAction():
				action = append(action, n)
			default:
				deprecated = append(deprecated, n)
			}
		}
		groups = append(groups, NoticeGroup{Title: "Other removals", Notices: removed},
			NoticeGroup{Title: "Action required before upgrading", Notices: action},
			NoticeGroup{Title: "Deprecations", Notices: deprecated})
	}
	out := groups[:0]
	for _, g := range groups {
		if len(g.Notices) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// BreakRank is where notice n stands in an upgrade answer, what breaks
// first: 0 an API that stops being served, 1 another removal, 2 what needs
// action, 3 a deprecation (NoticeGroups draws them so).
func BreakRank(n Notice) int {
	switch {
	case n.IsAPIRemoval():
		return 0
	case n.Kind == NoticeRemoval:
		return 1
	case n.NeedsAction():
		return 2
	}
	return 3
}
