package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The parts of release, stage-list and notice-list answers that depend
// only on the knowledge. The catalog builds them once for every release,
// every (release, graduation stage) and every (release, kind of notice),
// so that such a question, once the catalog is loaded, costs a lookup and
// one new Answer; there are a few hundred of them. A kep answer is built
// whole when it is asked (kepAnswer): kept for each of some 700 KEPs its
// parts were a fifth of the live heap, which every garbage collection
// marks. Parts are shared by every answer built from them and never
// changed after they are built; answers hand out their slices clipped
// (slices.Clip), so that a caller appending to one gets a copy instead of
// writing into the parts.

// releaseParts is what a release answer says of one release.
type releaseParts struct {
	told    toldNotices // the release's notices, each thing told once: every list and count of it
	facts   *knowledge.ReleaseFacts
	title   string
	text    string
	counts  []knowledge.Fact
	items   []knowledge.Item
	notes   []string
	sources []knowledge.SourceRef
}

// releaseParts builds the release answer parts of r from c: its facts, a
// few highlights and how many notices it carries. told are r's notices,
// each thing told once (groupNotices); nil to group them here.
func (e *Engine) releaseParts(c *catalog, r *knowledge.Release, told *toldNotices) *releaseParts {
	v := r.Version
	items := c.items[v] // shared: read, never changed
	if told == nil {
		t := groupNotices(c.notices[v], c.sources)
		told = &t
	}
	day, dayBy, daySource := c.dayOf(v)
	p := &releaseParts{told: *told, title: "Kubernetes " + v.String(), sources: c.sourceRefs(r.Sources),
		facts: &knowledge.ReleaseFacts{Version: v.String(), Date: day, Theme: r.Theme, Enhancements: releaseCounts(r, items)}}
	dated := *r
	dated.Date = day
	p.text = releaseSummary(&dated, dayBy)
	if note := c.releaseDayNote(v); note != "" {
		p.notes = append(p.notes, note)
	}
	if day == "" && c.out(v) {
		p.notes = append(p.notes, fmt.Sprintf("Kubernetes %s is %s.", v, c.outWords(v)))
	}
	p.counts = append(noticeFacts(told.count()), changeFacts(c.changes[v])...)
	ids := append([]string{}, r.Sources...)
	if daySource != "" && !slices.Contains(ids, daySource) {
		ids = append(ids, daySource) // what gives its day
	}
	if l := r.Lifecycle; l != nil {
		p.counts = append(p.counts, releaseLifecycleFacts(l)...)
		ids = append(ids, l.Source)
	}
	if best, _, ok := c.latestPatch(v); ok { // the newest any source names, with its source and date
		p.counts = append(p.counts, knowledge.Fact{Name: "Latest patch", Value: best.name(v, c.sources)})
		ids = append(ids, best.source)
	}
	if len(ids) > len(r.Sources) {
		p.sources = c.sourceRefs(ids)
	}
	if cov := notesCoverage(v, c.releases, c.sources); cov != "" && c.newestNotes.Less(v) {
		p.notes = append(p.notes, strings.Replace(cov, "this list", "what I say of it", 1))
	}
	switch {
	case !c.released.IsZero() && c.released.Less(v) && len(items) == 0 && day == "":
		p.facts.Planned = true
		p.text = fmt.Sprintf("Kubernetes %s is not out as far as my sources say (the newest release out is %s). %s", v, c.released, c.plannedCounts(v))
	case r.Enhancements.IsZero():
		p.text += " " + itemCounts(items)
	}
	p.items = e.highlightItems(items)
	if len(p.items) < len(items) {
		p.notes = append(p.notes, fmt.Sprintf("Showing %d highlights; ask %s ga, %s beta or %s alpha for each list.", len(p.items), v, v, v))
	}
	if len(r.Sources) == 0 {
		p.notes = append(p.notes, fmt.Sprintf("No announcement or release note of %s is known; what reached a stage in it comes from kep.yaml.", v))
	}
	return p
}

// plannedCounts says how many KEPs kep.yaml plans at each stage for v, a
// release that is not out: "kep.yaml plans 10 GA, 0 beta, 0 alpha for it
// (ask 1.38 ga for the list); plans move."
func (c *catalog) plannedCounts(v knowledge.Version) string {
	n := map[knowledge.Stage]int{}
	for _, k := range c.keps {
		for s, t := range k.Targets() {
			if t == v {
				n[s]++
			}
		}
	}
	if n[knowledge.StageStable]+n[knowledge.StageBeta]+n[knowledge.StageAlpha] == 0 {
		return "No kep.yaml I hold plans a stage for it yet."
	}
	return fmt.Sprintf("kep.yaml plans %d GA, %d beta, %d alpha for it (ask %s ga, %s beta or %s alpha for each list); plans move, and a planned stage is not reached.",
		n[knowledge.StageStable], n[knowledge.StageBeta], n[knowledge.StageAlpha], v, v, v)
}

// answer is a new release Answer sharing p.
func (p *releaseParts) answer() *knowledge.Answer {
	return &knowledge.Answer{Kind: knowledge.KindRelease, Title: p.title, Text: p.text, Release: p.facts, Facts: slices.Clip(p.counts),
		Items: slices.Clip(p.items), Notes: slices.Clip(p.notes), Sources: slices.Clip(p.sources)}
}

// releaseStage is one stage in one release: the key of a stage list.
type releaseStage struct {
	Release knowledge.Version
	Stage   knowledge.Stage
}

// stageParts is what a stage-list answer (`1.29 ga`) says.
type stageParts struct {
	title   string
	text    string
	items   []knowledge.Item
	notes   []string
	sources []knowledge.SourceRef
}

// stageParts builds the answer parts of `v s` for release r from c: every
// KEP that reached stage s in r, by KEP number, items without one last,
// quoted. A KEP no kep.yaml knows is listed as r's own documents list it,
// even when an earlier note put it at s already; a note says where.
func (e *Engine) stageParts(c *catalog, r *knowledge.Release, s knowledge.Stage) *stageParts {
	v := r.Version
	var items []knowledge.Item
	for _, it := range c.items[v] {
		if it.Stage == s {
			items = append(items, it)
		}
	}
	sortItemsByKEP(items)
	ids := append(make([]string, 0, len(r.Sources)+len(items)), r.Sources...)
	var repeats []knowledge.Item
	several := 0
	for i := range items {
		if at, rep := c.repeatOf(items[i]); rep {
			first := items[i]
			first.Release = at
			repeats = append(repeats, first)
		}
		items[i].Text = knowledge.Quote(items[i].Text, e.maxQuote)
		ids = append(append(ids, items[i].Source), items[i].ToldBy...)
		if c.documentsTelling(items[i]) > 1 {
			several++
		}
	}
	p := &stageParts{title: fmt.Sprintf("Kubernetes %s: %s", v, s.Label()), items: items, sources: c.sourceRefs(ids)}
	switch len(items) {
	case 0:
		p.text = fmt.Sprintf("I know of nothing that %s in Kubernetes %s.", stageVerb(s), v)
	case 1:
		p.text = fmt.Sprintf("1 enhancement %s in Kubernetes %s.", stageVerb(s), v)
	default:
		p.text = fmt.Sprintf("%d enhancements %s in Kubernetes %s.", len(items), stageVerb(s), v)
	}
	for _, it := range repeats {
		p.notes = append(p.notes, fmt.Sprintf("KEP-%d was listed as %s in %s already; the notes disagree on when (kep %d shows both).",
			it.KEP, s.Label(), it.Release, it.KEP))
	}
	if several > 0 {
		are := "one is"
		if several > 1 {
			are = fmt.Sprintf("%d are", several)
		}
		p.notes = append(p.notes, fmt.Sprintf("Each enhancement is listed once, with kep.yaml and every document line about it (--json: told_by); %s told by several documents.", are))
	}
	if n := announced(r.Enhancements, s); n > 0 && n != len(items) {
		p.notes = append(p.notes, fmt.Sprintf("The release announcement counts %d %s; kep.yaml and the documents I have name %d.", n, s.Label(), len(items)))
	}
	return p
}

// answer is a new stage-list Answer sharing p.
func (p *stageParts) answer() *knowledge.Answer {
	return &knowledge.Answer{Kind: knowledge.KindList, Title: p.title, Text: p.text, Items: slices.Clip(p.items), Notes: slices.Clip(p.notes), Sources: slices.Clip(p.sources)}
}

// releaseNotices is one kind of notice ("" for all) in one release: the
// key of a notice list.
type releaseNotices struct {
	Release knowledge.Version
	Kind    knowledge.NoticeKind
}

// noticeKinds are the notice lists the catalog builds for each release.
var noticeKinds = []knowledge.NoticeKind{"", knowledge.NoticeDeprecation, knowledge.NoticeRemoval, knowledge.NoticeUpgrade}

// noticeParts is what a notice-list answer (`1.29 deprecations`) says.
type noticeParts struct {
	title   string
	text    string
	notices []knowledge.Notice
	notes   []string
	sources []knowledge.SourceRef
}

// noticeParts builds the answer parts of release r's notices of kind
// from all, r's notices each told once (groupNotices), quoting copies;
// byID names the sources. When there is none of kind, the answer points
// to the kinds there are. A notice several sources tell is shown once,
// and a note names them.
//
// coverage, when not "", says what the knowledge lacks for r (its release
// notes as data): it ends the text, so an empty or short list is never
// read as the whole truth.
func (e *Engine) noticeParts(r *knowledge.Release, kind knowledge.NoticeKind, all toldNotices, byID map[string]knowledge.Source, coverage string) *noticeParts {
	v, word := r.Version, noticeWord(kind)
	of := all.ofKind(kind)
	ns := append([]knowledge.Notice(nil), of.notices...)
	ids := append(make([]string, 0, len(r.Sources)+len(ns)), r.Sources...)
	for i := range ns {
		ns[i].Text = knowledge.Quote(knowledge.NoticeWords(ns[i]), e.maxQuote)
		ids = append(ids, of.told[i]...)
	}
	p := &noticeParts{title: fmt.Sprintf("Kubernetes %s: %s", v, word), notices: ns, sources: refsOf(byID, ids), notes: toldNotes(of, byID)}
	if len(ns) == 0 {
		p.text = fmt.Sprintf("I know of no %s in Kubernetes %s.", word, v) + otherNotices(v, kind, all.count())
		if hasSnapshot(byID) {
			p.text += " The built-in snapshot keeps only the notices tied to a KEP, an API or a release-note entry; run bot sync or bot ingest for the rest."
		}
	} else {
		p.text = fmt.Sprintf("%s in Kubernetes %s.", capitalize(knowledge.Plural(len(ns), strings.TrimSuffix(word, "s"), word)), v)
	}
	if coverage != "" {
		p.text += " " + coverage
	}
	return p
}

// otherNotices says which other kinds of notice release v has, as the
// questions to ask: " It has 2 removals: ask 1.32 removals.", or "".
func otherNotices(v knowledge.Version, kind knowledge.NoticeKind, counts noticeCounts) string {
	if kind == "" {
		return ""
	}
	var parts, asks []string
	for _, k := range noticeKinds[1:] {
		if k == kind {
			continue
		}
		if n := counts.of(k); n > 0 {
			word := noticeWord(k)
			parts = append(parts, knowledge.Plural(n, strings.TrimSuffix(word, "s"), word))
			asks = append(asks, knowledge.Question{Kind: knowledge.AskNotices, Version: v, Notice: k}.Canonical())
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " It has " + strings.Join(parts, " and ") + ": ask " + strings.Join(asks, " or ") + "."
}

// hasSnapshot reports whether the knowledge came from the built-in
// snapshot, which keeps no document's words.
func hasSnapshot(byID map[string]knowledge.Source) bool {
	for _, src := range byID {
		if src.Kind == knowledge.SourceSnapshot {
			return true
		}
	}
	return false
}

// answer is a new notice-list Answer sharing p.
func (p *noticeParts) answer() *knowledge.Answer {
	return &knowledge.Answer{Kind: knowledge.KindList, Title: p.title, Text: p.text, Notices: slices.Clip(p.notices), Notes: slices.Clip(p.notes), Sources: slices.Clip(p.sources)}
}

// buildParts fills c's answer parts: one per release, per release and
// graduation stage, and per release and kind of notice. A KEP's are built
// when it is asked of (answerKEP).
func (e *Engine) buildParts(c *catalog) {
	c.releaseParts = make(map[knowledge.Version]*releaseParts, len(c.releases))
	c.stageParts = make(map[releaseStage]*stageParts, len(c.releases)*len(knowledge.GraduationStages))
	c.noticeParts = make(map[releaseNotices]*noticeParts, len(c.releases)*len(noticeKinds))
	for i := range c.releases {
		r := &c.releases[i]
		told := groupNotices(c.notices[r.Version], c.sources) // once: every list and count of r is made from it
		c.releaseParts[r.Version] = e.releaseParts(c, r, &told)
		for _, s := range knowledge.GraduationStages {
			c.stageParts[releaseStage{r.Version, s}] = e.stageParts(c, r, s)
		}
		cov := notesCoverage(r.Version, c.releases, c.sources)
		for _, kind := range noticeKinds {
			c.noticeParts[releaseNotices{r.Version, kind}] = e.noticeParts(r, kind, told, c.sources, cov)
		}
	}
}

// releaseMiss is the ENOTFOUND error for release v, which is not one of
// vs (oldest first; known writes them), suggesting ask of the nearest.
func releaseMiss(v knowledge.Version, vs []knowledge.Version, known string, ask func(knowledge.Version) string) error {
	if len(vs) == 0 {
		return knowledge.Errorf(knowledge.ENOTFOUND, "I don't know Kubernetes %s. I know no releases yet.", v)
	}
	near := vs[0]
	for _, w := range vs {
		if distance(w, v) <= distance(near, v) {
			near = w
		}
	}
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I don't know Kubernetes %s. I know %s.", v, known), Suggestions: []string{ask(near)}}
}

// notesCoverage says what the knowledge lacks for release v when it holds
// release notes as data for other releases but not for v: none yet (v is
// newer than every release it holds them for: not published, or not synced
// yet), or none at all. "" when v's notes are known, or none are. It says
// nothing of the day, so answers that carry it may be cached.
func notesCoverage(v knowledge.Version, rels []knowledge.Release, byID map[string]knowledge.Source) string {
	var with []knowledge.Version
	for _, r := range rels {
		for _, id := range r.Sources {
			if byID[id].Kind == knowledge.SourceReleaseNotesData {
				if r.Version == v {
					return ""
				}
				with = append(with, r.Version)
				break
			}
		}
	}
	if len(with) == 0 {
		return ""
	}
	newest, oldest := with[len(with)-1], with[0]
	switch {
	case newest.Less(v):
		return fmt.Sprintf("I hold no release notes of %s yet (the newest I hold are %s's), so this list may grow.", v, newest)
	case v.Less(oldest):
		return fmt.Sprintf("I hold release notes as data from %s on; for %s this list comes from the other documents only.", oldest, v)
	}
	return fmt.Sprintf("I hold no release notes as data for %s; this list comes from the other documents only.", v)
}

// documentsTelling counts the documents (not kep.yaml) that tell item it.
func (c *catalog) documentsTelling(it knowledge.Item) int {
	n := 0
	for _, id := range append([]string{it.Source}, it.ToldBy...) {
		if s, ok := c.sources[id]; ok && s.Kind != knowledge.SourceKEPYAML {
			n++
		}
	}
	return n
}
