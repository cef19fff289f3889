// Package storetest is the contract of store.Shared: one suite that runs
// against every implementation (the bbolt file, etcd), so that kepbot
// behaves the same with one process or several replicas. The store
// package's tests run it over bbolt, the etcdstore package's over a real
// embedded etcd. SnapshotDB is a bbolt file holding the built-in
// snapshot, for the tests of what runs over one.
//
// It imports knowledge, knowledge/digest, knowledge/snapshot, store. It may import anything in
// the module but cmd (internal/importrules enforces it).
package storetest
