package main

import (
	"context"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/refresh"
	"github.com/kepbot/kepbot/store"
	"github.com/kepbot/kepbot/store/etcdstore"
)

// refreshStore is the refresher's store of bot sync and of a cluster's
// leader. The knowledge the answers come from is local: kb, the database
// serve holds, or without it (bot sync) the database at path, opened for
// each call and closed again, so a sync holds the file only while it
// reads or writes, never during a download. On a leader, shared (the
// etcd store through the leader's fence) keeps the corpus the refresher
// builds on, the source states and the generation, and replacing the
// knowledge is publish: publishing it there, then applying it locally.
type refreshStore struct {
	kb     *store.KnowledgeStore
	path   string // without kb
	shared *etcdstore.Store
	// publish, with shared, publishes k with states and applies it locally.
	publish func(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error
}

var _ refresh.Store = refreshStore{}

// lazyStore is bot sync's store: the database at path, opened for each call.
func lazyStore(path string) refreshStore { return refreshStore{path: path} }

func (s refreshStore) LoadCorpus(ctx context.Context) (*knowledge.Corpus, error) {
	if s.shared != nil {
		c, _, err := s.shared.LoadCorpus(ctx)
		return c, err
	}
	return local(ctx, s, func(kb *store.KnowledgeStore) (*knowledge.Corpus, error) { return kb.LoadCorpus(ctx) })
}

func (s refreshStore) IsEmpty(ctx context.Context) (bool, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) (bool, error) { return kb.IsEmpty(ctx) })
}

func (s refreshStore) ListSources(ctx context.Context) ([]knowledge.Source, error) {
	return local(ctx, s, func(kb *store.KnowledgeStore) ([]knowledge.Source, error) { return kb.ListSources(ctx) })
}

func (s refreshStore) SourceStates(ctx context.Context) (map[string]store.SourceState, error) {
	if s.shared != nil {
		return s.shared.SourceStates(ctx)
	}
	return local(ctx, s, func(kb *store.KnowledgeStore) (map[string]store.SourceState, error) { return kb.SourceStates(ctx) })
}

func (s refreshStore) SaveSourceStates(ctx context.Context, states map[string]store.SourceState) error {
	if s.shared != nil {
		return s.shared.SaveSourceStates(ctx, states)
	}
	_, err := local(ctx, s, func(kb *store.KnowledgeStore) (struct{}, error) {
		return struct{}{}, kb.SaveSourceStates(ctx, states)
	})
	return err
}

func (s refreshStore) ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error {
	if s.shared != nil {
		return s.publish(ctx, k, states)
	}
	_, err := local(ctx, s, func(kb *store.KnowledgeStore) (struct{}, error) {
		return struct{}{}, kb.ReplaceWithSources(ctx, k, states)
	})
	return err
}

func (s refreshStore) Generation(ctx context.Context) (uint64, error) {
	if s.shared != nil {
		return s.shared.Generation(ctx)
	}
	return local(ctx, s, func(kb *store.KnowledgeStore) (uint64, error) { return kb.Generation(ctx) })
}

// local runs fn on the local knowledge: kb, or the database at path,
// opened for this step alone and closed again.
func local[T any](ctx context.Context, s refreshStore, fn func(*store.KnowledgeStore) (T, error)) (T, error) {
	if s.kb != nil {
		return fn(s.kb)
	}
	var zero T
	db, err := store.Open(s.path, store.Options{Timeout: lockTimeout})
	if err != nil {
		return zero, err
	}
	out, err := fn(db.Knowledge())
	if cerr := db.Close(); err == nil && cerr != nil {
		return zero, cerr
	}
	return out, err
}
