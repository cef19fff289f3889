package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// answerDiff answers `diff A B` and, with upgrade set, `upgrade A B`: in the
// releases after from up to to, what reached alpha, beta and GA (kep.yaml's
// record for the KEPs it knows), what kep.yaml and the documents say was
// deprecated or removed, and which APIs stop being served. Both answers hold
// the same facts; an upgrade answer puts what breaks a cluster first (APIs,
// removals, deprecations), a diff puts graduations first. Items carry Rank.
//
// It fails with EBADINPUT when from is not older than to, and ENOTFOUND
// naming the known releases when either is unknown.
//
// With sig ("sig-node") it keeps the notices and graduations of that SIG,
// and every API that stops being served, whatever its SIG.
func (e *Engine) answerDiff(ctx context.Context, from, to knowledge.Version, upgrade bool, sig string) (*knowledge.Answer, error) {
	verb := "diff"
	if upgrade {
		verb = "upgrade"
	}
	if !from.Less(to) {
		fix := verb + " " + to.String() + " " + from.String()
		if from == to {
			return nil, &knowledge.Error{Code: knowledge.EBADINPUT, Message: "Those are the same release; give two different ones. " + knowledge.Usage(verb)}
		}
		return nil, &knowledge.Error{Code: knowledge.EBADINPUT, Message: fmt.Sprintf("%s is older than %s: give the release you run first, then the one you go to: %s.", to, from, fix), Suggestions: []string{fix}}
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	known := releaseVersions(c.releases)
	out := func(k knowledge.Version) bool { return c.released.IsZero() || !c.released.Less(k) } // suggest releases that are out
	if err := unknownRelease(known, c.known, from, func(k knowledge.Version) bool { return k.Less(to) && out(k) }, func(near knowledge.Version) string { return fmt.Sprintf("%s %s %s", verb, near, to) }); err != nil {
		return nil, err
	}
	if err := unknownRelease(known, c.known, to, func(k knowledge.Version) bool { return from.Less(k) && out(k) }, func(near knowledge.Version) string { return fmt.Sprintf("%s %s %s", verb, from, near) }); err != nil {
		return nil, err
	}
	var in []knowledge.Release
	for _, r := range c.releases {
		if from.Less(r.Version) && !to.Less(r.Version) {
			in = append(in, r)
		}
	}
	items := e.diffItems(c, in, upgrade)
	notices, actions := e.diffNotices(c, in, upgrade)
	var sigNote string
	if sig != "" {
		var allN, allI = len(notices), len(items)
		notices, items, actions = keepSIG(notices, items, sig)
		sigNote = fmt.Sprintf("Kept to %s: %d of %d notices and %d of %d graduations and endings; every API that stops being served is listed, whatever its SIG.",
			sig, len(notices), allN, len(items), allI)
	}
	a := &knowledge.Answer{Kind: knowledge.KindDiff, Title: fmt.Sprintf("Kubernetes %s → %s", from, to), Items: items, Notices: notices}
	if upgrade {
		a.Title = fmt.Sprintf("Upgrading from %s to %s", from, to)
		a.BreaksFirst = true
	}
	a.Text = diffSummary(from, to, releaseVersions(in), items, notices, upgrade, actions)
	if upgrade { // the gates a component given them refuses at to, and defaults that flip: gate_changes.go
		if a.Gates = c.upgradeGates(from, to); a.Gates != nil {
			a.Text = strings.TrimSpace(a.Text + " " + upgradeGatesSentence(a.Gates, to))
		}
	}
	a.Notes = diffNotes(from, to, known, in)
	if sig != "" {
		a.Title += " (" + sig + ")"
		a.Notes = append([]string{sigNote}, a.Notes...)
	}
	if c.apis.Known() {
		var apis []knowledge.Notice
		for _, n := range notices {
			if n.API != nil {
				apis = append(apis, n)
			}
		}
		a.Notes = append(apiRangeNotes(c.apis, apis, c.sources), a.Notes...)
	}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.Source)
	}
	for _, n := range notices {
		ids = append(ids, n.Source)
	}
	a.Sources = c.sourceRefs(ids)
	return a, nil
}

// unknownRelease fails with ENOTFOUND naming the known releases when v is
// not one of them, suggesting ask of the nearest known release that keeps
// the question sound (not, for instance, a "from" after the "to").
// Releases for which fits is false are not suggested.
func unknownRelease(known []knowledge.Version, knownText string, v knowledge.Version, fits func(knowledge.Version) bool, ask func(near knowledge.Version) string) error {
	if len(known) == 0 {
		return knowledge.Errorf(knowledge.ENOTFOUND, "I don't know Kubernetes %s. I know no releases yet.", v)
	}
	var near *knowledge.Version
	for i, k := range known {
		if k == v {
			return nil
		}
		if fits(k) && (near == nil || distance(k, v) <= distance(*near, v)) {
			near = &known[i]
		}
	}
	e := &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I don't know Kubernetes %s. I know %s.", v, knownText)}
	if near != nil {
		e.Suggestions = []string{ask(*near)}
	}
	return e
}

// diffStageOrder is the order a diff ranks its items in; an upgrade ranks
// the end of features first.
var (
	diffStageOrder    = []knowledge.Stage{knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha, knowledge.StageDeprecated, knowledge.StageRemoved}
	upgradeStageOrder = []knowledge.Stage{knowledge.StageRemoved, knowledge.StageDeprecated, knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha}
)

// diffItems gathers the graduations of the releases in (repeats left out)
// and kep.yaml's deprecated and removed steps there, ranked by stage, then
// release, then KEP number (items without one last).
func (e *Engine) diffItems(c *catalog, in []knowledge.Release, upgrade bool) []knowledge.Item {
	inRange := map[knowledge.Version]bool{}
	var items []knowledge.Item
	for _, r := range in {
		inRange[r.Version] = true
		for _, it := range c.items[r.Version] {
			if _, rep := c.repeatOf(it); rep || !it.Stage.IsGraduation() {
				continue
			}
			items = append(items, it)
		}
	}
	for _, it := range c.endings {
		if inRange[it.Release] {
			items = append(items, it)
		}
	}
	order := diffStageOrder
	if upgrade {
		order = upgradeStageOrder
	}
	rank := map[knowledge.Stage]int{}
	for i, s := range order {
		rank[s] = i
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if rank[a.Stage] != rank[b.Stage] {
			return rank[a.Stage] < rank[b.Stage]
		}
		if a.Release != b.Release {
			return a.Release.Less(b.Release)
		}
		if (a.KEP == 0) != (b.KEP == 0) {
			return a.KEP != 0
		}
		return a.KEP < b.KEP
	})
	for i := range items {
		items[i].Text = knowledge.Quote(items[i].Text, e.maxQuote)
		items[i].Rank = i + 1
	}
	return items
}

// diffNotices gathers the notices of the releases in, each thing told
// once (groupNotices, as each release's lists show them), release by
// release, and how many of them need action before upgrading (the
// releases' `action required` counts, summed). An upgrade puts the APIs
// that stop being served first, then goes release by release with
// removals first, then deprecations, then upgrade notes.
func (e *Engine) diffNotices(c *catalog, in []knowledge.Release, upgrade bool) ([]knowledge.Notice, int) {
	var ns []knowledge.Notice
	actions := 0
	for _, r := range in {
		var told toldNotices
		if p, ok := c.releaseParts[r.Version]; ok {
			told = p.told // shared: the notices are copied into ns
		} else {
			told = groupNotices(c.notices[r.Version], c.sources)
		}
		ns = append(ns, told.notices...)
		actions += told.count().Upgrades
	}
	ns = withoutSuperseded(ns)
	if upgrade {
		// what breaks first, the same on every platform (knowledge.NoticeGroups):
		// APIs gone, other removals, what needs action, deprecations; each
		// release by release
		sort.SliceStable(ns, func(i, j int) bool {
			a, b := ns[i], ns[j]
			if ra, rb := knowledge.BreakRank(a), knowledge.BreakRank(b); ra != rb {
				return ra < rb
			}
			return a.Release.Less(b.Release)
		})
	}
	for i := range ns {
		ns[i].Text = knowledge.Quote(knowledge.NoticeWords(ns[i]), e.maxQuote)
	}
	return ns, actions
}

// keepSIG keeps the notices of sig (and every API removal) and the items
// of sig, and counts what of them needs action.
func keepSIG(ns []knowledge.Notice, items []knowledge.Item, sig string) ([]knowledge.Notice, []knowledge.Item, int) {
	var keptN []knowledge.Notice
	actions := 0
	for _, n := range ns {
		if n.IsAPIRemoval() || slices.ContainsFunc(n.SIGs, func(s string) bool { return strings.EqualFold(s, sig) }) {
			keptN = append(keptN, n)
			if n.NeedsAction() {
				actions++
			}
		}
	}
	var keptI []knowledge.Item
	for _, it := range items {
		if strings.EqualFold(it.SIG, sig) {
			it.Rank = len(keptI) + 1
			keptI = append(keptI, it)
		}
	}
	return keptN, keptI, actions
}

// withoutSuperseded drops from a range's notices the deprecation of an
// API group/version the range also removes: its removal says more (the
// lists of each release still hold both).
func withoutSuperseded(ns []knowledge.Notice) []knowledge.Notice {
	removed := map[string]bool{}
	for _, n := range ns {
		if n.IsAPIRemoval() {
			removed[strings.ToLower(n.API.GroupVersion)] = true
		}
	}
	out := ns[:0]
	for _, n := range ns {
		if n.Kind == knowledge.NoticeDeprecation && n.API != nil && removed[strings.ToLower(n.API.GroupVersion)] {
			continue
		}
		out = append(out, n)
	}
	return out
}

// diffSummary writes the counts of a diff or upgrade answer in one line.
//
// actions is how many notices of the range need action before upgrading:
// the sum of the releases' `action required` counts.
func diffSummary(from, to knowledge.Version, in []knowledge.Version, items []knowledge.Item, ns []knowledge.Notice, upgrade bool, actions int) string {
	count := map[knowledge.Stage]int{}
	for _, it := range items {
		count[it.Stage]++
	}
	kinds := map[knowledge.NoticeKind]int{}
	var apis []string
	for _, n := range ns {
		if n.IsAPIRemoval() {
			apis = append(apis, n.API.GroupVersion)
			continue
		}
		kinds[n.Kind]++
	}
	apiText := "no API I know of stops being served"
	switch {
	case len(apis) == 1:
		apiText = "1 API stops being served (" + apis[0] + ")"
	case len(apis) > 1:
		apiText = fmt.Sprintf("%d APIs stop being served", len(apis))
	}
	graduated := fmt.Sprintf("%d GA, %d beta, %d alpha", count[knowledge.StageStable], count[knowledge.StageBeta], count[knowledge.StageAlpha])
	removals := knowledge.Plural(kinds[knowledge.NoticeRemoval]+count[knowledge.StageRemoved], "removal", "removals")
	if len(apis) > 0 {
		removals = knowledge.Plural(kinds[knowledge.NoticeRemoval]+count[knowledge.StageRemoved], "other removal", "other removals")
	}
	ended := removals + ", " + knowledge.Plural(kinds[knowledge.NoticeDeprecation]+count[knowledge.StageDeprecated], "deprecation", "deprecations")
	if upgrade {
		s := fmt.Sprintf("Going from %s to %s (through %s): %s; %s", from, to, versionList(in), apiText, ended)
		if actions > 0 {
			s += ", " + knowledge.Plural(actions, "upgrade note", "upgrade notes") + " (action required)"
		}
		return s + "; " + graduated + "."
	}
	return fmt.Sprintf("After %s up to %s (%s): %s; %s; %s.", from, to, versionList(in), graduated, ended, apiText)
}

// diffNotes says which releases of the range no document announces, and
// how to see one release's whole lists.
func diffNotes(from, to knowledge.Version, known []knowledge.Version, in []knowledge.Release) []string {
	var notes []string
	if missing := missingReleases(from, to, known); len(missing) > 0 {
		notes = append(notes, fmt.Sprintf("I know nothing of %s, so what changed there is missing.", versionRanges(missing)))
	}
	var bare []knowledge.Version
	for _, r := range in {
		if len(r.Sources) == 0 {
			bare = append(bare, r.Version)
		}
	}
	if len(bare) > 0 {
		notes = append(notes, fmt.Sprintf("No announcement or release note covers %s: what graduated there comes from kep.yaml alone, and deprecations and removals there may be missing.", versionRanges(bare)))
	}
	if len(in) > 0 {
		v := in[len(in)-1].Version
		notes = append(notes, fmt.Sprintf("Notices several documents share are shown once; ask %s removals or %s ga for one release's whole list.", v, v))
	}
	return notes
}

// missingReleases lists the minors after from up to to that are not known,
// within one major version.
func missingReleases(from, to knowledge.Version, known []knowledge.Version) []knowledge.Version {
	if from.Major != to.Major || to.Minor-from.Minor > 100 {
		return nil
	}
	have := map[knowledge.Version]bool{}
	for _, v := range known {
		have[v] = true
	}
	var out []knowledge.Version
	for v := from.Next(); !to.Less(v); v = v.Next() {
		if !have[v] {
			out = append(out, v)
		}
	}
	return out
}

// versionRanges writes versions (sorted) with runs of consecutive minors
// joined: "1.1, 1.4–1.39".
func versionRanges(vs []knowledge.Version) string {
	var parts []string
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j].Next() {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, vs[i].String())
		case j == i+1:
			parts = append(parts, vs[i].String(), vs[j].String())
		default:
			parts = append(parts, vs[i].String()+"–"+vs[j].String())
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
