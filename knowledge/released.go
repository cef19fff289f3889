package knowledge

// ReleasedThrough returns the newest release the corpus says is out. A
// release is out when a source says so as a fact of its own: support
// dates with a release day (endoflife.date), a patch release, a release
// of the API modules read (k8s.io/api is tagged from released branches),
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
