package knowledge

import (
	"path"
	"strings"
)

// Without returns a copy of c without what the sources with the given IDs
// gave it: those sources, and every KEP, mention, notice, release-note
// entry, lifecycle, patch and skip they are the source of; a release
// announcement goes when every one of its sources does. What other sources
// gave is kept as it is, so a refresh can swap one source's part.
//
// The API types are merged across the releases of the API modules, one
// per group/version/kind, so they are no single source's part: they are
// kept whole while any release of an API module stays, and go with the
// last (a refresher that brings a release merges it into them). The API
// claims go with the documents that made them.
//
// A skip with no Source (written by an older kepbot) goes with a kep.yaml
// source when its path is a kep.yaml one.
func (c *Corpus) Without(ids ...string) *Corpus {
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	kepYAML := false
	out := &Corpus{}
	for _, s := range c.Sources {
		if gone[s.ID] {
			kepYAML = kepYAML || s.Kind == SourceKEPYAML
			continue
		}
		out.Sources = append(out.Sources, s)
	}
	for _, r := range c.Releases {
		kept := r.Sources[:0:0]
		for _, id := range r.Sources {
			if !gone[id] {
				kept = append(kept, id)
			}
		}
		if len(kept) > 0 || len(r.Sources) == 0 {
			r.Sources = kept
			out.Releases = append(out.Releases, r)
		}
	}
	out.KEPs = keep(c.KEPs, func(k KEP) string { return k.Source }, gone)
	out.Mentions = keep(c.Mentions, func(m Mention) string { return m.Source }, gone)
	out.Notices = keep(c.Notices, func(n Notice) string { return n.Source }, gone)
	out.Changes = keep(c.Changes, func(ch Change) string { return ch.Source }, gone)
	out.Lifecycles = keep(c.Lifecycles, func(l Lifecycle) string { return l.Source }, gone)
	out.Patches = keep(c.Patches, func(p Patch) string { return p.Source }, gone)
	out.APIClaims = keep(c.APIClaims, func(cl APIClaim) string { return cl.Source }, gone)
	for _, s := range out.Sources {
		if s.Kind == SourceAPILifecycle {
			out.APITypes = append([]APIType(nil), c.APITypes...)
			break
		}
	}
	for _, sk := range c.Skipped {
		switch {
		case sk.Source != "" && gone[sk.Source]:
		case sk.Source == "" && kepYAML && isKEPYAMLPath(sk.Path):
		default:
			out.Skipped = append(out.Skipped, sk)
		}
	}
	return out
}

// keep returns the values of vs whose source is not gone.
func keep[T any](vs []T, source func(T) string, gone map[string]bool) []T {
	var out []T
	for _, v := range vs {
		if !gone[source(v)] {
			out = append(out, v)
		}
	}
	return out
}

// isKEPYAMLPath reports whether p names a kep.yaml or a path under keps/.
func isKEPYAMLPath(p string) bool {
	p = strings.ReplaceAll(p, "\\", "/")
	return path.Base(p) == "kep.yaml" || strings.HasPrefix(p, "keps/")
}

// SourceIDs returns the IDs of c's sources, in order.
func (c *Corpus) SourceIDs() []string {
	out := make([]string, 0, len(c.Sources))
	for _, s := range c.Sources {
		out = append(out, s.ID)
	}
	return out
}
