// Package engine answers questions about Kubernetes releases from what a
// knowledge.KnowledgeStore knows. It holds the Engine (New, its options,
// the catalog it builds and keeps, the search index), every answer the
// Engine gives (KEPs, releases, stages, notices, diffs, gates, SIGs, pull
// requests, API lifecycles, manifest scans, support dates, patches, and
// help from the root's command table), and the CachedAnswerer that keeps
// answers between questions.
//
// It imports knowledge (the root: the nouns and contracts, Question,
// Answer, Knowledge, KnowledgeStore, Version, ...), knowledge/internal/flat
// and knowledge/internal/prose; the root never imports it. Subscriptions are answered through the root's
// knowledge.SubscriptionAnswerer, so the engine does not depend on where
// they are kept.
package engine
