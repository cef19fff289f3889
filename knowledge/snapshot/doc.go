// Package snapshot is the compact set of facts built into the binary, so a
// fresh clone answers before anything is ingested. It holds numbers, stages,
// releases, dates, counts, SIGs, feature-gate names, KEP names, every
// release-note entry (its PR, kinds, KEP links) and the typed changes each
// states (knowledge.Effect: what, what happened, the replacement), and the
// feature gates each release's code declares (stage, default, lock, module,
// as runs of releases alike); the Go vulnerability database's records of
// Kubernetes modules (IDs, titles, modules, ranges, links; CC-BY-4.0,
// attributed by their Source); never a sentence of any document (Build
// strips them: a record's details too).
//
// Rebuild it from ../shared with `go generate ./knowledge/snapshot` (or
// `bot snapshot`); TestSnapshotIsCurrent fails when the committed file
// differs from a rebuild.
//
// It imports knowledge, knowledge/sources/relnotes. It may import the
// knowledge root and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package snapshot
