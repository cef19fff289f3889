package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// apiNotices lists, release by release after from up to to, the API
// types the lifecycle table says stop being served (removals) or are
// deprecated and still served in to: one notice per group/version,
// release and source, naming its kinds, its level, what replaces it in
// to and the release note, guide or module that says so.
func apiNotices(t *knowledge.APITable, from, to knowledge.Version, sources map[string]knowledge.Source) []knowledge.Notice {
	type key struct {
		kind    knowledge.NoticeKind
		release knowledge.Version
		gv      string
		source  string
		pr      int
	}
	var order []key
	groups := map[key][]*knowledge.APILifecycle{}
	add := func(k key, l *knowledge.APILifecycle) {
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], l)
	}
	in := func(v knowledge.Version) bool { return !v.IsZero() && from.Less(v) && !to.Less(v) }
	for i := range t.All() {
		l := &t.All()[i]
		switch {
		case in(l.Removed):
			ev := knowledge.UsedEvidence(l, knowledge.APIRemoved)
			add(key{knowledge.NoticeRemoval, l.Removed, l.API.GroupVersion(), ev.Source, ev.PR}, l)
		case in(l.Deprecated) && l.ServedIn(to):
			ev := knowledge.UsedEvidence(l, knowledge.APIDeprecated)
			add(key{knowledge.NoticeDeprecation, l.Deprecated, l.API.GroupVersion(), ev.Source, ev.PR}, l)
		}
	}
	// Release by release, removals first; within them the APIs most
	// clusters serve (GA, then beta, then alpha, which is off by default),
	// and what a document records before what the modules alone say.
	levelRank := map[knowledge.APILevel]int{knowledge.APIGA: 0, knowledge.APIBeta: 1, knowledge.APIAlpha: 2}
	rank := func(k key) (int, int, int) {
		l := groups[k][0]
		kind := 1
		if k.kind == knowledge.NoticeRemoval {
			kind = 0
		}
		ev := knowledge.UsedEvidence(l, knowledge.APIRemoved)
		if k.kind == knowledge.NoticeDeprecation {
			ev = knowledge.UsedEvidence(l, knowledge.APIDeprecated)
		}
		return kind, levelRank[l.Level()], knowledge.BasisRank(ev.Basis)
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.release != b.release {
			return a.release.Less(b.release)
		}
		ak, al, ab := rank(a)
		bk, bl, bb := rank(b)
		if ak != bk {
			return ak < bk
		}
		if al != bl {
			return al < bl
		}
		return ab < bb
	})
	out := make([]knowledge.Notice, 0, len(order))
	for _, k := range order {
		ls := groups[k]
		var kinds []string
		for _, l := range ls {
			kinds = append(kinds, l.API.Kind)
		}
		title := fmt.Sprintf("%s (%s, %s)", strings.Join(kinds, ", "), k.gv, ls[0].Level().Label())
		switch ev := knowledge.UsedEvidence(ls[0], knowledge.APIRemoved); {
		case !t.Reached(k.release):
			title += " — planned, not released yet"
		case k.kind != knowledge.NoticeRemoval:
		case ev.Basis == knowledge.BasisMarkers:
			title += " — only " + knowledge.ModuleName(ev.Source) + "'s lifecycle markers say so"
		case ev.Basis == knowledge.BasisAbsent:
			mod, tag, _ := strings.Cut(ev.Source, "@")
			title += " — " + mod + " drops it in " + tag
		}
		n := knowledge.Notice{Kind: k.kind, Release: k.release, Title: title, Source: k.source, PR: k.pr,
			API: &knowledge.APIChange{GroupVersion: k.gv, Kinds: kinds}}
		if k.pr > 0 {
			n.URL = fmt.Sprintf("https://github.com/kubernetes/kubernetes/pull/%d", k.pr)
		}
		n.API.ReplacedBy, n.API.Since = commonReplacement(t, ls, to)
		out = append(out, n)
	}
	return out
}

// releaseAPINotices are the API table's notices of release v alone: the
// group/versions it stops serving, and those it deprecates and still
// serves.
func releaseAPINotices(t *knowledge.APITable, v knowledge.Version, sources map[string]knowledge.Source) []knowledge.Notice {
	if v.Minor == 0 {
		return nil
	}
	return apiNotices(t, knowledge.Version{Major: v.Major, Minor: v.Minor - 1}, v, sources)
}

// commonReplacement is the group/version that replaces every type of ls
// in release v, and the release it is served from (the latest of its
// kinds'); empty when they have none or several.
func commonReplacement(t *knowledge.APITable, ls []*knowledge.APILifecycle, v knowledge.Version) (string, knowledge.Version) {
	gv, since := "", knowledge.Version{}
	for _, l := range ls {
		ref, r, ok := t.ReplacementIn(l, v)
		if !ok || (gv != "" && ref.GroupVersion() != gv) {
			return "", knowledge.Version{}
		}
		gv = ref.GroupVersion()
		if r != nil && since.Less(r.Introduced) {
			since = r.Introduced
		}
	}
	return gv, since
}

// apiRangeNotes says what the API notices of a range rest on where it is
// weak: removals only the modules' markers give, and where sources
// disagree on the releases in the range.
func apiRangeNotes(t *knowledge.APITable, apis []knowledge.Notice, sources map[string]knowledge.Source) []string {
	var markersOnly []string
	var types []*knowledge.APILifecycle
	for _, n := range apis {
		if n.Kind == knowledge.NoticeRemoval && sources[n.Source].Kind == knowledge.SourceAPILifecycle {
			markersOnly = append(markersOnly, n.API.GroupVersion+" ("+n.Release.String()+")")
		}
		for _, k := range n.API.Kinds {
			g, ver, _ := knowledge.ParseAPIVersion(n.API.GroupVersion)
			if l, ok := t.Lookup(knowledge.APIRef{Group: g, Version: ver, Kind: k}); ok {
				types = append(types, l)
			}
		}
	}
	var notes []string
	if len(markersOnly) > 0 {
		notes = append(notes, "No release note or guide I have records these removals: "+strings.Join(dedupe(markersOnly), ", ")+". They rest on the API modules alone (lifecycle markers, often projections, or a release whose module no longer has the type); check the release notes before relying on them.")
	}
	disagree, _ := apiNotes(t, types, sources)
	return append(notes, disagree...)
}
