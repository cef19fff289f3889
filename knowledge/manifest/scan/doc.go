// Package scan is `bot scan` without its flags: it reads the inputs
// (files, folders read recursively for .yaml, .yml and .json, - for
// stdin) with package manifest, checks the objects against the
// knowledge's API table (or the objects a Request.Read gives, a live
// cluster's), and writes the report as text, JSON or SARIF 2.1.0, with
// the exit code it calls for as a value (ExitCode; every exit code of bot
// scan and its meaning is in ExitCodes, for the help and docs/scan.md).
//
// It may import the standard library, package knowledge and
// knowledge/manifest; it opens no database (the caller hands it the
// knowledge) and knows nothing of flags or of the command line's other
// exit codes.
//
// It imports knowledge, knowledge/internal/fsreason, knowledge/manifest.
package scan
