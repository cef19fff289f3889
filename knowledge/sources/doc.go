// Package sources is the registry of kepbot's upstream formats. Formats
// lists each format once: the folder of the shared tree that holds it
// (`bot snapshot` reads those), how `bot ingest` tells its folders and
// files, how refresh asks for it (Remote: its URL setting and default,
// one source or one per release, per k8s.io/api tag or per new release tag
// on the module proxy, or a vulnerability database's index and its
// records), and how its bytes
// become a knowledge.Corpus part. ingest, refresh and snapshot range over
// Formats and name none of them, so adding a source is a parser package
// below this one and one entry here.
//
// The packages below it are the parsers, one per upstream format
// (kepyaml, relnotes, lifecycle, apilifecycle, featuregates, osv,
// releasenote, website, with markdown and provenance), and the intake path
// (fetch, archive, safetar, ingest, refresh).
//
// It imports knowledge, knowledge/sources/apilifecycle,
// knowledge/sources/archive, knowledge/sources/featuregates,
// knowledge/sources/kepyaml, knowledge/sources/lifecycle,
// knowledge/sources/osv, knowledge/sources/provenance,
// knowledge/sources/releasenote, knowledge/sources/relnotes,
// knowledge/sources/website. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package sources
