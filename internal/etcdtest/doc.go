// Package etcdtest starts a real etcd server inside the calling process
// (go.etcd.io/etcd/server/v3/embed) on loopback ports and a temporary
// folder: what the etcd store's tests, the replica chaos tests and the
// local trial command (devetcd) run against. No etcd binary or external
// process is needed.
//
// It imports no package of the module. Like all of internal/, it may import
// only other internal/ packages (internal/importrules enforces it).
package etcdtest
