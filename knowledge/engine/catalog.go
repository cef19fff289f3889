package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// catalog is what questions that look across all the knowledge need, read
// from the store once: every KEP by number, every release and notice, the
// sources, the search index, and the parts of release, stage-list and
// notice-list answers (parts.go). An Engine keeps it until Invalidate.
// Nothing in it is changed after it is built, so answers may share it:
// they hand out copies, or the parts' slices clipped so that appending to
// them copies.
type catalog struct {
	keps     []*knowledge.KEP // by number
	byNum    map[int]*knowledge.KEP
	releases []knowledge.Release                    // oldest first
	versions []knowledge.Version                    // of releases, oldest first
	known    string                                 // versions as "1.23-1.33", for misses
	items    map[knowledge.Version][]knowledge.Item // every item of each release, in store order
	notices  map[knowledge.Version][]knowledge.Notice
	changes  map[knowledge.Version][]knowledge.Change // every release-note entry of each release, by PR
	patches  map[knowledge.Version][]knowledge.Patch  // every patch release of each release, oldest first
	// notesData are the releases whose release notes as data are known;
	// newestNotes is the newest of them.
	notesData   map[knowledge.Version]bool
	newestNotes knowledge.Version
	sources     map[string]knowledge.Source
	// gateNotices maps a lower-case feature gate to the notices naming it;
	// noticeGates lists those gates' spellings, for "did you mean".
	gateNotices map[string][]knowledge.Notice
	noticeGates []string
	// sigs maps a SIG ("sig-node", lower case) to its KEPs, by number.
	sigs map[string][]*knowledge.KEP
	// gateKEPs maps a lower-case feature gate to every KEP that names it
	// (its kep.yaml or a document about it), the one PreferKEP puts first
	// first.
	gateKEPs map[string][]*knowledge.KEP
	// repeats maps a notes-only KEP's restated stage in a release to the
	// release where the KEP reached that stage: a Repeat step of its
	// timeline, not a graduation.
	repeats map[stageAt]knowledge.Version
	// endings are kep.yaml's deprecated and removed steps, as items.
	endings []knowledge.Item
	index   *searchIndex
	// apis is the API lifecycle table (empty when the knowledge has none).
	apis *knowledge.APITable
	// gates are the feature gates each release's code declares (empty when
	// the knowledge has none): gate_table.go.
	gates *knowledge.GateIndex
	// gateChanges are, by release read, the gates whose declaration
	// differs from the release read before it, built with the catalog.
	gateChanges map[knowledge.Version][]knowledge.GateChange
	// gateUnread are, by release read, the gates declared the release
	// before whose module's code of it was not read (neither kept nor
	// removed as far as the code says), by name.
	gateUnread map[knowledge.Version][]string
	// vulns are the vulnerability records (cve_index.go).
	vulns vulnIndex
	// releaseEvidence answers, from every source, whether a release is
	// out, since when, and its newest patch (releasestatus.go); its
	// released is the newest release out (a release after it is planned),
	// its release the releases by version.
	*releaseEvidence
	// The answer parts, built ahead for the engine that read the catalog.
	releaseParts map[knowledge.Version]*releaseParts
	stageParts   map[releaseStage]*stageParts
	noticeParts  map[releaseNotices]*noticeParts
}

// stageAt is one KEP at one stage in one release.
type stageAt struct {
	KEP     int
	Stage   knowledge.Stage
	Release knowledge.Version
}

// catalog returns the Engine's catalog, reading it from the store on first
// use and after Invalidate. Concurrent callers wait for one read. It fails
// with a wrapped store error, and then keeps nothing.
func (e *Engine) catalog(ctx context.Context) (*catalog, error) {
	if c := e.cat.Load(); c != nil {
		return c, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c := e.cat.Load(); c != nil {
		return c, nil
	}
	c, err := e.readCatalog(ctx)
	if err != nil {
		return nil, err
	}
	e.cat.Store(c)
	return c, nil
}

// APIs returns the API lifecycle table from the Engine's catalog (read
// from the store on first need, like Warm); empty when the knowledge holds
// none. It fails with a wrapped store error.
func (e *Engine) APIs(ctx context.Context) (*knowledge.APITable, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	return c.apis, nil
}

// Warm reads the catalog, builds the search index and the answer parts
// now, so that the first question that needs them does not wait (about
// 15-25 ms over the whole corpus). Serve may call it at start and after
// Invalidate. It fails with a wrapped store error.
func (e *Engine) Warm(ctx context.Context) error {
	_, err := e.catalog(ctx)
	return err
}

// KEPs returns every KEP the Engine knows, by number, from its catalog
// (read from the store on first need, like Warm). The slice and the KEPs
// are shared with every answer: read them, never change them. A new
// slice comes after Invalidate. It fails with a wrapped store error.
func (e *Engine) KEPs(ctx context.Context) ([]*knowledge.KEP, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	return slices.Clip(c.keps), nil
}

// NoticeGates returns the spelling of every feature gate a release-note
// notice names, from the Engine's catalog: gates the knowledge answers
// though no kep.yaml may list them (question.NoticeGateSource). The slice
// is shared: read it, never change it. It fails with a wrapped store error.
func (e *Engine) NoticeGates(ctx context.Context) ([]string, error) {
	c, err := e.catalog(ctx)
	if err != nil {
		return nil, err
	}
	return slices.Clip(c.noticeGates), nil
}

// readCatalog reads every KEP, release, notice and source of the Engine's
// store, indexes them and builds the answer parts.
func (e *Engine) readCatalog(ctx context.Context) (*catalog, error) {
	kb := e.kb
	keps, err := kb.ListKEPs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list KEPs: %w", err)
	}
	c := &catalog{keps: keps, byNum: make(map[int]*knowledge.KEP, len(keps)), items: map[knowledge.Version][]knowledge.Item{}, notices: map[knowledge.Version][]knowledge.Notice{},
		changes: map[knowledge.Version][]knowledge.Change{}, patches: map[knowledge.Version][]knowledge.Patch{}, notesData: map[knowledge.Version]bool{},
		sources: map[string]knowledge.Source{}, gateNotices: map[string][]knowledge.Notice{}, sigs: map[string][]*knowledge.KEP{}, gateKEPs: map[string][]*knowledge.KEP{},
		repeats: map[stageAt]knowledge.Version{}}
	sort.Slice(c.keps, func(i, j int) bool { return c.keps[i].Number < c.keps[j].Number })
	for _, k := range c.keps {
		c.byNum[k.Number] = k
	}
	if c.releases, err = kb.ListReleases(ctx); err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	for _, r := range c.releases {
		items, err := kb.FindReleaseItems(ctx, r.Version, knowledge.StageNone)
		if err != nil {
			return nil, fmt.Errorf("find items of %s: %w", r.Version, err)
		}
		c.items[r.Version] = items
		ns, err := kb.FindNotices(ctx, r.Version, "")
		if err != nil {
			return nil, fmt.Errorf("find notices of %s: %w", r.Version, err)
		}
		c.notices[r.Version] = ns
		if c.changes[r.Version], err = kb.FindChanges(ctx, r.Version); err != nil {
			return nil, fmt.Errorf("find release-note entries of %s: %w", r.Version, err)
		}
		if c.patches[r.Version], err = kb.FindPatches(ctx, r.Version); err != nil {
			return nil, fmt.Errorf("find patch releases of %s: %w", r.Version, err)
		}
	}
	srcs, err := kb.ListSources(ctx)
	if err != nil {
		return nil, fmt.Errorf("list sources: %w", err)
	}
	for _, s := range srcs {
		c.sources[s.ID] = s
	}
	types, apiReleases, err := kb.ListAPIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list API lifecycles: %w", err)
	}
	c.apis = knowledge.NewAPITable(types, apiReleases)
	if c.gates, err = readGates(ctx, kb); err != nil {
		return nil, err
	}
	c.gateChanges, c.gateUnread = allGateChanges(c.gates)
	if c.apis.Known() {
		for _, r := range c.releases {
			// a release's lists hold what the API table says of it: every
			// list, count and upgrade is made from them
			c.notices[r.Version] = append(c.notices[r.Version], releaseAPINotices(c.apis, r.Version, c.sources)...)
		}
	}
	vulns, err := kb.ListVulns(ctx)
	if err != nil {
		return nil, fmt.Errorf("list vulnerability records: %w", err)
	}
	c.indexVulns(vulns)
	for _, r := range c.releases {
		for _, id := range r.Sources {
			if c.sources[id].Kind == knowledge.SourceReleaseNotesData {
				c.notesData[r.Version] = true
				c.newestNotes = r.Version
			}
		}
	}
	c.indexNotices()
	for _, k := range c.keps {
		c.indexKEP(k)
	}
	for _, ks := range c.gateKEPs {
		slices.SortStableFunc(ks, func(a, b *knowledge.KEP) int {
			if knowledge.PreferKEP(a, b) {
				return -1
			}
			if knowledge.PreferKEP(b, a) {
				return 1
			}
			return 0
		})
	}
	c.index = buildIndex(c.keps, c.notices)
	c.versions = releaseVersions(c.releases)
	c.releaseEvidence = newReleaseEvidence(c.releases, c.patches, c.sources, releasedOver(c.releases, c.patches, c.sources, c.apis.Latest()))
	c.known = knownReleasesOf(c.releases, c.released)
	e.buildParts(c)
	return c, nil
}

// indexNotices fills gateNotices and noticeGates, releases oldest first.
func (c *catalog) indexNotices() {
	seen := map[string]bool{}
	for _, r := range c.releases {
		for _, n := range c.notices[r.Version] {
			named := map[string]bool{}
			for _, g := range n.FeatureGates {
				key := strings.ToLower(g)
				if g == "" || named[key] {
					continue
				}
				named[key] = true
				c.gateNotices[key] = append(c.gateNotices[key], n)
				if !seen[key] {
					seen[key] = true
					c.noticeGates = append(c.noticeGates, g)
				}
			}
		}
	}
}

// indexKEP files k under its SIG, and records its repeats (notes-only
// KEPs) or its kep.yaml endings.
func (c *catalog) indexKEP(k *knowledge.KEP) {
	if sig := strings.ToLower(sigOf(k)); sig != "" {
		c.sigs[sig] = append(c.sigs[sig], k)
	}
	for _, g := range k.Gates() {
		key := strings.ToLower(g)
		c.gateKEPs[key] = append(c.gateKEPs[key], k)
	}
	if k.HasYAML() {
		for _, st := range k.Timeline() {
			if !st.Stage.IsGraduation() {
				c.endings = append(c.endings, knowledge.Item{KEP: k.Number, Title: k.Title, Stage: st.Stage, Release: st.Release, SIG: k.SIG, Source: st.Source})
			}
		}
		return
	}
	reached := k.Reached()
	first := map[knowledge.Stage]knowledge.Version{}
	for _, st := range k.Timeline() {
		if _, ok := first[st.Stage]; !ok {
			first[st.Stage] = st.Release
		}
		if !st.Repeat {
			continue
		}
		at, ok := reached[st.Stage]
		if !ok {
			at = first[st.Stage]
		}
		c.repeats[stageAt{k.Number, st.Stage, st.Release}] = at
	}
}

// repeatOf reports whether item it only restates a stage its KEP had
// already reached, and where it reached it. Only notes-only KEPs repeat:
// a KEP with kep.yaml has one release per stage.
func (c *catalog) repeatOf(it knowledge.Item) (knowledge.Version, bool) {
	if it.KEP == 0 {
		return knowledge.Version{}, false
	}
	v, ok := c.repeats[stageAt{it.KEP, it.Stage, it.Release}]
	return v, ok
}

// sourceRefs names the sources with the given IDs, first mention first,
// each once. IDs the catalog does not list are shown as they are.
func (c *catalog) sourceRefs(ids []string) []knowledge.SourceRef {
	return refsOf(c.sources, ids)
}

// sigOf is k's SIG: kep.yaml's, else the first a document gives.
func sigOf(k *knowledge.KEP) string {
	if k.SIG != "" {
		return k.SIG
	}
	for _, m := range k.History {
		if m.SIG != "" {
			return m.SIG
		}
	}
	return ""
}

// releaseVersions lists the versions of rels, in their order.
// knownReleases is knownReleasesOf with no release known to be out.
func knownReleases(rels []knowledge.Release) string {
	return knownReleasesOf(rels, knowledge.Version{})
}

// releasedOver is ReleasedThrough over releases rels, their patches and
// the sources (the support dates, patches and announced days), or the
// newest release whose API module was read (apiLatest), whichever is
// newer; newReleaseEvidence adds the releases whose code was read from
// their tag.
func releasedOver(rels []knowledge.Release, patches map[knowledge.Version][]knowledge.Patch, sources map[string]knowledge.Source, apiLatest knowledge.Version) knowledge.Version {
	corpus := &knowledge.Corpus{Releases: rels}
	for _, s := range sources {
		corpus.Sources = append(corpus.Sources, s)
	}
	for _, r := range rels {
		if r.Lifecycle != nil {
			corpus.Lifecycles = append(corpus.Lifecycles, *r.Lifecycle)
		}
		corpus.Patches = append(corpus.Patches, patches[r.Version]...)
	}
	if newest := knowledge.ReleasedThrough(corpus); apiLatest.Less(newest) {
		return newest
	}
	return apiLatest
}

// knownReleases says which releases are known, for "I don't know
// Kubernetes 1.99. I know …": the ranges, and when some are known only
// from kep.yaml milestones or the deprecation guide, which are which, and
// which are only planned (after released).
func knownReleasesOf(rels []knowledge.Release, released knowledge.Version) string {
	var documented, bare, planned []knowledge.Version
	for _, r := range rels {
		switch {
		case !released.IsZero() && released.Less(r.Version) && len(r.Sources) == 0:
			planned = append(planned, r.Version)
		case len(r.Sources) == 0:
			bare = append(bare, r.Version)
		default:
			documented = append(documented, r.Version)
		}
	}
	var parts []string
	if len(documented) > 0 && len(bare) > 0 {
		parts = append(parts, versionRanges(documented)+" (announced), and "+versionRanges(bare)+" from kep.yaml or the API guide only")
	} else if out := append(documented, bare...); len(out) > 0 {
		parts = append(parts, versionRanges(out))
	}
	s := strings.Join(parts, "")
	if len(planned) > 0 {
		if s != "" {
			s += "; "
		}
		s += versionRanges(planned) + " only as kep.yaml's plans (the newest release out is " + released.String() + ")"
	}
	return s
}

func releaseVersions(rels []knowledge.Release) []knowledge.Version {
	vs := make([]knowledge.Version, len(rels))
	for i, r := range rels {
		vs[i] = r.Version
	}
	return vs
}
