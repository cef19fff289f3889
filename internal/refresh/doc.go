// Package refresh keeps kepbot's knowledge current: one registry of every
// source it reads from the network (kubernetes/enhancements' kep.yaml
// tarball, each release's notes as data and page from kubernetes/sig-release,
// endoflife.date's lifecycle and patch list), asked one at a time with a
// conditional request, checked, and applied in one bbolt transaction.
//
// `bot sync` runs one pass; `bot serve` runs passes on a schedule (see
// Loop). A pass never blocks answers: the knowledge is replaced in one
// write transaction, and whoever serves answers swaps its catalog after
// (Config.Apply). A source that fails leaves its part of the knowledge as
// it was; the others still update. Every source's state (ETag,
// Last-Modified, failures, when to ask again) is kept in the store with the
// knowledge.
//
// The parsers live under knowledge/ and take bytes; reading the tarball's
// entries (safely: no links, no absolute or climbing names, bounded sizes)
// is done here, with the fetcher.
package refresh
