package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// The gates bucket indexes feature gates by name, so `gate NAME` is one Get
// and not a scan of every KEP:
//
//	gates   lower-case gate name   → 'G' KEP number, the gate's own spelling
//
// ReplaceKnowledge rebuilds it from every KEP's FeatureGates. When two KEPs
// name the same gate (in any case), the one knowledge.PreferKEP puts first
// owns it, as in knowledge.Compile (a live KEP, never a withdrawn one for
// its successor); within one KEP the first spelling listed wins.

// maxGateKeyBytes is the longest gate name the index takes: bbolt refuses
// keys over 32 KiB, and no real gate name is near this.
const maxGateKeyBytes = 1024

// gateKey is the index key of a gate name: trimmed and lower case. ok is
// false for a name that cannot be a key (empty, or too long).
func gateKey(name string) (key string, ok bool) {
	key = strings.ToLower(strings.TrimSpace(name))
	return key, key != "" && len(key) <= maxGateKeyBytes
}

// gateEntry is one indexed gate.
type gateEntry struct {
	key      string
	kep      int
	spelling string
	owner    *knowledge.KEP
}

// gateIndex returns the index entries for keps, sorted by key. It fails on
// a gate name longer than maxGateKeyBytes; empty names are left out.
func gateIndex(keps []knowledge.KEP) ([]gateEntry, error) {
	byKey := map[string]gateEntry{}
	for i := range keps {
		k := &keps[i]
		for _, g := range k.FeatureGates {
			key, ok := gateKey(g)
			if !ok {
				if key == "" {
					continue
				}
				return nil, fmt.Errorf("KEP-%d: feature gate name of %d bytes is too long to store; the limit is %d", k.Number, len(key), maxGateKeyBytes)
			}
			if cur, seen := byKey[key]; seen && (cur.owner == k || !knowledge.PreferKEP(k, cur.owner)) {
				continue
			}
			byKey[key] = gateEntry{key: key, kep: k.Number, spelling: strings.TrimSpace(g), owner: k}
		}
	}
	out := make([]gateEntry, 0, len(byKey))
	for _, e := range byKey {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b gateEntry) int { return strings.Compare(a.key, b.key) })
	return out, nil
}

func encodeGate(buf []byte, kep int, spelling string) []byte {
	e := encoder{buf: append(buf, fmtGate)}
	e.int(kep)
	e.str(spelling)
	return e.buf
}

func decodeGate(b []byte) (kep int, spelling string, err error) {
	d := newDecoder(b)
	d.header(fmtGate, "gate")
	kep = d.int()
	spelling = d.str()
	return kep, spelling, d.finish()
}

// gates writes the index of keps into b.
func (w *writer) gates(b *bolt.Bucket, keps []knowledge.KEP) error {
	entries, err := gateIndex(keps)
	if err != nil {
		return err
	}
	for _, g := range entries {
		if err := w.put(b, []byte(g.key), func(buf []byte) []byte { return encodeGate(buf, g.kep, g.spelling) }); err != nil {
			return fmt.Errorf("write feature gate %q: %w", g.spelling, err)
		}
	}
	return nil
}

// FindKEPByGate returns the KEP that owns the feature gate name, in any
// case, with its History. It fails with ENOTFOUND when no KEP names that
// gate (the message echoes the name, clipped, and offers no suggestion:
// callers add "did you mean" from ListGates), and with EBADINPUT for an
// empty name.
func (s *KnowledgeStore) FindKEPByGate(ctx context.Context, name string) (*knowledge.KEP, error) {
	var k *knowledge.KEP
	err := s.view(ctx, func(tx *bolt.Tx) error {
		key, ok := gateKey(name)
		b := tx.Bucket(bucketGates)
		if !ok || b == nil {
			return gateNotFound(name)
		}
		raw := b.Get([]byte(key))
		if raw == nil {
			return gateNotFound(name)
		}
		n, _, err := decodeGate(raw)
		if err != nil {
			return fmt.Errorf("read feature gate %q: %w", clipName(key), err)
		}
		k, err = findKEP(tx, n)
		if knowledge.ErrorCode(err) == knowledge.ENOTFOUND {
			return fmt.Errorf("read feature gate %q: %w: it names KEP-%d, which is not stored", clipName(key), errCorrupt, n)
		}
		return err
	})
	return k, err
}

// ListGates returns the spelling of every indexed feature gate, sorted
// without regard to case. A store without knowledge gives an empty list.
func (s *KnowledgeStore) ListGates(ctx context.Context) ([]string, error) {
	var out []string
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketGates)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, raw []byte) error {
			_, spelling, err := decodeGate(raw)
			if err != nil {
				return fmt.Errorf("read feature gate %q: %w", clipName(string(k)), err)
			}
			out = append(out, spelling)
			return nil
		})
	})
	return out, err
}

func gateNotFound(name string) error {
	if strings.TrimSpace(name) == "" {
		return knowledge.Errorf(knowledge.EBADINPUT, "Give the name of a feature gate.")
	}
	return knowledge.Errorf(knowledge.ENOTFOUND, "I don't know a feature gate named %s.", clipName(strings.TrimSpace(name)))
}

// clipName shortens a name for a message to 64 runes.
func clipName(s string) string {
	if utf8.RuneCountInString(s) <= 64 {
		return s
	}
	r := []rune(s)
	return string(r[:64]) + "…"
}
