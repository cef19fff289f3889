// Package store keeps kepbot's state in one bbolt file and implements the
// knowledge package's store interfaces over it: KnowledgeStore now, the
// subscriptions and outbox stores later, each in its own buckets.
//
// Only one process may have the file open. Open waits Options.Timeout for
// the file lock and then fails with a message that says what to do.
//
// It imports knowledge, knowledge/digest. It may import anything in the
// module but cmd (internal/importrules enforces it).
package store
