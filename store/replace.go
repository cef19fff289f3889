package store

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/kepbot/kepbot/knowledge"
)

// ctxCheckEvery is how many values ReplaceKnowledge writes between looks
// at its context.
const ctxCheckEvery = 64

// ReplaceKnowledge swaps everything known for k in one transaction: it
// drops the knowledge buckets, writes k into new ones (with the feature
// gate index built from its KEPs, and k.Corpus when it is not nil) and
// records the time, counts and sources of the replace in meta, and bumps
// the generation. Readers see the old knowledge or the new, never a mix.
// The source states are kept as they are; ReplaceWithSources replaces them
// too.
//
// It fails, leaving the database exactly as it was, when ctx is done before
// the commit, when k gives a KEP number or release version twice, when a
// number, version, stage or notice kind cannot be a key (negative, or too
// large), when a feature gate name is over 1 KiB, or when bbolt cannot write.
func (s *KnowledgeStore) ReplaceKnowledge(ctx context.Context, k *knowledge.Knowledge) error {
	return s.replace(ctx, k, nil)
}

// replace is ReplaceKnowledge, recording states in the same transaction
// when they are not nil.
func (s *KnowledgeStore) replace(ctx context.Context, k *knowledge.Knowledge, states map[string]SourceState) error {
	if k == nil {
		return errors.New("replace knowledge: no knowledge given")
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	apis, err := encodeAPIs(k)
	if err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	fgates, err := encodeFeatureGates(k)
	if err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	vulns, err := encodeVulns(k.Vulns)
	if err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	var corpus []byte
	if k.Corpus != nil {
		var err error
		if corpus, err = encodeCorpus(k.Corpus); err != nil { // outside the write lock
			return fmt.Errorf("replace knowledge: %w", err)
		}
	}
	sum := replaceSummary{At: s.now().UTC(), Stats: k.Stats()}
	for _, src := range k.Sources {
		sum.Sources = append(sum.Sources, src.ID)
	}
	err = s.db.bolt.Update(func(tx *bolt.Tx) error {
		w := &writer{ctx: ctx, tx: tx}
		if err := w.knowledge(k, corpus, apis, fgates, vulns); err != nil {
			return err
		}
		if err := putReplaceSummary(tx, sum); err != nil {
			return err
		}
		if states != nil {
			if err := putSourceStates(tx, states); err != nil {
				return err
			}
		}
		if err := bumpGeneration(tx); err != nil {
			return err
		}
		return ctx.Err() // the last chance not to commit
	})
	if err != nil {
		return fmt.Errorf("replace knowledge: %w", err)
	}
	return nil
}

// writer puts one Knowledge into fresh buckets of tx.
type writer struct {
	ctx context.Context
	tx  *bolt.Tx
	n   int // values written, for ctx checks
	// arena holds every encoded value: bbolt needs a value to stay put
	// until the transaction ends, so nothing in it is ever overwritten.
	arena []byte
}

// knowledge writes k, its encoded API table, feature gates and
// vulnerability records, and corpus (an encoded Corpus) unless it is nil.
func (w *writer) knowledge(k *knowledge.Knowledge, corpus, apis, fgates, vulns []byte) error {
	buckets := make(map[string]*bolt.Bucket, len(knowledgeBuckets))
	for _, name := range knowledgeBuckets {
		if err := w.tx.DeleteBucket(name); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return fmt.Errorf("drop bucket %s: %w", name, err)
		}
		b, err := w.tx.CreateBucket(name)
		if err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
		b.FillPercent = 1 // rewritten whole, never updated in place: pack pages full
		buckets[string(name)] = b
	}
	if err := w.sources(buckets[string(bucketSources)], k.Sources); err != nil {
		return err
	}
	for i := range k.Releases {
		if err := w.release(buckets, &k.Releases[i]); err != nil {
			return err
		}
	}
	if err := w.keps(buckets[string(bucketKEPs)], k.KEPs); err != nil {
		return err
	}
	if err := w.gates(buckets[string(bucketGates)], k.KEPs); err != nil {
		return err
	}
	if len(k.APIs) > 0 || len(k.APIReleases) > 0 {
		if err := buckets[string(bucketAPIs)].Put(keyAPIs, apis); err != nil {
			return fmt.Errorf("write API lifecycle: %w", err)
		}
	}
	if len(k.FeatureGates) > 0 || len(k.GateReads) > 0 {
		if err := buckets[string(bucketFeatureGates)].Put(keyFeatureGates, fgates); err != nil {
			return fmt.Errorf("write feature gates: %w", err)
		}
	}
	if len(k.Vulns) > 0 {
		if err := buckets[string(bucketVulns)].Put(keyVulns, vulns); err != nil {
			return fmt.Errorf("write vulnerability records: %w", err)
		}
	}
	if corpus != nil {
		if err := buckets[string(bucketCorpus)].Put(keyCorpus, corpus); err != nil {
			return fmt.Errorf("write corpus: %w", err)
		}
	}
	return nil
}

// put writes one value, and looks at the context every ctxCheckEvery values.
func (w *writer) put(b *bolt.Bucket, key []byte, encode func([]byte) []byte) error {
	w.n++
	if w.n%ctxCheckEvery == 0 {
		if err := w.ctx.Err(); err != nil {
			return err
		}
	}
	start := len(w.arena)
	w.arena = encode(w.arena)
	return b.Put(key, w.arena[start:len(w.arena):len(w.arena)])
}

func (w *writer) sources(b *bolt.Bucket, sources []knowledge.Source) error {
	for i := range sources {
		key, ok := seqKey(i)
		if !ok {
			return fmt.Errorf("source %d: too many sources", i)
		}
		if err := w.put(b, key[:], func(buf []byte) []byte { return encodeSource(buf, &sources[i]) }); err != nil {
			return fmt.Errorf("write source %q: %w", sources[i].ID, err)
		}
	}
	return nil
}

func (w *writer) release(buckets map[string]*bolt.Bucket, r *knowledge.ReleaseRecord) error {
	v := r.Version
	key, ok := versionKey(v)
	if !ok || v.IsZero() {
		return fmt.Errorf("release %d.%d: a release needs a version like 1.29 (no negative numbers)", v.Major, v.Minor)
	}
	releases := buckets[string(bucketReleases)]
	if releases.Get(key[:]) != nil {
		return fmt.Errorf("release %s is given twice; give each release once", v)
	}
	if err := w.put(releases, key[:], func(buf []byte) []byte { return encodeRelease(buf, &r.Release) }); err != nil {
		return fmt.Errorf("write release %s: %w", v, err)
	}
	items := buckets[string(bucketItems)]
	for i := range r.Items {
		it := &r.Items[i]
		key, ok := itemKey(v, it.Stage, i)
		if !ok {
			return fmt.Errorf("release %s, item %d (KEP-%d): stage %d cannot be stored; stages are 0 to 255", v, i, it.KEP, it.Stage)
		}
		if err := w.put(items, key, func(buf []byte) []byte { return encodeItem(buf, it) }); err != nil {
			return fmt.Errorf("write release %s, item %d: %w", v, i, err)
		}
	}
	changes := buckets[string(bucketChanges)]
	for i := range r.Changes {
		c := &r.Changes[i]
		key, ok := releaseSeqKey(v, i)
		if !ok {
			return fmt.Errorf("release %s, release-note entry %d: too many entries", v, i)
		}
		if err := w.put(changes, key, func(buf []byte) []byte { return encodeChange(buf, c) }); err != nil {
			return fmt.Errorf("write release %s, entry for PR #%d: %w", v, c.PR, err)
		}
	}
	patches := buckets[string(bucketPatches)]
	for i := range r.Patches {
		p := &r.Patches[i]
		key, ok := releaseSeqKey(v, p.Number)
		if !ok {
			return fmt.Errorf("release %s, patch %d: a patch number is 0 to 4294967295", v, p.Number)
		}
		if patches.Get(key) != nil {
			return fmt.Errorf("patch release %s is given twice; give each once", p)
		}
		if err := w.put(patches, key, func(buf []byte) []byte { return encodePatch(buf, p) }); err != nil {
			return fmt.Errorf("write patch release %s: %w", p, err)
		}
	}
	notices := buckets[string(bucketNotices)]
	for i := range r.Notices {
		n := &r.Notices[i]
		key, ok := noticeKey(v, n.Kind, i)
		if !ok {
			return fmt.Errorf("release %s, notice %d: kind %.20q… is longer than %d bytes", v, i, n.Kind, maxKindLen)
		}
		if err := w.put(notices, key, func(buf []byte) []byte { return encodeNotice(buf, n) }); err != nil {
			return fmt.Errorf("write release %s, notice %d: %w", v, i, err)
		}
	}
	return nil
}

func (w *writer) keps(b *bolt.Bucket, keps []knowledge.KEP) error {
	for i := range keps {
		k := &keps[i]
		key, ok := kepKey(k.Number)
		if !ok {
			return fmt.Errorf("KEP number %d cannot be stored; KEP numbers are 0 to 4294967295", k.Number)
		}
		if b.Get(key[:]) != nil {
			return fmt.Errorf("KEP-%d is given twice; give each KEP once, with all its history", k.Number)
		}
		if err := w.put(b, key[:], func(buf []byte) []byte { return encodeKEP(buf, k) }); err != nil {
			return fmt.Errorf("write KEP-%d: %w", k.Number, err)
		}
	}
	return nil
}
