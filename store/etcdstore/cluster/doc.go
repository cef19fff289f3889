// Package cluster elects, among kepbot's replicas sharing one etcd, the
// one that refreshes the knowledge and sends digests: an etcd
// concurrency election over a lease. The leader's Term carries the fence
// (its election key and revision) that etcdstore compares on every write
// only the leader may make, and the time until which its lease is known to
// hold, which bounds every post it starts (see GuardPoster): a replica
// that cannot renew its lease stops posting before another can be elected.
// Replica runs one replica's loop: syncing the shared knowledge, the
// election, and the leader's term (seeding, refreshing, sending digests
// with the post guard and the posts in doubt).
//
// It imports knowledge, knowledge/digest, knowledge/digest/delivery, store,
// store/etcdstore. It may import anything in the module but cmd
// (internal/importrules enforces it).
package cluster
