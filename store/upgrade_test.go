package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// encodeKEPv1 is the schema 1 layout: the schema 3 one without the
// Disagreements and Changes counts at the end, under format byte 'K'.
func encodeKEPv1(k *knowledge.KEP) []byte {
	if len(k.Disagreements) > 0 || len(k.Changes) > 0 {
		panic("encodeKEPv1: schema 1 had no disagreements or changes")
	}
	return olderLayout(encodeKEP(nil, k), fmtKEPv1, 2+releasedBytes)
}

// olderLayout turns a value of today's layout into an older one: the same
// fields without the last n, each of which must be empty (one zero byte),
// under the older format byte.
func olderLayout(b []byte, format byte, n int) []byte {
	if len(b) < n+1 || !bytes.Equal(b[len(b)-n:], make([]byte, n)) {
		panic("olderLayout: the layout changed, or a newer field is set")
	}
	return append([]byte{format}, b[1:len(b)-n]...)
}

// releasedBytes is what schema 5 and 6 add at the end of a KEP: Released
// (two zero bytes when it is not set), SharedGates (one, when there are
// none) and Shipped (one, when there are none).
const releasedBytes = 3 + shippedBytes

// shippedBytes is what schema 8 adds at the end of a KEP: YAMLThrough (two
// zero bytes when it is not set) and Shipped (one when there are none).
const shippedBytes = 3

// TestDecodeReadsSchema5KEPs: a schema 5 database's KEPs (no Shipped)
// still read, as today's with no stage dated by what shipped until the
// next replace.
func TestDecodeReadsSchema5KEPs(t *testing.T) {
	for _, kp := range sampleKnowledge().KEPs {
		kp.Shipped, kp.YAMLThrough = nil, knowledge.Version{}
		got, err := decodeKEP(olderLayout(encodeKEP(nil, &kp), fmtKEPv5, shippedBytes))
		if err != nil {
			t.Fatalf("KEP-%d: %v", kp.Number, err)
		}
		if diff := cmp.Diff(&kp, got, equateEmpty); diff != "" {
			t.Errorf("KEP-%d (-want +got):\n%s", kp.Number, diff)
		}
	}
}

// TestDecodeReadsSchema4KEPs: a schema 3 or 4 database's KEPs (no
// Released) still read, as today's with Released zero: no bound on what
// kep.yaml says is reached until the next replace.
func TestDecodeReadsSchema4KEPs(t *testing.T) {
	for _, kp := range sampleKnowledge().KEPs {
		kp.Released = knowledge.Version{}
		got, err := decodeKEP(olderLayout(encodeKEP(nil, &kp), fmtKEPv3, releasedBytes))
		if err != nil {
			t.Fatalf("KEP-%d: %v", kp.Number, err)
		}
		if diff := cmp.Diff(&kp, got, equateEmpty); diff != "" {
			t.Errorf("KEP-%d (-want +got):\n%s", kp.Number, diff)
		}
	}
}

// TestDecodeReadsSchema2Values: a schema 2 database's KEPs (no Changes),
// releases (no Lifecycle) and notices (no PR, URL, SIGs) still read, as
// today's values with those fields empty.
func TestDecodeReadsSchema2Values(t *testing.T) {
	k := sampleKnowledge()
	for _, kp := range k.KEPs {
		kp.Changes = nil
		got, err := decodeKEP(olderLayout(encodeKEP(nil, &kp), fmtKEPv2, 1+releasedBytes))
		if err != nil {
			t.Fatalf("KEP-%d: %v", kp.Number, err)
		}
		if diff := cmp.Diff(&kp, got, equateEmpty); diff != "" {
			t.Errorf("KEP-%d (-want +got):\n%s", kp.Number, diff)
		}
	}
	for _, r := range k.Releases {
		rel := r.Release
		rel.Lifecycle = nil
		got, err := decodeRelease(olderLayout(encodeRelease(nil, &rel), fmtReleaseV1, 1))
		if err != nil {
			t.Fatalf("release %s: %v", rel.Version, err)
		}
		if diff := cmp.Diff(&rel, got, equateEmpty); diff != "" {
			t.Errorf("release %s (-want +got):\n%s", rel.Version, diff)
		}
		for _, n := range r.Notices {
			n = withoutSchema7(n)
			n.PR, n.URL, n.SIGs, n.Action, n.KEPVia = 0, "", nil, false, ""
			var got knowledge.Notice
			if err := decodeNotice(olderLayout(encodeNotice(nil, &n), fmtNoticeV1, 5+sinceBytes(&n)), &got); err != nil {
				t.Fatalf("notice %q: %v", n.Title, err)
			}
			if diff := cmp.Diff(n, got, equateEmpty); diff != "" {
				t.Errorf("notice (-want +got):\n%s", diff)
			}
		}
	}
}

// sinceBytes is how many bytes schemas 5 and 7 add at the end of a notice:
// the API replacement's Since, two zero bytes when it is not set, and the
// Label (labelBytes).
func sinceBytes(n *knowledge.Notice) int {
	if n.Label != "" {
		panic("sinceBytes: a schema 7 field is set")
	}
	if n.API == nil {
		return labelBytes
	}
	if !n.API.Since.IsZero() || len(n.API.ReplacedFor) > 0 {
		panic("sinceBytes: a schema 5 or 6 field is set")
	}
	return 2 + labelBytes + 1
}

// withoutSchema7 is n without what schema 7 added: Label and the API's
// ReplacedFor (its API copied).
func withoutSchema7(n knowledge.Notice) knowledge.Notice {
	n.Label = ""
	if n.API != nil {
		api := *n.API
		api.ReplacedFor = nil
		n.API = &api
	}
	return n
}

// labelBytes is what schema 7 adds at the end of a notice: its Label (one
// byte when it is not set); an API notice has one more, its ReplacedFor.
const labelBytes = 1

// schema7Bytes is what schema 7 adds at the end of notice n.
func schema7Bytes(n *knowledge.Notice) int {
	if n.Label != "" || n.API != nil && len(n.API.ReplacedFor) > 0 {
		panic("schema7Bytes: a schema 7 field is set")
	}
	if n.API != nil {
		return labelBytes + 1
	}
	return labelBytes
}

// TestDecodeReadsSchema6Notices: a schema 5 or 6 database's notices (no Label)
// still read, as today's with Label empty.
func TestDecodeReadsSchema6Notices(t *testing.T) {
	n := 0
	for _, r := range sampleKnowledge().Releases {
		for _, want := range r.Notices {
			want = withoutSchema7(want)
			var got knowledge.Notice
			if err := decodeNotice(olderLayout(encodeNotice(nil, &want), fmtNoticeV4, schema7Bytes(&want)), &got); err != nil {
				t.Fatalf("notice %q: %v", want.Title, err)
			}
			if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
				t.Errorf("notice (-want +got):\n%s", diff)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the sample knowledge has no notice")
	}
}

// TestDecodeReadsSchema4Notices: a schema 4 database's notices (no Since
// on their API) still read, as today's with Since empty.
func TestDecodeReadsSchema4Notices(t *testing.T) {
	n := 0
	for _, r := range sampleKnowledge().Releases {
		for _, want := range r.Notices {
			if want.API == nil {
				continue
			}
			want = withoutSchema7(want)
			want.API.Since = knowledge.Version{}
			var got knowledge.Notice
			if err := decodeNotice(olderLayout(encodeNotice(nil, &want), fmtNoticeV3, sinceBytes(&want)), &got); err != nil {
				t.Fatalf("notice %q: %v", want.Title, err)
			}
			if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
				t.Errorf("notice (-want +got):\n%s", diff)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the sample knowledge has no API notice")
	}
}

// TestDecodeReadsSchema3Notices: a schema 3 database's notices (no
// KEPVia) still read, as today's with KEPVia empty: a KEP is taken as its
// document's until the next replace says otherwise.
func TestDecodeReadsSchema3Notices(t *testing.T) {
	n := 0
	for _, r := range sampleKnowledge().Releases {
		for _, want := range r.Notices {
			want = withoutSchema7(want)
			want.KEPVia = ""
			var got knowledge.Notice
			if err := decodeNotice(olderLayout(encodeNotice(nil, &want), fmtNoticeV2, 1+sinceBytes(&want)), &got); err != nil {
				t.Fatalf("notice %q: %v", want.Title, err)
			}
			if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
				t.Errorf("notice (-want +got):\n%s", diff)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the sample knowledge has no notices")
	}
}

func TestDecodeKEPReadsSchema1(t *testing.T) {
	for _, k := range sampleKnowledge().KEPs {
		got, err := decodeKEP(encodeKEPv1(&k))
		if err != nil {
			t.Fatalf("KEP-%d: %v", k.Number, err)
		}
		if diff := cmp.Diff(&k, got, equateEmpty); diff != "" {
			t.Errorf("KEP-%d (-want +got):\n%s", k.Number, diff)
		}
	}
	b := encodeKEPv1(&sampleKnowledge().KEPs[1])
	for i := range len(b) {
		if _, err := decodeKEP(b[:i]); !errors.Is(err, errCorrupt) {
			t.Fatalf("the first %d of %d bytes: %v; want errCorrupt", i, len(b), err)
		}
	}
	if _, err := decodeKEP(append(b, 0)); !errors.Is(err, errCorrupt) {
		t.Errorf("a schema 1 KEP with a trailing byte: %v; want errCorrupt", err)
	}
}

// writeV1 makes the database a kepbot 1 would have left: schema_version 1,
// KEPs in the schema 1 layout, no gates, corpus or sync state. damage, when
// not nil, changes it further.
func writeV1(t *testing.T, k *knowledge.Knowledge, damage func(tx *bolt.Tx) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustReplace(t, db, k)
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketGates, bucketCorpus} {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		if err := meta.Delete(keySync); err != nil {
			return err
		}
		if err := meta.Put(keySchemaVersion, []byte("1")); err != nil {
			return err
		}
		keps := tx.Bucket(bucketKEPs)
		for i := range k.KEPs {
			key, _ := kepKey(k.KEPs[i].Number)
			if err := keps.Put(key[:], encodeKEPv1(&k.KEPs[i])); err != nil {
				return err
			}
		}
		if damage != nil {
			return damage(tx)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenUpgradesSchema1(t *testing.T) {
	k := sampleKnowledge()
	path := writeV1(t, k, nil)
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open of a schema 1 database: %v", err)
	}
	defer db.Close()
	info := infoOf(t, db)
	if info.SchemaVersion != SchemaVersion {
		t.Errorf("schema version %d after the upgrade; want %d", info.SchemaVersion, SchemaVersion)
	}
	if info.Stats != k.Stats() {
		t.Errorf("info stats %+v; want the last replace's %+v kept", info.Stats, k.Stats())
	}
	if diff := diffKnowledge(k, snapshot(t, db)); diff != "" {
		t.Errorf("knowledge after the upgrade (-written +read):\n%s", diff)
	}
	got, err := db.Knowledge().FindKEPByGate(t.Context(), "roundtables")
	if err != nil || got.Number != 99 {
		t.Errorf("gate RoundTables after the upgrade: %v, %v; want KEP-99 from the rebuilt index", got, err)
	}
	_, err = db.Knowledge().LoadCorpus(t.Context())
	if knowledge.ErrorCode(err) != knowledge.ENOTFOUND || !strings.Contains(err.Error(), "re-run `bot ingest`") {
		t.Errorf("LoadCorpus: %v; want ENOTFOUND saying to re-run bot ingest", err)
	}
	if sts, err := db.Knowledge().SourceStates(t.Context()); err != nil || len(sts) != 0 {
		t.Errorf("source states %+v, %v; want none", sts, err)
	}

	// The next replace writes schema 2 values.
	k2 := sampleKnowledge()
	k2.KEPs[0].Disagreements = []knowledge.Disagreement{{Kind: knowledge.DisagreeGATwice, KEP: 1000, Source: "notes-1.10.md", Claim: "GA twice", Trusted: "GA once"}}
	mustReplace(t, db, k2)
	if diff := diffKnowledge(k2, snapshot(t, db)); diff != "" {
		t.Errorf("knowledge after a replace (-given +read):\n%s", diff)
	}
}

func TestOpenRefusesASchema1DatabaseItCannotUpgrade(t *testing.T) {
	path := writeV1(t, sampleKnowledge(), func(tx *bolt.Tx) error {
		key, _ := kepKey(7)
		return tx.Bucket(bucketKEPs).Put(key[:], []byte{fmtKEPv1, 0x0E, 0xFF})
	})
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, Options{})
	if err == nil {
		db.Close()
		t.Fatal("Open succeeded")
	}
	t.Log(err)
	for _, want := range []string{"open " + path, "older kepbot (schema version 1)", "re-run `bot ingest`", "--db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message does not say %q", want)
		}
	}
	if !errors.Is(err, ErrNotDatabase) {
		t.Errorf("error does not wrap ErrNotDatabase")
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("a refused upgrade changed the file")
	}
}

// TestOpenUpgradesSchema2: a schema 2 database has no release_changes or
// release_patches bucket; Open adds them, records schema 4, and the old
// knowledge still answers, with no entries or patches until the next
// replace.
func TestOpenUpgradesSchema2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := sampleKnowledge()
	mustReplace(t, db, k)
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketChanges, bucketPatches} {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte("2"))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("Open of a schema 2 database: %v", err)
	}
	defer db.Close()
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if got := string(tx.Bucket(bucketMeta).Get(keySchemaVersion)); got != strconv.Itoa(SchemaVersion) {
			t.Errorf("schema_version %q after open, want %d", got, SchemaVersion)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	v := k.Releases[0].Version
	cs, err := db.Knowledge().FindChanges(t.Context(), v)
	if err != nil || len(cs) != 0 {
		t.Errorf("FindChanges(%s) = %v, %v; want none, no error", v, cs, err)
	}
	if _, err := db.Knowledge().FindKEPByNumber(t.Context(), k.KEPs[0].Number); err != nil {
		t.Errorf("the old knowledge does not read: %v", err)
	}
}

// TestOpenUpgradesSchema5: a schema 5, 6 or 7 database (no feature_gates
// bucket) opens as schema 8, its knowledge read as before and no feature
// gates until the next ingest or sync.
func TestOpenUpgradesSchema5(t *testing.T) {
	for _, v := range []string{"5", "6", "7"} {
		t.Run("schema"+v, func(t *testing.T) { openUpgradesGates(t, v) })
	}
}

func openUpgradesGates(t *testing.T, version string) {
	path := filepath.Join(t.TempDir(), "v"+version+".db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := sampleKnowledge()
	mustReplace(t, db, k)
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketFeatureGates); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, []byte(version))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("Open of a schema %s database: %v", version, err)
	}
	defer db.Close()
	gates, reads, err := db.Knowledge().ListFeatureGates(t.Context())
	if err != nil || len(gates) != 0 || len(reads) != 0 {
		t.Errorf("ListFeatureGates = %d gates, %d releases, %v; want none, no error", len(gates), len(reads), err)
	}
	if _, err := db.Knowledge().FindKEPByNumber(t.Context(), k.KEPs[0].Number); err != nil {
		t.Errorf("the old knowledge does not read: %v", err)
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketFeatureGates) == nil {
			t.Error("no feature_gates bucket after open")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDecodeReadsSchema6Items: a schema 6 database's items (no ToldBy)
// still read, as today's with ToldBy empty, until the next replace.
func TestDecodeReadsSchema6Items(t *testing.T) {
	n := 0
	for _, r := range sampleKnowledge().Releases {
		for _, want := range r.Items {
			want.ToldBy = nil
			var got knowledge.Item
			if err := decodeItem(olderLayout(encodeItem(nil, &want), fmtItemV1, 1), &got); err != nil {
				t.Fatalf("item %q: %v", want.Title, err)
			}
			if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
				t.Errorf("item (-want +got):\n%s", diff)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the sample knowledge has no item")
	}
}
