package engine

import (
	"context"
	"fmt"

	"github.com/kepbot/kepbot/knowledge"
)

// One answer to "is 1.N out, since when, and what is its newest patch",
// from every source, for every card and list: the release card, `1.N
// eol`, `1.N patches`, `latest`, `supported` and `releases` all ask a
// releaseEvidence. The newest patch is the newest any source names (the
// patch list, the lifecycle record, a k8s.io/api tag), said with its source
// and date; a release is out when a source says so as a fact of its own
// (ReleasedThrough, the catalog's released, the k8s.io/kubernetes tag its
// feature gates were read from), and its day is the v.0 tag's (the patch
// list's), else the lifecycle record's, else the UTC day of its
// k8s.io/kubernetes v1.N.0 tag from the Go module proxy (the feature-gates
// source's), else its page's: dayOf, said with what gives it.

// releaseEvidence is what the sources say of every release: its record,
// its patches, the sources and the newest release out.
type releaseEvidence struct {
	releases []knowledge.Release // oldest first
	release  map[knowledge.Version]*knowledge.Release
	patches  map[knowledge.Version][]knowledge.Patch
	sources  map[string]knowledge.Source
	released knowledge.Version
	// tags are, by release, the source of its k8s.io/kubernetes v1.N.0 tag
	// (knowledge.KubernetesTagSource): the feature gates read from it, dated
	// by the tag's time from the Go module proxy.
	tags map[knowledge.Version]knowledge.Source
}

// newReleaseEvidence indexes rels (oldest first), their patches and the
// sources; released is the newest release out.
func newReleaseEvidence(rels []knowledge.Release, patches map[knowledge.Version][]knowledge.Patch, sources map[string]knowledge.Source, released knowledge.Version) *releaseEvidence {
	x := &releaseEvidence{releases: rels, release: make(map[knowledge.Version]*knowledge.Release, len(rels)), patches: patches, sources: sources, released: released,
		tags: map[knowledge.Version]knowledge.Source{}}
	for i := range rels {
		x.release[rels[i].Version] = &rels[i]
	}
	for _, src := range sources {
		v, ok := knowledge.KubernetesTagSource(src)
		if !ok {
			continue
		}
		if x.released.Less(v) {
			x.released = v // its tag's code was read: it is out
		}
		if src.AsOf != "" {
			x.tags[v] = src // the tag's day
		}
	}
	return x
}

// storeEvidence reads a releaseEvidence from the store without the
// catalog (no KEP is read): releases, their patches, the sources and the
// API modules' newest release.
func (e *Engine) storeEvidence(ctx context.Context) (*releaseEvidence, error) {
	rels, err := e.kb.ListReleases(ctx)
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	patches := map[knowledge.Version][]knowledge.Patch{}
	for _, r := range rels {
		if patches[r.Version], err = e.kb.FindPatches(ctx, r.Version); err != nil {
			return nil, fmt.Errorf("find patch releases of %s: %w", r.Version, err)
		}
	}
	byID, err := e.sources(ctx)
	if err != nil {
		return nil, err
	}
	types, apiReleases, err := e.kb.ListAPIs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list API lifecycles: %w", err)
	}
	return newReleaseEvidence(rels, patches, byID, releasedOver(rels, patches, byID, knowledge.NewAPITable(types, apiReleases).Latest())), nil
}

// out reports whether release v is out as far as the sources say.
func (x *releaseEvidence) out(v knowledge.Version) bool {
	return !x.released.IsZero() && !x.released.Less(v)
}

// outWords says what says release v is out and since when: "out since
// 2026-08-26 (its k8s.io/kubernetes v1.37.0 tag, per the Go module
// proxy)" with its day and what gives it, else "per the k8s.io/api v0.37.2
// tag, as of 2026-10-28" for a release no source dates. "" for a release
// not out.
func (x *releaseEvidence) outWords(v knowledge.Version) string {
	if !x.out(v) {
		return ""
	}
	if day, by, _ := x.dayOf(v); day != "" {
		return "out since " + day + " (" + by + ")"
	}
	if best, _, ok := x.latestPatch(v); ok {
		return "out, per " + best.how + asOfWords(x.sources[best.source].AsOf) + "; no source I hold gives its day"
	}
	return "out; no source I hold gives its day"
}

// asOfWords writes ", as of 2026-10-28", or "" for a source without a date.
func asOfWords(asOf string) string {
	if asOf == "" {
		return ""
	}
	return ", as of " + asOf
}

// lifecycleNewest is the newest release the lifecycle data dates, and
// the day it speaks for.
func (x *releaseEvidence) lifecycleNewest() (knowledge.Version, string) {
	var v knowledge.Version
	asOf := ""
	for _, r := range x.releases {
		if r.Lifecycle != nil {
			v = r.Version
			asOf = x.sources[r.Lifecycle.Source].AsOf
		}
	}
	return v, asOf
}

// unlisted are the releases out that the lifecycle data does not list
// yet (newer than its newest), oldest first: 1.37 while endoflife.date
// speaks for a day before it.
func (x *releaseEvidence) unlisted() []knowledge.Version {
	newest, _ := x.lifecycleNewest()
	if newest.IsZero() {
		return nil
	}
	var out []knowledge.Version
	for v := newest.Next(); x.out(v); v = v.Next() {
		out = append(out, v)
	}
	return out
}

// patchNote says whether patch release v.patch exists as far as the
// sources know: a note with its day when the patch list has it, or with
// the newer patch another source names (the k8s.io/api v0.36.6 tag: 1.36.5
// and 1.36.6 are patches of 1.36 though the list stops at 1.36.4);
// unknownPatch's ENOTFOUND when it is newer than any names; a note that it
// cannot be told when no source names a patch of v.
func (x *releaseEvidence) patchNote(v knowledge.Version, patch int) (string, error) {
	name := patchName(v, patch)
	ps := x.patches[v] // oldest first
	for _, p := range ps {
		if p.Number == patch {
			return fmt.Sprintf("%s is a patch release of %s (%s); this answer is about %s as a whole.", name, v, p.Date, v), nil
		}
	}
	best, _, ok := x.latestPatch(v)
	if !ok {
		return fmt.Sprintf("I hold no patch releases of %s, so I can't tell whether %s exists; this answer is about %s.", v, name, v), nil
	}
	if err := x.unknownPatch(v, patch); err != nil {
		return "", err
	}
	if len(ps) == 0 {
		return fmt.Sprintf("%s is a patch release of %s: the newest I know is %s; this answer is about %s as a whole.", name, v, best.name(v, x.sources), v), nil
	}
	list := howPatchList
	if s := x.sources[ps[len(ps)-1].Source]; s.AsOf != "" {
		list += ", as of " + s.AsOf + ","
	}
	return fmt.Sprintf("%s is a patch release of %s: %s stops at %s, and the newest I know is %s; this answer is about %s as a whole.", name, v, list, ps[len(ps)-1], best.name(v, x.sources), v), nil
}

// unknownPatch is ENOTFOUND naming the newest patch of v any source names
// when patch release v.patch is newer than it; nil otherwise, also when no
// source names one.
func (x *releaseEvidence) unknownPatch(v knowledge.Version, patch int) error {
	best, _, ok := x.latestPatch(v)
	if !ok || patch <= best.number {
		return nil
	}
	return &knowledge.Error{Code: knowledge.ENOTFOUND, Message: fmt.Sprintf("I know no Kubernetes %s: the newest %s patch I know is %s.", patchName(v, patch), v, best.name(v, x.sources)),
		Suggestions: []string{v.String() + " patches", v.String()}}
}
