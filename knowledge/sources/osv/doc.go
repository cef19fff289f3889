// Package osv reads vulnerability records in the OSV format as the Go
// vulnerability database (vuln.go.dev) serves them: one record
// (ID/GO-YYYY-NNNN.json) as a knowledge.Vuln, a folder of them (the shared
// tree's data/cves, dated by its SOURCE.md), and the database's module
// index (index/modules.json), from which a refresh learns which records of
// Kubernetes-owned modules are new or modified.
//
// The few OSV types it decodes are its own (record.go): golang.org/x/vuln
// keeps its OSV types internal, and the OpenSSF's Go bindings are
// protobuf messages that leave the Go database's ecosystem_specific
// (import paths, custom_ranges) untyped. What the ranges mean (OSV's
// evaluation of introduced, fixed, last_affected and limit, and how
// module versions map to Kubernetes releases) is the knowledge root's
// (knowledge.VulnRange.Holds, knowledge.Vuln.Affects).
//
// The records are the Go vulnerability database's, under CC-BY-4.0: the
// Source every record carries names the database, so answers attribute it.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/fsreason, knowledge/sources/provenance. It may import
// the knowledge root and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package osv
