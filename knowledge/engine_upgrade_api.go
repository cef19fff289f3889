package knowledge

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// apiNotices lists, release by release after from up to to, the API
// types the lifecycle table says stop being served (removals) or are
// deprecated and still served in to: one notice per group/version,
// release and source, naming its kinds, its level, what replaces it in
// to and the release note, guide or module that says so.
func apiNotices(t *APITable, from, to Version, sources map[string]Source) []Notice {
	type key struct {
		kind    NoticeKind
		release Version
		gv      string
		source  string
		pr      int
	}
	var order []key
	groups := map[key][]*APILifecycle{}
	add := func(k key, l *APILifecycle) {
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], l)
	}
	in := func(v Version) bool { return !v.IsZero() && from.Less(v) && !to.Less(v) }
	for i := range t.All() {
		l := &t.All()[i]
		switch {
		case in(l.Removed):
			ev := UsedEvidence(l, APIRemoved)
			add(key{NoticeRemoval, l.Removed, l.API.GroupVersion(), ev.Source, ev.PR}, l)
		case in(l.Deprecated) && l.ServedIn(to):
			ev := UsedEvidence(l, APIDeprecated)
			add(key{NoticeDeprecation, l.Deprecated, l.API.GroupVersion(), ev.Source, ev.PR}, l)
		}
	}
	// Release by release, removals first; within them the APIs most
	// clusters serve (GA, then beta, then alpha, which is off by default),
	// and what a document records before what the modules alone say.
	levelRank := map[APILevel]int{APIGA: 0, APIBeta: 1, APIAlpha: 2}
	rank := func(k key) (int, int, int) {
		l := groups[k][0]
		kind := 1
		if k.kind == NoticeRemoval {
			kind = 0
		}
		ev := UsedEvidence(l, APIRemoved)
		if k.kind == NoticeDeprecation {
			ev = UsedEvidence(l, APIDeprecated)
		}
		return kind, levelRank[l.Level()], BasisRank(ev.Basis)
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
	out := make([]Notice, 0, len(order))
	for _, k := range order {
		ls := groups[k]
		var kinds []string
		for _, l := range ls {
			kinds = append(kinds, l.API.Kind)
		}
		title := fmt.Sprintf("%s (%s, %s)", strings.Join(kinds, ", "), k.gv, ls[0].Level().Label())
		switch ev := UsedEvidence(ls[0], APIRemoved); {
		case !t.Reached(k.release):
			title += " — planned, not released yet"
		case k.kind != NoticeRemoval:
		case ev.Basis == BasisMarkers:
			title += " — only " + ModuleName(ev.Source) + "'s lifecycle markers say so"
		case ev.Basis == BasisAbsent:
			mod, tag, _ := strings.Cut(ev.Source, "@")
			title += " — " + mod + " drops it in " + tag
		}
		n := Notice{Kind: k.kind, Release: k.release, Title: title, Source: k.source, PR: k.pr,
			API: &APIChange{GroupVersion: k.gv, Kinds: kinds}}
		if k.pr > 0 {
			n.URL = fmt.Sprintf("https://github.com/kubernetes/kubernetes/pull/%d", k.pr)
		}
		n.API.ReplacedBy, n.API.Since = commonReplacement(t, ls, to)
		out = append(out, n)
	}
	return out
}

// commonReplacement is the group/version that replaces every type of ls
// in release v, and the release it is served from (the latest of its
// kinds'); empty when they have none or several.
func commonReplacement(t *APITable, ls []*APILifecycle, v Version) (string, Version) {
	gv, since := "", Version{}
	for _, l := range ls {
		ref, r, ok := t.ReplacementIn(l, v)
		if !ok || (gv != "" && ref.GroupVersion() != gv) {
			return "", Version{}
		}
		gv = ref.GroupVersion()
		if r != nil && since.Less(r.Introduced) {
			since = r.Introduced
		}
	}
	return gv, since
}

// withAPINotices puts the lifecycle table's notices first and drops the
// documents' own notices they stand for: any naming an API, and release
// notes' entries whose pull request an API notice cites.
func withAPINotices(apis, ns []Notice) []Notice {
	var prs []int
	for _, n := range apis {
		if n.PR > 0 {
			prs = append(prs, n.PR)
		}
	}
	out := append([]Notice(nil), apis...)
	for _, n := range ns {
		if n.API != nil || (n.PR > 0 && slices.Contains(prs, n.PR)) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// apiRangeNotes says what the API notices of a range rest on where it is
// weak: removals only the modules' markers give, and where sources
// disagree on the releases in the range.
func apiRangeNotes(t *APITable, apis []Notice, sources map[string]Source) []string {
	var markersOnly []string
	var types []*APILifecycle
	for _, n := range apis {
		if n.Kind == NoticeRemoval && sources[n.Source].Kind == SourceAPILifecycle {
			markersOnly = append(markersOnly, n.API.GroupVersion+" ("+n.Release.String()+")")
		}
		for _, k := range n.API.Kinds {
			g, ver, _ := ParseAPIVersion(n.API.GroupVersion)
			if l, ok := t.Lookup(APIRef{Group: g, Version: ver, Kind: k}); ok {
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
