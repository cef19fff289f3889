package knowledge

import (
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge/internal/prose"
)

// Compile joins a Corpus into Knowledge: each KEP with every mention of it
// across documents (its History), each release with what reached a stage in
// it and its notices. It never fails; what it cannot join stays a release
// item without a KEP number.
//
// Stage truth: for a KEP whose kep.yaml is known, a release's items are the
// stages the KEP reached in that release: as what shipped dates them (the
// code declaring one of its own feature gates at the stage, release notes
// that date it: KEP.Shipped), else per kep.yaml; other release documents
// only lend their words. For a KEP only the notes know, the items are what
// the notes state.
func Compile(c *Corpus) *Knowledge {
	k := &Knowledge{Sources: dedupeSources(c.Sources), Skipped: c.Skipped}
	langOf, names := map[string]string{}, map[string]string{}
	for _, s := range k.Sources {
		langOf[s.ID], names[s.ID] = s.Lang, s.Name
	}

	released := ReleasedThrough(c)
	keps := map[int]*KEP{}
	for i := range c.KEPs {
		kp := c.KEPs[i]
		if _, dup := keps[kp.Number]; dup || kp.Number <= 0 {
			continue
		}
		kp.History = nil
		kp.FeatureGates = realGates(kp.FeatureGates) // a copy, without kep.yaml's placeholders (None, NA, TBD)
		keps[kp.Number] = &kp
	}
	yamlGates := map[int][]string{} // kep.yaml's own gate names, before documents add theirs
	for n, kp := range keps {
		if kp.HasYAML() {
			yamlGates[n] = kp.FeatureGates
		}
	}
	mentions := append([]Mention(nil), c.Mentions...)
	sortMentions(mentions, langOf)
	for _, m := range mentions {
		if m.KEP > 0 {
			kp := kepFor(keps, m)
			kp.FeatureGates = prose.AddNames(kp.FeatureGates, m.FeatureGates)
		}
	}
	gates := gateOwners(keps)
	for i := range mentions {
		if mentions[i].KEP == 0 {
			if n := ownerOf(gates, mentions[i].FeatureGates); n > 0 {
				mentions[i].KEP, mentions[i].Via = n, "gate"
			}
		}
	}
	for _, kp := range keps {
		kp.Released = released // what is planned and what is reached
	}
	linkByName(mentions, keps, gates)
	for _, m := range mentions {
		if m.KEP > 0 {
			kp := keps[m.KEP]
			kp.History = append(kp.History, m)
		}
	}

	through := yamlThrough(c)
	for _, kp := range keps {
		if kp.HasYAML() {
			kp.YAMLThrough = through
		}
	}
	// what shipped (the code's gates, the release notes) dates a KEP's
	// stages before kep.yaml's plans are read
	k.FeatureGates, k.GateReads = compileGates(c.GateTables)
	behind := addShipped(keps, yamlGates, k.FeatureGates, k.GateReads, c.Changes)
	shareGates(keps)
	checkDisagreements(keps, gates, names, behind)

	rels := map[Version]*ReleaseRecord{}
	rel := func(v Version) *ReleaseRecord {
		r := rels[v]
		if r == nil {
			r = &ReleaseRecord{Release: Release{Version: v}}
			rels[v] = r
		}
		return r
	}
	for _, r := range preferredReleases(c.Releases, langOf) {
		mergeRelease(&rel(r.Version).Release, r)
	}
	addItems(keps, mentions, rel)
	addPlanned(keps, released, rel)
	for _, n := range c.Notices {
		if n.Release.IsZero() {
			continue
		}
		if n.KEP == 0 {
			if n.KEP = ownerOf(gates, n.FeatureGates); n.KEP > 0 {
				n.KEPVia = KEPViaGate
			}
		}
		r := rel(n.Release)
		r.Notices = append(r.Notices, n)
	}

	addChanges(c.Changes, keps, gates, rel)
	checkReleaseNotes(keps, names)
	addLifecycles(c.Lifecycles, c.Patches, rel)
	k.APIs, k.APIReleases = compileAPIs(c, k.Sources)
	gateKEPs(k.FeatureGates, keps, c.Changes)
	k.Vulns = compileVulns(c.Vulns)

	for _, r := range rels {
		sortItems(r.Items)
		sortChanges(r.Changes)
		k.Releases = append(k.Releases, *r)
	}
	sort.Slice(k.Releases, func(i, j int) bool { return k.Releases[i].Version.Less(k.Releases[j].Version) })
	for _, kp := range keps {
		k.KEPs = append(k.KEPs, *kp)
	}
	sort.Slice(k.KEPs, func(i, j int) bool { return k.KEPs[i].Number < k.KEPs[j].Number })
	return k
}

// addItems puts each graduation into the release it happened in.
func addItems(keps map[int]*KEP, mentions []Mention, rel func(Version) *ReleaseRecord) {
	for _, kp := range keps {
		if !kp.HasYAML() {
			continue
		}
		for s, v := range kp.Reached() {
			it := Item{KEP: kp.Number, Title: kp.Title, Stage: s, Release: v, SIG: kp.SIG, Source: kp.Source}
			for _, m := range kp.History { // lend the words of a note that agrees
				if m.Stage == s && m.Release == v {
					it.Text, it.Source = m.Text, m.Source
					break
				}
			}
			it.ToldBy = toldBy(kp, it)
			r := rel(v)
			r.Items = append(r.Items, it)
		}
	}
	seen := map[[3]int]bool{}
	for _, m := range mentions {
		if !m.Stage.IsGraduation() || m.Release.IsZero() {
			continue
		}
		if m.KEP > 0 {
			if keps[m.KEP].HasYAML() {
				continue
			}
			key := [3]int{m.KEP, int(m.Stage), m.Release.Major<<16 | m.Release.Minor}
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		title := m.Title
		if m.KEP > 0 {
			title = keps[m.KEP].Title
		}
		r := rel(m.Release)
		r.Items = append(r.Items, Item{KEP: m.KEP, Title: title, Stage: m.Stage, Release: m.Release, Text: m.Text, SIG: m.SIG, Source: m.Source})
	}
}

// toldBy are the sources besides it's own that tell item it of KEP kp:
// kep.yaml, and every document line tied to kp that puts it at the item's
// stage in its release.
func toldBy(kp *KEP, it Item) []string {
	var out []string
	if kp.Source != "" && kp.Source != it.Source {
		out = append(out, kp.Source)
	}
	for _, m := range kp.History {
		if m.Stage == it.Stage && m.Release == it.Release && m.Source != it.Source && !slices.Contains(out, m.Source) {
			out = append(out, m.Source)
		}
	}
	return out
}

// shareGates records, on each KEP, the other KEPs that name one of its
// feature gates (kep.yaml's, or a document's about it).
func shareGates(keps map[int]*KEP) {
	named := map[string][]*KEP{}
	for _, kp := range keps {
		for _, g := range kp.Gates() {
			key := strings.ToLower(g)
			named[key] = append(named[key], kp)
		}
	}
	for _, kp := range keps {
		kp.SharedGates = nil
		for _, g := range kp.Gates() {
			for _, o := range named[strings.ToLower(g)] {
				if o != kp {
					kp.SharedGates = append(kp.SharedGates, SharedGate{Gate: g, KEP: o.Number, Status: strings.ToLower(strings.TrimSpace(o.Status))})
				}
			}
		}
		sort.SliceStable(kp.SharedGates, func(i, j int) bool {
			a, b := kp.SharedGates[i], kp.SharedGates[j]
			if a.Gate != b.Gate {
				return a.Gate < b.Gate
			}
			return a.KEP < b.KEP
		})
	}
}

// addPlanned makes sure each release a kep.yaml milestone targets after
// the newest release out is known, as a release with nothing reached in
// it yet: asked about, it says what is planned, never what went GA.
func addPlanned(keps map[int]*KEP, released Version, rel func(Version) *ReleaseRecord) {
	if released.IsZero() {
		return
	}
	for _, kp := range keps {
		for _, v := range kp.Targets() {
			if released.Less(v) {
				rel(v)
			}
		}
	}
}

// kepFor returns the KEP a mention names, creating a notes-only record from
// the mention when no kep.yaml knows it.
func kepFor(keps map[int]*KEP, m Mention) *KEP {
	kp := keps[m.KEP]
	if kp == nil {
		kp = &KEP{Number: m.KEP, Title: m.Title, SIG: m.SIG}
		keps[m.KEP] = kp
	}
	if kp.SIG == "" {
		kp.SIG = m.SIG
	}
	if kp.Title == "" {
		kp.Title = m.Title
	}
	return kp
}

// sortMentions orders mentions by release, English sources first within a
// release (their names win for notes-only KEPs), then by source and line.
func sortMentions(ms []Mention, langOf map[string]string) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if c := a.Release.Compare(b.Release); c != 0 {
			return c < 0
		}
		if la, lb := langOf[a.Source] == "en", langOf[b.Source] == "en"; la != lb {
			return la
		}
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Line < b.Line
	})
}

func sortItems(items []Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if (a.KEP == 0) != (b.KEP == 0) {
			return a.KEP != 0
		}
		if a.KEP != b.KEP {
			return a.KEP < b.KEP
		}
		return a.Stage < b.Stage
	})
}

// preferredReleases orders release announcements so English official posts
// come first: where documents disagree on a release's facts, theirs win.
func preferredReleases(rs []Release, langOf map[string]string) []Release {
	out := append([]Release(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool {
		return isEnglish(out[i], langOf) && !isEnglish(out[j], langOf)
	})
	return out
}

func isEnglish(r Release, langOf map[string]string) bool {
	return len(r.Sources) > 0 && langOf[r.Sources[0]] == "en"
}

// mergeRelease fills the facts dst lacks from src and adds src's sources.
func mergeRelease(dst *Release, src Release) {
	if dst.Date == "" {
		dst.Date = src.Date
	}
	if dst.Theme == "" {
		dst.Theme = src.Theme
	}
	if dst.Enhancements.IsZero() {
		dst.Enhancements = src.Enhancements
	}
	dst.Sources = prose.AddNames(dst.Sources, src.Sources)
}

func dedupeSources(ss []Source) []Source {
	seen := map[string]bool{}
	var out []Source
	for _, s := range ss {
		if !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, s)
		}
	}
	return out
}

// gateOwners maps each feature gate (lower case) to the KEP that names it.
// A gate several KEPs claim goes to the one PreferKEP puts first: a live
// KEP, never a withdrawn one for its successor.
func gateOwners(keps map[int]*KEP) map[string]int {
	out := map[string]int{}
	for n, kp := range keps {
		for _, g := range kp.FeatureGates {
			key := strings.ToLower(g)
			if cur, ok := out[key]; !ok || PreferKEP(kp, keps[cur]) {
				out[key] = n
			}
		}
	}
	return out
}

// KEPViaGate is Notice.KEPVia for a KEP taken from the owner of one of
// the notice's feature gates.
const KEPViaGate = "gate"

func ownerOf(gates map[string]int, names []string) int {
	for _, g := range names {
		if n := gates[strings.ToLower(g)]; n > 0 {
			return n
		}
	}
	return 0
}

// ReleasedThrough returns the newest release the corpus says is out. A
// release is out when a source says so as a fact of its own: support
// dates with a release day (endoflife.date), a patch release, a release
// of the API modules read (k8s.io/api is tagged from released branches),
// a release whose code's feature gates were read (from its tag),
// or a release day a document gives that is not after the document's own
// date (a release page of a cycle in progress names a day still to come).
// Zero when no source says: then nothing bounds what kep.yaml says.
func ReleasedThrough(c *Corpus) Version {
	asOf := map[string]string{}
	var newest Version
	bump := func(v Version) {
		if newest.Less(v) {
			newest = v
		}
	}
	for _, s := range c.Sources {
		asOf[s.ID] = s.AsOf
		if s.Kind == SourceAPILifecycle {
			if v, ok := APISourceRelease(s.ID); ok {
				bump(v)
			}
		}
	}
	for _, l := range c.Lifecycles {
		if l.Released != "" {
			bump(l.Release)
		}
	}
	for _, t := range c.GateTables {
		bump(t.Release) // read from the code of its tag: it is out
	}
	for _, p := range c.Patches {
		bump(p.Release)
	}
	for _, r := range c.Releases {
		if r.Date == "" {
			continue
		}
		for _, id := range r.Sources {
			if d := asOf[id]; d != "" && r.Date <= d {
				bump(r.Version)
				break
			}
		}
	}
	return newest
}

// released is ReleasedThrough over compiled releases: their support
// dates, patches and announced days, with the API modules' releases.
func releasedOf(rels []ReleaseRecord, apiReleases []Version, sources []Source) Version {
	c := &Corpus{Sources: sources}
	for _, r := range rels {
		c.Releases = append(c.Releases, r.Release)
		if r.Lifecycle != nil {
			c.Lifecycles = append(c.Lifecycles, *r.Lifecycle)
		}
		c.Patches = append(c.Patches, r.Patches...)
	}
	newest := ReleasedThrough(c)
	for _, v := range apiReleases {
		if newest.Less(v) {
			newest = v
		}
	}
	return newest
}
