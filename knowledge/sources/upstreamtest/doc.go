// Package upstreamtest is a fake of every source kepbot refreshes from,
// for tests: kubernetes/enhancements' tarball, sig-release's releases
// folder, endoflife.date's files, kubernetes/api's tarballs per tag and
// the Go vulnerability database's HTTP API (its module index and records,
// each given a real modified time: vulndb.go), served over plain http on
// 127.0.0.1 from ../shared as the real sources lay it out, with ETags; and
// the ways an upstream fails (Status, TooManyRequests, RateLimited, Reset,
// Hang), on one path or on every path at once (FaultAll), with the
// requests counted. Nothing from ../shared is copied into the
// repository: it is read (and packed) at test time.
//
// It imports internal/sharedtest, knowledge, knowledge/sources/lifecycle,
// knowledge/sources/provenance. It lives beside the sources it
// fakes, not in internal/, because it speaks their types; it may import
// anything in the module but cmd (internal/importrules enforces it).
package upstreamtest
