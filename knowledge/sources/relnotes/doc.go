// Package relnotes reads kubernetes/sig-release's record of each release:
//
//   - releases/release-1.N/release-notes/release-notes-draft.json, the
//     release notes as data (one object per pull request, keyed by PR
//     number), into one knowledge.Change per pull request, each with the
//     typed changes its words state (see Effects) and classed by them as
//     a deprecation, a removal, an upgrade note or none (see Classify);
//   - releases/release-1.N/README.md, the release page, into a
//     knowledge.Release with the release day and the release's name.
//
// Every function takes bytes or an fs.FS and returns values; none writes
// to a store. A source's as-of date is the one the caller passes in (read
// from a SOURCE.md by knowledge/provenance), never the clock.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/lazyre, knowledge/sources/provenance. It may import
// the knowledge root and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package relnotes
