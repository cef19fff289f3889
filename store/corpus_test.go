package store

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// sampleCorpus is a small corpus, written by hand.
func sampleCorpus() *knowledge.Corpus {
	return &knowledge.Corpus{
		Sources:  []knowledge.Source{{ID: "meta", Name: "Test KEP metadata", Kind: knowledge.SourceKEPYAML}},
		KEPs:     []knowledge.KEP{{Number: 99, Title: "Round tables", Stage: knowledge.StageBeta, Milestones: map[string]knowledge.Version{"beta": v1_9}}},
		Mentions: []knowledge.Mention{{KEP: 99, Title: "圆桌", Stage: knowledge.StageBeta, Release: v1_9, Text: "桌子是圆的。", Source: "笔记-1.9", Via: "link"}},
		Notices:  []knowledge.Notice{{Kind: knowledge.NoticeRemoval, Release: v1_10, API: &knowledge.APIChange{GroupVersion: "boats.example.test/v1beta1"}}},
		Skipped:  []knowledge.Skip{{Path: "keps/x/kep.yaml", Reason: "no KEP number: test"}},
	}
}

func TestLoadCorpus(t *testing.T) {
	db := openTest(t)
	s := db.Knowledge()
	_, err := s.LoadCorpus(t.Context())
	if knowledge.ErrorCode(err) != knowledge.ENOTFOUND || !strings.Contains(err.Error(), "re-run `bot ingest`") {
		t.Fatalf("new database: %v; want ENOTFOUND saying to re-run bot ingest", err)
	}

	k := sampleKnowledge()
	k.Corpus = sampleCorpus()
	mustReplace(t, db, k)
	got, err := s.LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampleCorpus(), got); diff != "" {
		t.Errorf("corpus (-stored +loaded):\n%s", diff)
	}

	// A replace without a corpus leaves none: the old one no longer
	// describes the knowledge.
	mustReplace(t, db, sampleKnowledge())
	if _, err := s.LoadCorpus(t.Context()); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("after a replace without a corpus: %v; want ENOTFOUND", err)
	}
}

func TestCorpusSurvivesReopen(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	k.Corpus = sampleCorpus()
	mustReplace(t, db, k)
	path := db.Path()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	got, err := db2.Knowledge().LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sampleCorpus(), got); diff != "" {
		t.Errorf("corpus after reopen (-stored +loaded):\n%s", diff)
	}
	// openTest's cleanup closes db again; bbolt allows that.
}

func TestDecodeCorpusRejectsDamage(t *testing.T) {
	good, err := encodeCorpus(sampleCorpus())
	if err != nil {
		t.Fatal(err)
	}
	gz := func(s string) []byte {
		var b bytes.Buffer
		b.WriteByte(fmtCorpus)
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)-6] ^= 0xFF // inside the gzip trailer's checksum
	for name, b := range map[string][]byte{
		"empty":            {},
		"wrong format":     append([]byte{'X'}, good[1:]...),
		"not gzip":         {fmtCorpus, 'n', 'o'},
		"truncated":        good[:len(good)/2],
		"bad checksum":     flipped,
		"not JSON":         gz("not json"),
		"two JSON values":  gz(`{} {}`),
		"JSON of a number": gz(`12`),
	} {
		if _, err := decodeCorpus(b); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: %v; want errCorrupt", name, err)
		}
	}
}

func TestLoadCorpusReportsDamage(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	if err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketCorpus).Put(keyCorpus, []byte{fmtCorpus, 1, 2, 3})
	}); err != nil {
		t.Fatal(err)
	}
	_, err := db.Knowledge().LoadCorpus(t.Context())
	if !errors.Is(err, errCorrupt) || !strings.HasPrefix(err.Error(), "read corpus: ") || knowledge.ErrorCode(err) != knowledge.EINTERNAL {
		t.Errorf("LoadCorpus: %v; want an internal error reading the corpus", err)
	}
}
