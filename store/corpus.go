package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// The corpus bucket keeps the Corpus a Knowledge was compiled from, so that
// `bot sync` can swap the kep.yaml part and compile again, and `bot check`
// can read what the documents said:
//
//	corpus   "corpus"   → 'C' gzip(JSON of knowledge.Corpus)
//
// It is JSON because only sync and check read it, never an answer; gzip
// because note texts repeat, and it shrinks about fivefold. It is rebuilt
// with the rest of the knowledge, so a replace without a corpus leaves none
// (a stale corpus would undo that replace at the next sync).

// fmtCorpus starts the stored corpus value.
const fmtCorpus byte = 0x43 // 'C'

// maxCorpusBytes caps the JSON a stored corpus may inflate to. The full
// shared corpus is a few MB; the cap only stops a damaged value from
// inflating without end.
const maxCorpusBytes = 1 << 30

var keyCorpus = []byte("corpus")

// encodeCorpus returns the stored form of c.
func encodeCorpus(c *knowledge.Corpus) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(fmtCorpus)
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := json.NewEncoder(zw).Encode(c); err != nil {
		return nil, fmt.Errorf("encode corpus: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("compress corpus: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeCorpus reads a value encodeCorpus wrote. It fails with errCorrupt
// on anything else, including JSON that inflates past maxCorpusBytes.
func decodeCorpus(b []byte) (*knowledge.Corpus, error) {
	if len(b) == 0 || b[0] != fmtCorpus {
		return nil, fmt.Errorf("%w: corpus value does not start with format byte 0x%02x", errCorrupt, fmtCorpus)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b[1:]))
	if err != nil {
		return nil, fmt.Errorf("%w: corpus: %v", errCorrupt, err)
	}
	lr := &io.LimitedReader{R: zr, N: maxCorpusBytes + 1}
	dec := json.NewDecoder(lr)
	var c knowledge.Corpus
	if err := dec.Decode(&c); err != nil {
		if lr.N <= 0 {
			return nil, fmt.Errorf("%w: corpus inflates past %d bytes", errCorrupt, maxCorpusBytes)
		}
		return nil, fmt.Errorf("%w: corpus: %v", errCorrupt, err)
	}
	// Read to the end so gzip checks its checksum and nothing trails.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: corpus has more than one JSON value or a bad checksum (%v)", errCorrupt, err)
	}
	return &c, nil
}

// LoadCorpus returns the Corpus the stored knowledge was compiled from. It
// fails with ENOTFOUND when the database keeps none: it was filled before
// kepbot kept corpora, or from knowledge that came without one. It fails
// with an internal error when the stored corpus cannot be decoded.
func (s *KnowledgeStore) LoadCorpus(ctx context.Context) (*knowledge.Corpus, error) {
	var raw []byte
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketCorpus); b != nil {
			raw = bytes.Clone(b.Get(keyCorpus)) // decoded after the transaction: keep it short
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, knowledge.Errorf(knowledge.ENOTFOUND,
			"This database keeps no copy of the documents its knowledge came from (an older kepbot filled it); re-run `bot ingest` with your sources to keep one.")
	}
	c, err := decodeCorpus(raw)
	if err != nil {
		return nil, fmt.Errorf("read corpus: %w", err)
	}
	return c, nil
}
