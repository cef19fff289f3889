// Package refresh keeps kepbot's knowledge current: it asks every format of
// the registry (sources.Formats) that has a Remote for news
// (kubernetes/enhancements' kep.yaml tarball, each release's notes as data
// and page from kubernetes/sig-release, endoflife.date's lifecycle and
// patch list, k8s.io/api's tarball at the latest patch of each release
// from 1.19 for its API lifecycle markers, the Go module proxy's zips of
// k8s.io/kubernetes and k8s.io/client-go at each release after the newest
// whose feature gates are known, and the Go vulnerability database's
// module index and then only the records of Kubernetes-owned modules it
// lists as new or modified: vulns.go), one at a time with a conditional
// request, checks what comes, and applies it in one bbolt transaction.
//
// Each source swaps its own part of the stored corpus, by source ID, but
// the API types: they are merged across releases (one per
// group/version/kind), so a release of k8s.io/api read is merged into them
// (apilifecycle.MergeInto), replacing another patch of its release. A tag
// the knowledge already holds, or a later patch, is not downloaded: when
// this refresher read the tag itself, a conditional request (answered 304)
// confirms it; else it is not asked for at all. The other API modules (apiextensions-apiserver's CustomResourceDefinition,
// kube-aggregator's APIService) are not refreshed: `bot ingest` and the
// built-in snapshot give them.
//
// Every upstream is asked with restraint, whatever the format (each
// source of every format goes through one ask): a walk never goes further
// than the releases the knowledge holds and MaxAhead past them; a source
// that fails with a server or network error is asked again up to
// MaxAttempts times with a doubling, jittered wait; a host (a URL's host
// and port) on which CircuitAfter sources in a row failed is not asked for
// the rest of the pass, nor before a backoff that doubles with each time it
// fails again (then one request decides); a host that answered 429, a
// Retry-After or GitHub's spent rate limit is not asked before the time it
// gave, by any pass, `bot sync` included. Hosts' states are kept with the
// sources' (HostState). A pass may be given a budget (Options.Budget):
// what is left when it runs out is reported as not asked. Every source a
// pass could not reach is in its report with why, and in its metrics.
//
// `bot sync` runs one pass; `bot serve` runs passes on a schedule (see
// Loop). A pass never blocks answers: the knowledge is replaced in one
// write transaction, and whoever serves answers swaps its catalog after
// (Config.Apply). A source that fails leaves its part of the knowledge as
// it was; the others still update. Every source's state (ETag,
// Last-Modified, failures, when to ask again) is kept in the store with the
// knowledge.
//
// Which sources there are, where they live by default and how their bytes
// are read is the registry's; refresh names none but by the registry's
// names (sources.NameKEPYAML, NotesName). The parsers take bytes or a
// stream; the tarballs' entries are read safely (no links, no absolute or
// climbing names, bounded sizes) by archive and safetar as they stream.
//
// It imports knowledge, knowledge/internal/capped, knowledge/snapshot,
// knowledge/sources, knowledge/sources/apilifecycle,
// knowledge/sources/archive, knowledge/sources/featuregates,
// knowledge/sources/fetch, knowledge/sources/kepyaml,
// knowledge/sources/osv, knowledge/sources/provenance,
// knowledge/sources/relnotes, store.
package refresh
