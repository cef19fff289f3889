// Package admin is serve's admin endpoint and `bot sync`'s client of it.
//
// While `bot serve` runs it holds the database (bbolt lets one process
// have the file), so `bot sync` asks it to refresh instead: serve writes
// <db>.admin (mode 0600, beside the database, which only its owner may
// read) with the URL of POST /admin/refresh on its own HTTP listener and
// a random token made at start; `bot sync` reads it, posts with the token
// as a bearer token, and prints the pass's report. The endpoint answers
// only requests from this machine (a loopback address) that carry the
// token, and the file goes when serve stops.
//
// It may import the standard library, zerolog, and of this module
// knowledge/sources/refresh (the pass it runs and the report it answers)
// and knowledge/sources/fetch (what counts as this machine); it knows
// nothing of flags, config or the command line's exit codes.
//
// It imports knowledge/sources/fetch, knowledge/sources/refresh.
package admin
