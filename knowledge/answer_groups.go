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

// BreakPartKind is what one part of a breaks-first answer holds.
type BreakPartKind int

// The parts of a breaks-first answer (BreakParts).
const (
	PartNotices BreakPartKind = iota // a NoticeGroup
	PartGates                        // the feature gates it removes, the defaults that flip (Answer.GateSections)
	PartVulns                        // the vulnerabilities it fixes or leaves open (Answer.Facts)
	PartItems                        // what reached a stage or ended (Answer.Items)
)

// The titles of the parts that are no notice group.
const (
	VulnsTitle = "Vulnerabilities"
	ItemsTitle = "What reached a stage or ended"
)

// BreakPart is one part of a breaks-first answer; Group is set for
// PartNotices.
type BreakPart struct {
	Kind  BreakPartKind
	Group NoticeGroup
}

// BreakParts lays out a breaks-first answer (an upgrade) as every
// platform and its file draw it, what breaks first: the APIs that stop
// being served, the feature gates it removes and the defaults that flip
// (a component given a removed gate does not start, as a client of a
// removed API fails), the other notice groups (NoticeGroups), the
// vulnerabilities, then what graduated. Parts with nothing in them are
// left out.
func BreakParts(a *Answer) []BreakPart {
	groups := NoticeGroups(a)
	var out []BreakPart
	if len(groups) > 0 && groups[0].Notices[0].IsAPIRemoval() {
		out = append(out, BreakPart{Kind: PartNotices, Group: groups[0]})
		groups = groups[1:]
	}
	if len(a.GateSections()) > 0 {
		out = append(out, BreakPart{Kind: PartGates})
	}
	for _, g := range groups {
		out = append(out, BreakPart{Kind: PartNotices, Group: g})
	}
	if len(a.Facts) > 0 {
		out = append(out, BreakPart{Kind: PartVulns})
	}
	if len(a.Items) > 0 {
		out = append(out, BreakPart{Kind: PartItems})
	}
	return out
}
