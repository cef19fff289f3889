// Package archive reads a kubernetes/enhancements .tar.gz as it streams:
// every keps/**/kep.yaml handed to kepyaml, the commit and its date read
// from what the archive says of itself. It is the fetcher's side of kep.yaml
// (parsers under knowledge/ take bytes); refresh and ingest both use it.
//
// It imports knowledge/sources/kepyaml, knowledge/sources/provenance,
// knowledge/sources/safetar. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package archive
