// Package kastest starts a real kube-apiserver for tests: built once from
// the Go module proxy by ../shared/tools/kube-apiserver.sh (which caches
// the binary under $XDG_CACHE_HOME/kepbot-tools, ~/.cache by default) and
// run against an etcd embedded in the test (internal/etcdtest), with a
// bearer token in group system:masters. What bot scan --cluster's tests
// read from, and what the deploy manifests are applied to (dry run) under
// Pod Security admission.
//
// It imports internal/etcdtest, internal/sharedtest. Like all of internal/,
// it may import only other internal/ packages (internal/importrules enforces
// it).
package kastest
