// Package ingest reads source documents from files and folders, hands each to
// the format of the registry (sources.Formats) that takes it, and gathers
// one Corpus. A file that cannot be read becomes a Warning naming it; the
// others are still read. It names no format: what a folder, an archive or
// a file is, and how it is read, is the registry's.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/fsreason, knowledge/sources,
// knowledge/sources/kepyaml, knowledge/sources/provenance,
// knowledge/sources/relnotes. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package ingest
