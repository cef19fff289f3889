// Package lifecycle reads the release lifecycle of Kubernetes as
// endoflife.date records it:
//
//   - products/kubernetes.md of endoflife-date/endoflife.date, whose YAML
//     front matter lists each minor release with its release day, end of
//     standard support (eoas), end of life (eol) and latest patch, into
//     knowledge.Lifecycle values;
//   - releases/kubernetes.json of endoflife-date/release-data, every
//     tagged release 1.x.y with its day, into knowledge.Patch values.
//
// The functions take bytes or an fs.FS and return values; none writes to
// a store. A source's as-of date is the one the caller passes in (read
// from a SOURCE.md by knowledge/provenance), never the clock.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/lazyre, knowledge/sources/provenance. It may import
// the knowledge root and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package lifecycle
