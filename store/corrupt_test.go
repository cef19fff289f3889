package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// TestCorruptValues writes bytes the codec did not make straight into each
// knowledge bucket: every reader must return an internal error naming what
// it was reading, and never panic.
func TestCorruptValues(t *testing.T) {
	vk, _ := versionKey(v1_10)
	item, _ := itemKey(v1_10, knowledge.StageStable, 0)
	notice, _ := noticeKey(v1_10, knowledge.NoticeRemoval, 0)
	kep, _ := kepKey(99)
	src, _ := seqKey(0)
	for _, tc := range []struct {
		name   string
		bucket []byte
		key    []byte
		value  []byte
		read   func(context.Context, *KnowledgeStore) error
		want   string
	}{
		{"KEP truncated", bucketKEPs, kep[:], []byte{fmtKEP, 0xC6, 0x01, 0x20, 'R'},
			func(ctx context.Context, s *KnowledgeStore) error { _, err := s.FindKEPByNumber(ctx, 99); return err }, "read KEP-99: corrupt value"},
		{"KEP with a huge history count", bucketKEPs, kep[:], []byte{fmtKEP, 0xC6, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F},
			func(ctx context.Context, s *KnowledgeStore) error { _, err := s.FindKEPByNumber(ctx, 99); return err }, "longer than the value"},
		{"JSON where a KEP should be", bucketKEPs, kep[:], []byte(`{"number":99}`),
			func(ctx context.Context, s *KnowledgeStore) error { _, err := s.FindKEPByNumber(ctx, 99); return err }, "format byte 0x7b"},
		{"release", bucketReleases, vk[:], []byte{fmtRelease, 2},
			func(ctx context.Context, s *KnowledgeStore) error {
				_, err := s.FindReleaseByVersion(ctx, v1_10)
				return err
			}, "read release 1.10: corrupt value"},
		{"release in a list", bucketReleases, vk[:], []byte{fmtItem},
			func(ctx context.Context, s *KnowledgeStore) error { _, err := s.ListReleases(ctx); return err }, "corrupt value"},
		{"item", bucketItems, item, []byte{fmtItem, 0x80},
			func(ctx context.Context, s *KnowledgeStore) error {
				_, err := s.FindReleaseItems(ctx, v1_10, knowledge.StageStable)
				return err
			}, "read item 0 of 1.10: corrupt value"},
		{"item key too short", bucketItems, append(vk[:], byte(knowledge.StageStable)), []byte{fmtItem},
			func(ctx context.Context, s *KnowledgeStore) error {
				_, err := s.FindReleaseItems(ctx, v1_10, knowledge.StageStable)
				return err
			}, "key of 9 bytes"},
		{"notice", bucketNotices, notice, []byte{fmtNotice, 0xFF, 0xFF, 0x03, 'x'},
			func(ctx context.Context, s *KnowledgeStore) error {
				_, err := s.FindNotices(ctx, v1_10, "")
				return err
			}, "read notice 0 of 1.10: corrupt value"},
		{"notice with a bad flag", bucketNotices, notice, badAPIFlag(),
			func(ctx context.Context, s *KnowledgeStore) error {
				_, err := s.FindNotices(ctx, v1_10, knowledge.NoticeRemoval)
				return err
			}, "flag is neither 0 nor 1"},
		{"source", bucketSources, src[:], append(encodeSource(nil, &knowledge.Source{ID: "a"}), 0),
			func(ctx context.Context, s *KnowledgeStore) error { _, err := s.ListSources(ctx); return err }, "1 bytes left over"},
		{"KEP key of the wrong length", bucketKEPs, []byte("abc"), encodeKEP(nil, &knowledge.KEP{}),
			func(ctx context.Context, s *KnowledgeStore) error { _, err := s.ListKEPs(ctx); return err }, "KEP key is 3 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			mustReplace(t, db, sampleKnowledge())
			err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(tc.bucket).Put(tc.key, tc.value) })
			if err != nil {
				t.Fatal(err)
			}
			err = tc.read(t.Context(), db.Knowledge())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v; want an error containing %q", err, tc.want)
			}
			if !errors.Is(err, errCorrupt) || knowledge.ErrorCode(err) != knowledge.EINTERNAL {
				t.Errorf("%v: want an internal error wrapping errCorrupt", err)
			}
		})
	}
}

// badAPIFlag is a removal notice whose "has an API change" flag is 7.
func badAPIFlag() []byte {
	b := encodeNotice(nil, &knowledge.Notice{Kind: knowledge.NoticeRemoval})
	const flag = 1 + 1 + len("removal") + 2 + 1 + 1 + 1 + 1 // format, kind, release, KEP, title, text, gates
	if b[flag] != 0 {
		panic("badAPIFlag: the notice layout changed")
	}
	b[flag] = 7
	return b
}
