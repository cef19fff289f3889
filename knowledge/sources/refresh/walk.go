package refresh

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources"
)

// wanted reports whether the pass's Only lets src be asked.
func (p *pass) wanted(src source) bool {
	if len(p.opts.Only) == 0 {
		return true
	}
	group := src.format.Name // the name of its sources together, for one a release
	return slices.Contains(p.opts.Only, src.name) || (src.name != group && slices.Contains(p.opts.Only, group))
}

// wantsGroup reports whether the pass's Only lets some source of group
// (sources.NameAPILifecycle) be asked: the group, or one of its releases.
func (p *pass) wantsGroup(group string) bool {
	if len(p.opts.Only) == 0 {
		return true
	}
	for _, name := range p.opts.Only {
		if name == group || strings.HasPrefix(name, group+"/") {
			return true
		}
	}
	return false
}

// walk asks the registry's sources (sources.Formats): each format's one
// source, then the releases whose notes are known and the releases after
// them until two in a row have no notes published (see walkReleases),
// k8s.io/api's releases (see walkAPI), and last the code of each release
// after the newest whose feature gates are held (see walkGates). It fails
// only when the corpus the API sources are worked out from cannot be read.
func (p *pass) walk(ctx context.Context, srcs []knowledge.Source) error {
	var perRelease, perTag, gates []*sources.Format
	for i := range sources.Formats {
		f := &sources.Formats[i]
		switch {
		case f.Remote == nil:
		case f.Remote.Each == sources.EachOnce:
			p.ask(ctx, onceSource(p.r.cfg.URLs, f))
		case f.Remote.Each == sources.EachRelease:
			perRelease = append(perRelease, f)
		case f.Remote.Each == sources.EachAPITag:
			perTag = append(perTag, f)
		case f.Remote.Each == sources.EachGateTag:
			gates = append(gates, f)
		case f.Remote.Each == sources.EachVulnIndex:
			p.ask(ctx, vulnSource(p.r.cfg.URLs, f))
		}
	}
	p.walkReleases(ctx, srcs, perRelease)
	for _, f := range perTag {
		if err := p.walkAPI(ctx, f); err != nil {
			return err
		}
	}
	for _, f := range gates { // gates.go
		if err := p.walkGates(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// MaxAhead is how many releases past the newest the knowledge holds (its
// notes, its release cards, its lifecycle data) a pass may look for: a new
// release is found within a pass or two of its notes being published, and
// a failing or strange upstream is never walked without end.
const MaxAhead = 3

// walkReleases asks, for the releases whose notes are known, each of fs'
// sources; then it looks for the releases after them, up to MaxAhead past
// the newest release the knowledge holds: it stops when two in a row have
// no notes (the first of fs) published, when their host may not be asked
// or the pass is out of time, and at the first failure past what the
// knowledge holds.
func (p *pass) walkReleases(ctx context.Context, srcs []knowledge.Source, fs []*sources.Format) {
	if len(fs) == 0 {
		return
	}
	u := p.r.cfg.URLs
	read := map[string]bool{}
	for name, st := range p.states {
		read[name] = !st.Changed.IsZero() // a probe that failed or was not published is not known
	}
	known := knownNotes(srcs, read)
	for _, v := range known {
		for _, f := range fs {
			p.ask(ctx, releaseSource(u, f, v, false))
		}
	}
	next := FirstNotes
	if len(known) > 0 {
		next = known[len(known)-1].Next()
	}
	held := p.newestHeld(known)
	last := held
	for range MaxAhead {
		last = last.Next()
	}
	for missing := 0; missing < 2 && !last.Less(next); next = next.Next() {
		wanted := false
		for _, f := range fs {
			wanted = wanted || p.wanted(releaseSource(u, f, next, true))
		}
		if !wanted {
			return
		}
		o, asked := p.probe(ctx, releaseSource(u, fs[0], next, true))
		if !asked {
			return
		}
		for _, f := range fs[1:] {
			if _, asked := p.probe(ctx, releaseSource(u, f, next, true)); !asked {
				return
			}
		}
		switch o.Result {
		case ResultNotPublished:
			missing++
		case ResultUpdated, ResultNotModified:
			missing = 0
		default: // failed: the next pass looks again
			if held.Less(next) {
				return
			}
			missing = 0
		}
	}
}

// probe asks a release's source the knowledge does not know of yet, unless
// its host may not be asked or the pass is out of time: then it is not
// asked, nor reported (it is no source of the knowledge), and asked is
// false.
func (p *pass) probe(ctx context.Context, src source) (o Outcome, asked bool) {
	if !p.wanted(src) {
		return Outcome{Name: src.name}, true
	}
	if why, _, _ := p.barred(p.gate(src), p.r.cfg.Now()); why != "" || ctx.Err() != nil {
		return Outcome{}, false
	}
	return p.ask(ctx, src), true
}

// newestHeld is the newest release the knowledge holds: the newest of
// known (the releases whose notes it holds), its release cards and its
// lifecycle data; FirstNotes when it holds none.
func (p *pass) newestHeld(known []knowledge.Version) knowledge.Version {
	newest := FirstNotes
	if len(known) > 0 && newest.Less(known[len(known)-1]) {
		newest = known[len(known)-1]
	}
	if b, err := p.apiBase(p.ctx); err == nil && newest.Less(b.newest) {
		newest = b.newest
	}
	return newest
}

// walkAPI asks, for each release from FirstAPI whose latest patch the
// lifecycle data names (the knowledge's, with this pass's news of it), the
// tarball of k8s.io/api at that tag (1.30.14 is v0.30.14), oldest release
// first. A release whose tag the knowledge holds, or a later patch of it,
// is not asked for (a tag never changes): unless this source read that tag
// itself and keeps the server's validators, when a conditional request
// confirms it as for every source. Releases the lifecycle data does not
// name are left as they are, and so are the other API modules'
// (apiextensions-apiserver's CRD, kube-aggregator's APIService), which
// only `bot ingest` and the snapshot give.
func (p *pass) walkAPI(ctx context.Context, f *sources.Format) error {
	if !p.wantsGroup(f.Name) {
		return nil
	}
	c, err := p.apiBase(p.ctx)
	switch {
	case errors.Is(err, ErrNoCorpus):
		return nil // nothing could be applied; a pass with other news says why
	case err != nil:
		return err
	}
	lcs := c.lifecycles
	if got := p.parts[sources.NameLifecycle]; got != nil {
		lcs = append(slices.Clone(lcs), got.corpus.Lifecycles...)
	}
	held := heldAPI(c.sources)
	p.apiTypes = c.types
	for _, t := range latestAPITags(lcs) {
		src := apiSource(p.r.cfg.URLs, f, t.release, t.String())
		if !p.wanted(src) {
			continue
		}
		if h, ok := held[t.release]; ok && h.tag.covers(t) && !p.validated(src) {
			p.skipHeld(src, h.id)
			continue
		}
		p.ask(ctx, src)
	}
	return nil
}

// apiBase returns what walkAPI needs of the stored corpus: read once per
// knowledge generation and kept by the Refresher.
func (p *pass) apiBase(ctx context.Context) (*apiBase, error) {
	gen, err := p.r.cfg.Store.Generation(ctx)
	if err != nil {
		return nil, err
	}
	if b := p.r.api; b != nil && b.generation == gen {
		return b, nil
	}
	c, err := p.base(ctx)
	if err != nil {
		return nil, err
	}
	b := &apiBase{generation: gen, lifecycles: c.Lifecycles, sources: c.Sources, types: c.APITypes, newest: newestOf(c)}
	p.r.api = b
	return b, nil
}

// validated reports whether src's state holds the validators of what src
// itself gave the knowledge, which still holds it: a conditional request
// can then confirm it cheaply.
func (p *pass) validated(src source) bool {
	st := p.states[src.name]
	return st.URL == src.shown() && (st.ETag != "" || st.LastModified != "") && len(st.IDs) > 0 && p.holds(st)
}

// skipHeld records src as not asked: the knowledge holds id, its tag or a
// later patch of its release. Its state is cleared of any failure (what
// it would give is held), and of validators of another URL.
func (p *pass) skipHeld(src source, id string) {
	now := p.r.cfg.Now()
	st := p.states[src.name]
	if st.URL != src.shown() {
		st.ETag, st.LastModified, st.IDs = "", "", nil
	}
	st.URL, st.Checked, st.Succeeded = src.shown(), now, now
	st.Result, st.Error, st.Failures, st.FailingSince, st.RetryAt = ResultNotModified, "", 0, time.Time{}, time.Time{}
	p.states[src.name] = st
	p.report.Outcomes = append(p.report.Outcomes, Outcome{Name: src.name, URL: src.shown(), Result: ResultNotModified,
		Detail: fmt.Sprintf("the knowledge holds %s, and a tag never changes: not asked", id)})
}

// newestOf is the newest Kubernetes release c holds a release card or
// lifecycle data of; zero when none.
func newestOf(c *knowledge.Corpus) knowledge.Version {
	var newest knowledge.Version
	for _, r := range c.Releases {
		if r.Version.Major == 1 && newest.Less(r.Version) {
			newest = r.Version
		}
	}
	for _, l := range c.Lifecycles {
		if l.Release.Major == 1 && newest.Less(l.Release) {
			newest = l.Release
		}
	}
	return newest
}
