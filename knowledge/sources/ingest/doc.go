// Package ingest reads source documents from files and folders, hands each to
// the parser that fits it, and gathers one Corpus. A file that cannot be read
// becomes a Warning naming it; the others are still read.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/fsreason, knowledge/sources/apilifecycle,
// knowledge/sources/archive, knowledge/sources/kepyaml,
// knowledge/sources/lifecycle, knowledge/sources/provenance,
// knowledge/sources/releasenote, knowledge/sources/relnotes,
// knowledge/sources/website. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package ingest
