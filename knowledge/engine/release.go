package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// findRelease returns release v, or an ENOTFOUND error naming the releases
// that are known, suggesting the same question of the nearest one. It reads
// the catalog when it is loaded, else the store. The Release is shared:
// read it, never change it.
func (e *Engine) findRelease(ctx context.Context, v knowledge.Version, ask func(knowledge.Version) string) (*knowledge.Release, error) {
	if c := e.cat.Load(); c != nil {
		if r, ok := c.release[v]; ok {
			return r, nil
		}
		return nil, releaseMiss(v, outBy(c.versions, c.released), c.known, ask)
	}
	r, err := e.kb.FindReleaseByVersion(ctx, v)
	if err == nil {
		return r, nil
	}
	if knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		return nil, fmt.Errorf("find release %s: %w", v, err)
	}
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	released, err := e.releasedOfStore(ctx, rels)
	if err != nil {
		return nil, err
	}
	return nil, releaseMiss(v, outBy(releaseVersions(rels), released), knownReleasesOf(rels, released), ask)
}

// releasedOfStore is ReleasedThrough over the store's releases (their
// support dates and announced days) and API modules, for a miss answered
// before the catalog is loaded.
func (e *Engine) releasedOfStore(ctx context.Context, rels []knowledge.Release) (knowledge.Version, error) {
	byID, err := e.sources(ctx)
	if err != nil {
		return knowledge.Version{}, err
	}
	c := &knowledge.Corpus{}
	for _, s := range byID {
		c.Sources = append(c.Sources, s)
	}
	for _, r := range rels {
		c.Releases = append(c.Releases, r)
		if r.Lifecycle != nil {
			c.Lifecycles = append(c.Lifecycles, *r.Lifecycle)
		}
	}
	return knowledge.ReleasedThrough(c), nil
}

// outBy keeps the releases not after released (all of them when released
// is zero): a "did you mean" offers a release that is out, never one
// kep.yaml only plans.
func outBy(vs []knowledge.Version, released knowledge.Version) []knowledge.Version {
	if released.IsZero() {
		return vs
	}
	var out []knowledge.Version
	for _, v := range vs {
		if !released.Less(v) {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return vs
	}
	return out
}

// distance is how many minor releases apart v and w are (majors count 100).
func distance(v, w knowledge.Version) int {
	d := (v.Major-w.Major)*100 + v.Minor - w.Minor
	if d < 0 {
		return -d
	}
	return d
}

// answerRelease answers `1.29`: the release's facts, a few highlights,
// how many notices it carries.
func (e *Engine) answerRelease(ctx context.Context, v knowledge.Version) (*knowledge.Answer, error) {
	r, err := e.findRelease(ctx, v, func(w knowledge.Version) string { return w.String() })
	if err != nil {
		return nil, err
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	if p, ok := c.releaseParts[v]; ok {
		return p.answer(), nil
	}
	return e.releaseParts(c, r, nil).answer(), nil // r is newer than the catalog
}

// releaseSummary is "Kubernetes 1.29 (Mandala), released 2023-12-13: 49
// enhancements: 11 GA, 19 beta, 19 alpha." with what is unknown left out.
func releaseSummary(r *knowledge.Release, dayBy string) string {
	var b strings.Builder
	b.WriteString("Kubernetes " + r.Version.String())
	if r.Theme != "" {
		b.WriteString(" (" + r.Theme + ")")
	}
	if r.Date != "" {
		b.WriteString(", released " + r.Date)
		if dayBy != "" {
			b.WriteString(" (" + dayBy + ")")
		}
	}
	if c := r.Enhancements; !c.IsZero() {
		b.WriteString(": " + countsText(c))
	}
	b.WriteString(".")
	return b.String()
}

// itemCounts says how many KEPs reached each stage in a release whose
// announcement gives no counts: "By kep.yaml and the documents I have: 1
// GA, 0 beta, 2 alpha." A notes-only KEP counts where its notes list it.
func itemCounts(items []knowledge.Item) string {
	n := map[knowledge.Stage]int{}
	for _, it := range items {
		n[it.Stage]++
	}
	return fmt.Sprintf("By kep.yaml and the documents I have: %d GA, %d beta, %d alpha.", n[knowledge.StageStable], n[knowledge.StageBeta], n[knowledge.StageAlpha])
}

// countsText writes counts as the announcement gives them: "49 enhancements
// (11 GA, 19 beta, 19 alpha)", or without a total when it gives none.
func countsText(c knowledge.Counts) string {
	if c.Total == 0 {
		return c.StageText() + " enhancements"
	}
	return fmt.Sprintf("%d enhancements (%s)", c.Total, c.StageText())
}

// noticeFacts writes a release's notice counts, each the length of the
// list that shows them: `deprecations`, `removals`, `action required`.
func noticeFacts(c noticeCounts) []knowledge.Fact {
	var facts []knowledge.Fact
	for _, k := range []struct {
		kind knowledge.NoticeKind
		name string
	}{{knowledge.NoticeDeprecation, "Deprecations"}, {knowledge.NoticeRemoval, "Removals"}, {knowledge.NoticeUpgrade, "Upgrade notes"}} {
		if n := c.of(k.kind); n > 0 {
			facts = append(facts, knowledge.Fact{Name: k.name, Value: fmt.Sprint(n)})
		}
	}
	return facts
}

// enhancementCounts are the counts r's release answer gives
// (releaseCounts): from c's answer parts when the catalog is loaded, else
// from the store.
func (e *Engine) enhancementCounts(ctx context.Context, c *catalog, r *knowledge.Release) (knowledge.Counts, error) {
	if !r.Enhancements.IsZero() {
		return r.Enhancements, nil
	}
	if c != nil {
		if p, ok := c.releaseParts[r.Version]; ok {
			return p.facts.Enhancements, nil
		}
	}
	items, err := e.kb.FindReleaseItems(ctx, r.Version, knowledge.StageNone)
	if err != nil {
		return knowledge.Counts{}, fmt.Errorf("find items of %s: %w", r.Version, err)
	}
	return releaseCounts(r, items), nil
}

// releaseCounts are the enhancement counts a release answer gives: the
// announcement's, else those its text says come from kep.yaml and the
// documents (itemCounts), so that `bot ask --json` and the text agree.
func releaseCounts(r *knowledge.Release, items []knowledge.Item) knowledge.Counts {
	if !r.Enhancements.IsZero() {
		return r.Enhancements
	}
	var c knowledge.Counts
	for _, it := range items {
		switch it.Stage {
		case knowledge.StageStable:
			c.Stable++
		case knowledge.StageBeta:
			c.Beta++
		case knowledge.StageAlpha:
			c.Alpha++
		}
	}
	return c
}

// highlightItems picks up to e.highlights items, GA first, then beta, then
// alpha, keeping the documents' order within a stage.
func (e *Engine) highlightItems(items []knowledge.Item) []knowledge.Item {
	var out []knowledge.Item
	for _, s := range []knowledge.Stage{knowledge.StageStable, knowledge.StageBeta, knowledge.StageAlpha} {
		for _, it := range items {
			if len(out) == e.highlights {
				return out
			}
			if it.Stage != s {
				continue
			}
			it.Text = knowledge.Quote(it.Text, e.maxQuote)
			out = append(out, it)
		}
	}
	return out
}

// answerReleaseStage answers `1.29 ga`: every KEP that reached the stage in
// the release, by KEP number, items without one last. For a KEP kep.yaml
// knows that is kep.yaml's record (Compile made the items so); a notes-only
// KEP's restatement of a stage it reached earlier is left out, with a note.
func (e *Engine) answerReleaseStage(ctx context.Context, v knowledge.Version, s knowledge.Stage) (*knowledge.Answer, error) {
	r, err := e.findRelease(ctx, v, func(w knowledge.Version) string { return w.String() + " " + strings.ToLower(s.Label()) })
	if err != nil {
		return nil, err
	}
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	if !c.released.IsZero() && c.released.Less(v) && s.IsGraduation() {
		return c.plannedStage(v, s), nil
	}
	if p, ok := c.stageParts[releaseStage{v, s}]; ok {
		return p.answer(), nil
	}
	return e.stageParts(c, r, s).answer(), nil // not a graduation stage, or r is newer than the catalog
}

// plannedStage answers `1.38 ga` for a release that is not out: nothing
// reached a stage in it yet; the KEPs whose kep.yaml plans stage s for it
// are listed as plans, with their status.
func (c *catalog) plannedStage(v knowledge.Version, s knowledge.Stage) *knowledge.Answer {
	a := &knowledge.Answer{Kind: knowledge.KindList, Title: fmt.Sprintf("Kubernetes %s: %s (planned)", v, s.Label())}
	var ids []string
	for _, k := range c.keps {
		if t, ok := k.Targets()[s]; ok && t == v {
			it := knowledge.Item{KEP: k.Number, Title: k.Title, SIG: k.SIG, Source: k.Source}
			if k.Status != "" {
				it.Title += " — " + strings.ToLower(strings.TrimSpace(k.Status))
			}
			a.Items = append(a.Items, it)
			ids = append(ids, k.Source)
		}
	}
	a.Text = fmt.Sprintf("Kubernetes %s is not out as far as my sources say (the newest release out is %s), so nothing has gone %s in it yet. kep.yaml plans %s for %s in it.",
		v, c.released, s.Label(), s.Label(), knowledge.Plural(len(a.Items), "enhancement", "enhancements"))
	a.Notes = append(a.Notes, "Plans move: a KEP planned for a release often slips to a later one. Ask again once "+v.String()+" is out.")
	a.Sources = c.sourceRefs(ids)
	return a
}

// announced is the count the announcement gives for stage s.
func announced(c knowledge.Counts, s knowledge.Stage) int {
	switch s {
	case knowledge.StageStable:
		return c.Stable
	case knowledge.StageBeta:
		return c.Beta
	case knowledge.StageAlpha:
		return c.Alpha
	}
	return 0
}

// answerNotices answers `1.29 deprecations`: the release's notices of one
// kind ("" for all): the documents' notices and what the API table says
// of the release, each thing told once, as every count and upgrade makes
// them. Once the catalog is loaded that is its parts; before, they are
// read from the store the same way.
func (e *Engine) answerNotices(ctx context.Context, v knowledge.Version, kind knowledge.NoticeKind) (*knowledge.Answer, error) {
	word := noticeWord(kind)
	r, err := e.findRelease(ctx, v, func(w knowledge.Version) string { return w.String() + " " + word })
	if err != nil {
		return nil, err
	}
	if c := e.cat.Load(); c != nil {
		if p, ok := c.noticeParts[releaseNotices{v, kind}]; ok {
			return p.answer(), nil
		}
	}
	all, err := e.kb.FindNotices(ctx, v, "")
	if err != nil {
		return nil, fmt.Errorf("find notices of %s: %w", v, err)
	}
	byID, err := e.sources(ctx)
	if err != nil {
		return nil, err
	}
	types, apiReleases, err := e.kb.ListAPIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list API lifecycles: %w", err)
	}
	if t := knowledge.NewAPITable(types, apiReleases); t.Known() {
		all = append(all, releaseAPINotices(t, v, byID)...)
	}
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	return e.noticeParts(r, kind, groupNotices(all, byID), byID, notesCoverage(v, rels, byID)).answer(), nil
}

// noticeWord names notices of a kind in the plural.
func noticeWord(kind knowledge.NoticeKind) string {
	switch kind {
	case knowledge.NoticeDeprecation:
		return "deprecations"
	case knowledge.NoticeRemoval:
		return "removals"
	case knowledge.NoticeUpgrade:
		return "upgrade notes"
	}
	return "notices"
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// answerReleases answers `releases`: every release a document announces
// or covers (an announcement, a release note), oldest first, with date,
// theme and counts in Answer.Releases; and apart, in a fact, the releases
// known only from kep.yaml milestones or the deprecation guide.
func (e *Engine) answerReleases(ctx context.Context) (*knowledge.Answer, error) {
	ev, err := e.evidence(ctx) // every source's word on each release: the days the cards give
	if err != nil {
		return nil, err
	}
	c := e.cat.Load()
	rels := ev.releases // shared: read, never changed
	if len(rels) == 0 {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND, "I know no releases yet.")
	}
	unlisted := ev.unlisted()
	var ids []string
	var documented, bare, outOnly []knowledge.Version
	a := &knowledge.Answer{Kind: knowledge.KindReleases, Title: "Known releases", Releases: []knowledge.ReleaseFacts{}}
	for _, r := range rels {
		if len(r.Sources) == 0 {
			if slices.Contains(unlisted, r.Version) {
				outOnly = append(outOnly, r.Version) // out per a tag, not yet announced in what I hold
				continue
			}
			bare = append(bare, r.Version)
			continue
		}
		documented = append(documented, r.Version)
		ids = append(ids, r.Sources...)
		counts, err := e.enhancementCounts(ctx, c, &r) // the release answer's
		if err != nil {
			return nil, err
		}
		a.Releases = append(a.Releases, knowledge.ReleaseFacts{Version: r.Version.String(), Date: ev.releaseDay(&r), Theme: r.Theme, Enhancements: counts})
	}
	for _, v := range outOnly {
		a.Facts = append(a.Facts, knowledge.Fact{Name: v.String(), Value: ev.outWords(v) + "; no announcement or release note of it yet"})
		if _, _, src := ev.dayOf(v); src != "" {
			ids = append(ids, src)
		}
		if best, _, ok := ev.latestPatch(v); ok {
			ids = append(ids, best.source)
		}
	}
	switch {
	case len(documented) == 0:
		a.Text = fmt.Sprintf("No announcement or release note is known; kep.yaml and the deprecation guide name %s: %s.",
			knowledge.Plural(len(bare), "release", "releases"), versionRanges(bare))
	default:
		a.Text = fmt.Sprintf("I know %s from their announcements and release notes: %s.",
			knowledge.Plural(len(documented), "release", "releases"), versionRanges(documented))
	}
	if len(bare) > 0 {
		if len(documented) > 0 {
			verb := "are"
			if len(bare) == 1 {
				verb = "is"
			}
			a.Text += fmt.Sprintf(" Another %d %s known only from kep.yaml milestones or the deprecation guide.", len(bare), verb)
		}
		a.Facts = append(a.Facts, knowledge.Fact{Name: "Not announced", Value: versionRanges(bare)})
	}
	refs, _, err := e.sourceRefs(ctx, ids)
	if err != nil {
		return nil, err
	}
	a.Sources = refs
	return a, nil
}

// changeFacts counts a release's release-note entries: all of them, and
// those that need action before upgrading.
func changeFacts(cs []knowledge.Change) []knowledge.Fact {
	if len(cs) == 0 {
		return nil
	}
	action := 0
	for _, c := range cs {
		if c.Action {
			action++
		}
	}
	v := knowledge.Plural(len(cs), "entry", "entries")
	if action > 0 {
		v += fmt.Sprintf(", %d action required", action)
	}
	return []knowledge.Fact{{Name: "Release notes", Value: v}}
}

// releaseLifecycleFacts are the support dates a release answer shows: no
// word on whether they are past, so the answer stays the same every day.
func releaseLifecycleFacts(l *knowledge.Lifecycle) []knowledge.Fact {
	var out []knowledge.Fact
	if l.EndOfSupport != "" {
		out = append(out, knowledge.Fact{Name: "Standard support until", Value: l.EndOfSupport})
	}
	if l.EOL != "" {
		out = append(out, knowledge.Fact{Name: "End of life", Value: l.EOL})
	}
	return out
}
