package etcdstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/store"
)

// The shared knowledge in etcd, under the prefix:
//
//	sources                          JSON map[name]store.SourceState
//	knowledge/generation             JSON Generation: the current one
//	knowledge/corpus/GEN/CHUNK       the corpus of GEN (store.EncodeCorpus), in chunks
//
// The leader publishes a generation by writing its chunks first, then one
// transaction that moves knowledge/generation (comparing the one it read,
// and its fence) and the source states together. Every replica watches
// knowledge/generation, reads the chunks and compiles its own local copy.
// Chunks of generations older than the previous one are deleted.

// DefaultChunkBytes is the size of one corpus chunk: etcd refuses
// requests over 1.5 MiB by default (--max-request-bytes).
const DefaultChunkBytes = 1 << 20

// Generation describes one published knowledge generation.
type Generation struct {
	Number    uint64    `json:"generation"`
	Chunks    int       `json:"chunks"`
	Bytes     int       `json:"bytes"`
	SHA256    string    `json:"sha256"` // of the encoded corpus
	Published time.Time `json:"published"`
}

// SourceStates returns what the refresher recorded of every source; an
// empty map before the first refresh.
func (s *Store) SourceStates(ctx context.Context) (map[string]store.SourceState, error) {
	out := map[string]store.SourceState{}
	raw, _, err := s.get(ctx, "read source states", s.kSources())
	if err != nil || raw == nil {
		return out, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("source states are damaged: %w", err)
	}
	return out, nil
}

// SaveSourceStates records states alone (fenced). It fails when a state's
// URL carries user info, a query or a fragment.
func (s *Store) SaveSourceStates(ctx context.Context, states map[string]store.SourceState) error {
	if err := store.ValidateSourceStates(states); err != nil {
		return fmt.Errorf("save source states: %w", err)
	}
	resp, err := s.txn(ctx, "save source states", true, nil, []clientv3.Op{putJSON(s.kSources(), states)})
	if err == nil && !resp.Succeeded {
		err = ErrNotLeader
	}
	return err
}

// Generation returns the current knowledge generation; 0 before the first
// publication.
func (s *Store) Generation(ctx context.Context) (uint64, error) {
	g, _, err := s.generation(ctx)
	return g.Number, err
}

func (s *Store) generation(ctx context.Context) (Generation, int64, error) {
	var g Generation
	raw, rev, err := s.get(ctx, "read the knowledge generation", s.kGeneration())
	if err != nil || raw == nil {
		return g, rev, err
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return g, 0, fmt.Errorf("the knowledge generation is damaged: %w", err)
	}
	return g, rev, nil
}

// ReplaceWithSources publishes k's corpus as the next generation with
// states, for every replica to load (fenced: only the leader publishes).
// The local knowledge is the caller's to replace. It fails when k has no
// corpus (there would be nothing to share), and leaves the current
// generation as it was on any failure.
func (s *Store) ReplaceWithSources(ctx context.Context, k *knowledge.Knowledge, states map[string]store.SourceState) error {
	if k == nil || k.Corpus == nil {
		return errors.New("publish knowledge: replicas rebuild the knowledge from its corpus, and this one has none")
	}
	raw, err := store.EncodeCorpus(k.Corpus)
	if err != nil {
		return fmt.Errorf("publish knowledge: %w", err)
	}
	_, err = s.Publish(ctx, raw, states)
	return err
}

// Publish writes an encoded corpus as the next generation, with states
// (nil keeps the stored ones), and returns it. It refuses states that
// store.ValidateSourceStates refuses (a URL that could carry a secret),
// whoever publishes.
func (s *Store) Publish(ctx context.Context, corpus []byte, states map[string]store.SourceState) (Generation, error) {
	if err := store.ValidateSourceStates(states); err != nil {
		return Generation{}, fmt.Errorf("publish knowledge: %w", err)
	}
	cur, rev, err := s.generation(ctx)
	if err != nil {
		return Generation{}, fmt.Errorf("publish knowledge: %w", err)
	}
	sum := sha256.Sum256(corpus)
	next := Generation{Number: cur.Number + 1, Bytes: len(corpus), SHA256: hex.EncodeToString(sum[:]), Published: time.Now().UTC()}
	dir := s.kCorpusGen(next.Number)
	for off := 0; off < len(corpus) || next.Chunks == 0; off += s.chunk {
		chunk := corpus[off:min(len(corpus), off+s.chunk)]
		cctx, cancel := s.ctx(ctx)
		_, err := s.c.Put(cctx, fmt.Sprintf("%s%06d", dir, next.Chunks), string(chunk))
		cancel()
		if err != nil {
			s.dropGeneration(next.Number)
			return Generation{}, fail(ctx, "publish knowledge", err)
		}
		next.Chunks++
	}
	ops := []clientv3.Op{putJSON(s.kGeneration(), next)}
	if states != nil {
		ops = append(ops, putJSON(s.kSources(), states))
	}
	resp, err := s.txn(ctx, "publish knowledge", true, []clientv3.Cmp{unchanged(s.kGeneration(), rev)}, ops)
	if err == nil && !resp.Succeeded {
		err = fmt.Errorf("publish knowledge: generation %d moved on while this one was written", cur.Number)
	}
	if err != nil {
		s.dropGeneration(next.Number)
		return Generation{}, err
	}
	if cur.Number > 0 { // keep the previous generation for readers in the middle of it
		gctx, cancel := s.ctx(context.WithoutCancel(ctx))
		_, _ = s.c.Delete(gctx, s.prefix+"knowledge/corpus/", clientv3.WithRange(s.kCorpusGen(cur.Number)))
		cancel()
	}
	return next, nil
}

// dropGeneration deletes the chunks of a generation that was not published.
func (s *Store) dropGeneration(n uint64) {
	ctx, cancel := s.ctx(context.Background())
	defer cancel()
	_, _ = s.c.Delete(ctx, s.kCorpusGen(n), clientv3.WithPrefix())
}

// LoadCorpus reads the current generation's corpus. It fails with
// ENOTFOUND before the first publication.
func (s *Store) LoadCorpus(ctx context.Context) (*knowledge.Corpus, Generation, error) {
	for range 3 { // a newer generation may be published while reading
		rctx, cancel := s.ctx(ctx)
		resp, err := s.c.Get(rctx, s.kGeneration())
		cancel()
		if err != nil {
			return nil, Generation{}, fail(ctx, "read the knowledge generation", err)
		}
		if len(resp.Kvs) == 0 {
			return nil, Generation{}, knowledge.Errorf(knowledge.ENOTFOUND, "No knowledge has been published to the shared store yet.")
		}
		var g Generation
		if err := json.Unmarshal(resp.Kvs[0].Value, &g); err != nil {
			return nil, Generation{}, fmt.Errorf("the knowledge generation is damaged: %w", err)
		}
		rctx, cancel = s.ctx(ctx)
		chunks, err := s.c.Get(rctx, s.kCorpusGen(g.Number), clientv3.WithPrefix(),
			clientv3.WithRev(resp.Header.Revision), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
		cancel()
		if err != nil {
			if ctx.Err() == nil && errors.Is(err, errCompacted) {
				continue
			}
			return nil, Generation{}, fail(ctx, "read the knowledge", err)
		}
		var buf bytes.Buffer
		for _, kv := range chunks.Kvs {
			buf.Write(kv.Value)
		}
		sum := sha256.Sum256(buf.Bytes())
		if len(chunks.Kvs) != g.Chunks || hex.EncodeToString(sum[:]) != g.SHA256 {
			return nil, g, fmt.Errorf("the knowledge of generation %d is incomplete or damaged (%d of %d chunks)", g.Number, len(chunks.Kvs), g.Chunks)
		}
		c, err := store.DecodeCorpus(buf.Bytes())
		if err != nil {
			return nil, g, fmt.Errorf("the knowledge of generation %d: %w", g.Number, err)
		}
		return c, g, nil
	}
	return nil, Generation{}, fmt.Errorf("read the knowledge: %w", errConflict)
}

// WatchGeneration sends the current generation, then every later one, on
// the returned channel until ctx ends (it closes then). Through a lost
// connection it keeps trying, and resumes from where it was.
func (s *Store) WatchGeneration(ctx context.Context) <-chan Generation {
	out := make(chan Generation, 1)
	go func() {
		defer close(out)
		var last uint64
		send := func(g Generation) {
			if g.Number == 0 || g.Number == last {
				return
			}
			last = g.Number
			select { // the newest wins: a slow reader skips ahead
			case <-out:
			default:
			}
			out <- g
		}
		for ctx.Err() == nil {
			rctx, cancel := s.ctx(ctx)
			resp, err := s.c.Get(rctx, s.kGeneration())
			cancel()
			if err != nil {
				sleep(ctx, time.Second)
				continue
			}
			if len(resp.Kvs) > 0 {
				var g Generation
				if json.Unmarshal(resp.Kvs[0].Value, &g) == nil {
					send(g)
				}
			}
			wch := s.c.Watch(clientv3.WithRequireLeader(ctx), s.kGeneration(), clientv3.WithRev(resp.Header.Revision+1))
			for wr := range wch {
				if wr.Err() != nil {
					break
				}
				for _, ev := range wr.Events {
					var g Generation
					if ev.Type == clientv3.EventTypePut && json.Unmarshal(ev.Kv.Value, &g) == nil {
						send(g)
					}
				}
			}
			sleep(ctx, 200*time.Millisecond)
		}
	}()
	return out
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// errCompacted is etcd's answer to a read at a revision it compacted away.
var errCompacted = rpctypes.ErrCompacted
