// Package etcdstore keeps the state kepbot's replicas share in etcd:
// subscriptions, the notice ledger, the digest outbox and its schedule
// runs, the sources' refresh states, and the knowledge generation with the
// corpus it was compiled from. It implements store.Shared, the same
// contract as the bbolt file (package store/storetest runs against both).
//
// Every change is one etcd transaction that compares what it read (the
// revision of each key it rewrites), so concurrent writers on other
// replicas never overwrite each other; a losing writer reads again. A
// Store made with Fenced also compares the leader's election key, so that
// a replica that lost leadership cannot move a delivery, record a
// schedule run or publish knowledge.
//
// When etcd cannot be reached, methods fail within RequestTimeout with an
// error that is ErrUnavailable, whose message a user may read; nothing is
// half-written.
//
// It imports knowledge, knowledge/digest, store. It may import anything in
// the module but cmd (internal/importrules enforces it).
package etcdstore
