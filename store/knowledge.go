package store

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// KnowledgeStore keeps what kepbot knows (KEPs, releases, their items and
// notices, and the sources) in bbolt. Get one from (*DB).Knowledge.
//
// Every exported method is one transaction, and values are decoded before
// it ends. Misses are *knowledge.Error with code ENOTFOUND; a value that
// cannot be decoded is an internal error that names it.
type KnowledgeStore struct {
	db  *DB
	now func() time.Time
}

var _ knowledge.KnowledgeStore = (*KnowledgeStore)(nil)

// view runs fn in one read transaction, unless ctx is already done. fn's
// errors come back as they are: domain errors, or wrapped internal ones.
func (s *KnowledgeStore) view(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	tx, err := s.db.bolt.Begin(false)
	if err != nil {
		return fmt.Errorf("read %s: %w", s.db.path, err)
	}
	defer func() { _ = tx.Rollback() }()
	return fn(tx)
}

// FindKEPByNumber returns KEP n with its History. It fails with ENOTFOUND
// when no KEP n is known.
func (s *KnowledgeStore) FindKEPByNumber(ctx context.Context, n int) (*knowledge.KEP, error) {
	var k *knowledge.KEP
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		k, err = findKEP(tx, n)
		return err
	})
	return k, err
}

// FindReleaseByVersion returns release v's facts, without items or
// notices. It fails with ENOTFOUND when release v is not known.
func (s *KnowledgeStore) FindReleaseByVersion(ctx context.Context, v knowledge.Version) (*knowledge.Release, error) {
	var r *knowledge.Release
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		r, err = findRelease(tx, v)
		return err
	})
	return r, err
}

// FindReleaseItems returns what reached stage in release v, in the order
// the knowledge gave them; StageNone returns every item of the release. It
// reads only that stage's items. A known release with no such items gives
// an empty list; an unknown release fails with ENOTFOUND.
func (s *KnowledgeStore) FindReleaseItems(ctx context.Context, v knowledge.Version, stage knowledge.Stage) ([]knowledge.Item, error) {
	var items []knowledge.Item
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		items, err = releaseItems(tx, v, stage)
		return err
	})
	return items, err
}

// FindNotices returns release v's notices of one kind, or of every kind
// for "", in the order the knowledge gave them. A known release with no
// such notices gives an empty list; an unknown release fails with ENOTFOUND.
func (s *KnowledgeStore) FindNotices(ctx context.Context, v knowledge.Version, kind knowledge.NoticeKind) ([]knowledge.Notice, error) {
	var notices []knowledge.Notice
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		notices, err = releaseNotices(tx, v, kind)
		return err
	})
	return notices, err
}

// FindChanges returns release v's release-note entries, by PR number. A
// known release without any gives an empty list; an unknown release fails
// with ENOTFOUND.
func (s *KnowledgeStore) FindChanges(ctx context.Context, v knowledge.Version) ([]knowledge.Change, error) {
	var out []knowledge.Change
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = releaseValues(tx, bucketChanges, v, "release-note entry", readChange)
		return err
	})
	return out, err
}

// FindPatches returns release v's patch releases, oldest first. A known
// release without any gives an empty list; an unknown release fails with
// ENOTFOUND.
func (s *KnowledgeStore) FindPatches(ctx context.Context, v knowledge.Version) ([]knowledge.Patch, error) {
	var out []knowledge.Patch
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = releaseValues(tx, bucketPatches, v, "patch release", readPatch)
		return err
	})
	return out, err
}

// ListReleases returns every known release's facts, oldest first.
func (s *KnowledgeStore) ListReleases(ctx context.Context) ([]knowledge.Release, error) {
	var out []knowledge.Release
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = listReleases(tx)
		return err
	})
	return out, err
}

// ListKEPs returns every known KEP with its History, by number: what
// FindKEPByNumber returns for each, read at once. The engine keeps them
// for as long as it runs, so they are decoded from one copy of their
// values, into one array (valueList).
func (s *KnowledgeStore) ListKEPs(ctx context.Context) ([]*knowledge.KEP, error) {
	var out []*knowledge.KEP
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = listKEPs(tx)
		return err
	})
	return out, err
}

// ListSources returns the sources the knowledge was built from, in the
// order they were given.
func (s *KnowledgeStore) ListSources(ctx context.Context) ([]knowledge.Source, error) {
	var out []knowledge.Source
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		out, err = listSources(tx)
		return err
	})
	return out, err
}

func kepNotFound(n int) error {
	return knowledge.Errorf(knowledge.ENOTFOUND, "I don't know KEP-%d.", n)
}

func releaseNotFound(v knowledge.Version) error {
	return knowledge.Errorf(knowledge.ENOTFOUND, "I don't know Kubernetes %d.%d.", v.Major, v.Minor)
}

func findKEP(tx *bolt.Tx, n int) (*knowledge.KEP, error) {
	key, ok := kepKey(n)
	b := tx.Bucket(bucketKEPs)
	if !ok || b == nil {
		return nil, kepNotFound(n)
	}
	raw := b.Get(key[:])
	if raw == nil {
		return nil, kepNotFound(n)
	}
	k, err := decodeKEP(raw)
	if err != nil {
		return nil, fmt.Errorf("read KEP-%d: %w", n, err)
	}
	return k, nil
}

func findRelease(tx *bolt.Tx, v knowledge.Version) (*knowledge.Release, error) {
	key, ok := versionKey(v)
	b := tx.Bucket(bucketReleases)
	if !ok || b == nil {
		return nil, releaseNotFound(v)
	}
	raw := b.Get(key[:])
	if raw == nil {
		return nil, releaseNotFound(v)
	}
	r, err := decodeRelease(raw)
	if err != nil {
		return nil, fmt.Errorf("read release %d.%d: %w", v.Major, v.Minor, err)
	}
	return r, nil
}

// knowRelease fails with ENOTFOUND unless release v is known.
func knowRelease(tx *bolt.Tx, v knowledge.Version) error {
	key, ok := versionKey(v)
	b := tx.Bucket(bucketReleases)
	if !ok || b == nil || b.Get(key[:]) == nil {
		return releaseNotFound(v)
	}
	return nil
}

func releaseItems(tx *bolt.Tx, v knowledge.Version, stage knowledge.Stage) ([]knowledge.Item, error) {
	if err := knowRelease(tx, v); err != nil {
		return nil, err
	}
	prefix, ok := itemPrefix(v, stage)
	b := tx.Bucket(bucketItems)
	if !ok || b == nil {
		return nil, nil
	}
	vals, seqs, err := prefixValues(b, prefix, func(k []byte) bool { return len(k) == versionKeyLen+1+seqLen },
		fmt.Sprintf("items of %d.%d", v.Major, v.Minor))
	if err != nil {
		return nil, err
	}
	items, err := decodeValues(&vals, readItem, func(i int) string { return fmt.Sprintf("item %d of %d.%d", seqs[i], v.Major, v.Minor) })
	if err != nil {
		return nil, err
	}
	if stage == knowledge.StageNone {
		// Keys group a release's items by stage; give them back as given.
		sort.Sort(bySeq[knowledge.Item]{seqs, items})
	}
	return items, nil
}

func releaseNotices(tx *bolt.Tx, v knowledge.Version, kind knowledge.NoticeKind) ([]knowledge.Notice, error) {
	if err := knowRelease(tx, v); err != nil {
		return nil, err
	}
	prefix, ok := noticePrefix(v, kind)
	b := tx.Bucket(bucketNotices)
	if !ok || b == nil {
		return nil, nil
	}
	vals, seqs, err := prefixValues(b, prefix, func(k []byte) bool {
		return len(k) > versionKeyLen && len(k) == versionKeyLen+1+int(k[versionKeyLen])+seqLen
	}, fmt.Sprintf("notices of %d.%d", v.Major, v.Minor))
	if err != nil {
		return nil, err
	}
	notices, err := decodeValues(&vals, readNotice, func(i int) string { return fmt.Sprintf("notice %d of %d.%d", seqs[i], v.Major, v.Minor) })
	if err != nil {
		return nil, err
	}
	if kind == "" {
		// Keys group a release's notices by kind; give them back as given.
		sort.Sort(bySeq[knowledge.Notice]{seqs, notices})
	}
	return notices, nil
}

func listReleases(tx *bolt.Tx) ([]knowledge.Release, error) {
	b := tx.Bucket(bucketReleases)
	if b == nil {
		return nil, nil
	}
	var out []knowledge.Release
	err := b.ForEach(func(k, raw []byte) error {
		r, err := decodeRelease(raw)
		if err != nil {
			return fmt.Errorf("read release key %x: %w", k, err)
		}
		out = append(out, *r)
		return nil
	})
	return out, err
}

func listKEPs(tx *bolt.Tx) ([]*knowledge.KEP, error) {
	b := tx.Bucket(bucketKEPs)
	if b == nil {
		return nil, nil
	}
	var vals valueList
	var nums []int
	err := b.ForEach(func(k, raw []byte) error {
		n, err := kepFromKey(k)
		if err != nil {
			return fmt.Errorf("list KEPs: %w", err)
		}
		nums = append(nums, n)
		vals.add(raw)
		return nil
	})
	if err != nil {
		return nil, err
	}
	keps, err := decodeValues(&vals, readKEP, func(i int) string { return fmt.Sprintf("KEP-%d", nums[i]) })
	if err != nil || keps == nil {
		return nil, err
	}
	out := make([]*knowledge.KEP, len(keps))
	for i := range keps {
		out[i] = &keps[i]
	}
	return out, nil
}

func listSources(tx *bolt.Tx) ([]knowledge.Source, error) {
	b := tx.Bucket(bucketSources)
	if b == nil {
		return nil, nil
	}
	var out []knowledge.Source
	err := b.ForEach(func(k, raw []byte) error {
		out = append(out, knowledge.Source{})
		if err := decodeSource(raw, &out[len(out)-1]); err != nil {
			return fmt.Errorf("read source key %x: %w", k, err)
		}
		return nil
	})
	return out, err
}

// prefixValues copies the values of b whose keys begin with prefix, in
// key order, with the position each key ends with. A key keyOK refuses
// fails as corrupt, naming what was read.
func prefixValues(b *bolt.Bucket, prefix []byte, keyOK func([]byte) bool, what string) (valueList, []int, error) {
	var vals valueList
	var seqs []int
	c := b.Cursor()
	for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
		if !keyOK(k) {
			return valueList{}, nil, fmt.Errorf("read %s: %w: key of %d bytes", what, errCorrupt, len(k))
		}
		seq, _ := seqFromKey(k)
		seqs = append(seqs, seq)
		vals.add(raw)
	}
	return vals, seqs, nil
}

// bySeq sorts values by the positions their keys carry.
type bySeq[T any] struct {
	seqs []int
	vals []T
}

func (s bySeq[T]) Len() int           { return len(s.seqs) }
func (s bySeq[T]) Less(i, j int) bool { return s.seqs[i] < s.seqs[j] }
func (s bySeq[T]) Swap(i, j int) {
	s.seqs[i], s.seqs[j] = s.seqs[j], s.seqs[i]
	s.vals[i], s.vals[j] = s.vals[j], s.vals[i]
}

// releaseValues decodes every value of bucket under release v's key
// prefix, in key order.
func releaseValues[T any](tx *bolt.Tx, bucket []byte, v knowledge.Version, what string, read func(*decoder, *T) error) ([]T, error) {
	if err := knowRelease(tx, v); err != nil {
		return nil, err
	}
	prefix, ok := versionKey(v)
	b := tx.Bucket(bucket)
	if !ok || b == nil {
		return nil, nil
	}
	name := fmt.Sprintf("%s of %d.%d", what, v.Major, v.Minor)
	vals, _, err := prefixValues(b, prefix[:], func(k []byte) bool { return len(k) == versionKeyLen+seqLen }, name)
	if err != nil {
		return nil, err
	}
	return decodeValues(&vals, read, func(int) string { return name })
}
