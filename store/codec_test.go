package store

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

// codecCase encodes a value of one record type and decodes it back.
type codecCase struct {
	name   string
	value  any
	encode func(any) []byte
	decode func([]byte) (any, error)
}

func codecCases(kep *knowledge.KEP, rel *knowledge.Release, it *knowledge.Item, n *knowledge.Notice, src *knowledge.Source) []codecCase {
	return []codecCase{
		{"KEP", kep,
			func(v any) []byte { return encodeKEP(nil, v.(*knowledge.KEP)) },
			func(b []byte) (any, error) { return decodeKEP(b) }},
		{"Release", rel,
			func(v any) []byte { return encodeRelease(nil, v.(*knowledge.Release)) },
			func(b []byte) (any, error) { return decodeRelease(b) }},
		{"Item", it,
			func(v any) []byte { return encodeItem(nil, v.(*knowledge.Item)) },
			func(b []byte) (any, error) { var x knowledge.Item; err := decodeItem(b, &x); return &x, err }},
		{"Notice", n,
			func(v any) []byte { return encodeNotice(nil, v.(*knowledge.Notice)) },
			func(b []byte) (any, error) { var x knowledge.Notice; err := decodeNotice(b, &x); return &x, err }},
		{"Source", src,
			func(v any) []byte { return encodeSource(nil, v.(*knowledge.Source)) },
			func(b []byte) (any, error) { var x knowledge.Source; err := decodeSource(b, &x); return &x, err }},
	}
}

// filledCases sets every exported field of every record to a value that is
// not its zero value, so a field added to a knowledge type that the codec
// forgets makes the round trip fail.
func filledCases() []codecCase {
	seed := 0
	var kep knowledge.KEP
	var rel knowledge.Release
	var it knowledge.Item
	var n knowledge.Notice
	var src knowledge.Source
	for _, p := range []any{&kep, &rel, &it, &n, &src} {
		fill(reflect.ValueOf(p).Elem(), &seed)
	}
	return codecCases(&kep, &rel, &it, &n, &src)
}

func fill(v reflect.Value, seed *int) {
	*seed++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("text %d, 文字 %d", *seed, *seed))
	case reflect.Int:
		if *seed%2 == 0 {
			v.SetInt(int64(-*seed))
		} else {
			v.SetInt(int64(*seed * 1000))
		}
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), seed)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), seed)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), seed)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, seed)
			fill(e, seed)
			v.SetMapIndex(k, e)
		}
	default:
		panic("fill: add a case for " + v.Type().String())
	}
}

func TestCodecRoundTrip(t *testing.T) {
	sample := sampleKnowledge()
	sets := map[string][]codecCase{
		"every field set": filledCases(),
		"zero values": codecCases(&knowledge.KEP{}, &knowledge.Release{}, &knowledge.Item{},
			&knowledge.Notice{}, &knowledge.Source{}),
		"sample values": codecCases(&sample.KEPs[1], &sample.Releases[0].Release, &sample.Releases[0].Items[4],
			&sample.Releases[0].Notices[1], &sample.Sources[2]),
		"extreme numbers": codecCases(
			&knowledge.KEP{Number: math.MaxInt, Stage: knowledge.Stage(math.MinInt),
				Milestones: map[string]knowledge.Version{"": {Major: math.MinInt, Minor: math.MaxInt}}},
			&knowledge.Release{Enhancements: knowledge.Counts{Total: math.MinInt, Alpha: math.MaxInt}},
			&knowledge.Item{KEP: -1, Rank: math.MaxInt},
			&knowledge.Notice{Line: math.MinInt, API: &knowledge.APIChange{}},
			&knowledge.Source{ID: "\x00\xff not utf-8 \xc3"}),
	}
	for set, cases := range sets {
		for _, tc := range cases {
			t.Run(set+"/"+tc.name, func(t *testing.T) {
				b := tc.encode(tc.value)
				got, err := tc.decode(b)
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				if diff := cmp.Diff(tc.value, got); diff != "" {
					t.Errorf("round trip (-encoded +decoded):\n%s", diff)
				}
			})
		}
	}
}

func TestEncodeKEPIsDeterministic(t *testing.T) {
	k := &knowledge.KEP{Milestones: map[string]knowledge.Version{}}
	for i := range 20 {
		k.Milestones[fmt.Sprint("stage", i)] = knowledge.Version{Major: 1, Minor: i}
	}
	first := encodeKEP(nil, k)
	for range 20 {
		if again := encodeKEP(nil, k); string(again) != string(first) {
			t.Fatal("the same KEP encoded to different bytes")
		}
	}
}

// TestDecodeRejectsDamage cuts, extends and mislabels valid values: each
// must give errCorrupt, never a panic or a silent success.
func TestDecodeRejectsDamage(t *testing.T) {
	for _, tc := range filledCases() {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.encode(tc.value)
			for i := range len(b) {
				if _, err := tc.decode(b[:i]); !errors.Is(err, errCorrupt) {
					t.Fatalf("decoding the first %d of %d bytes: %v; want errCorrupt", i, len(b), err)
				}
			}
			if _, err := tc.decode(append(b[:len(b):len(b)], 0)); !errors.Is(err, errCorrupt) {
				t.Errorf("decoding with a trailing byte: %v; want errCorrupt", err)
			}
			wrong := append([]byte{b[0] + 1}, b[1:]...)
			if _, err := tc.decode(wrong); !errors.Is(err, errCorrupt) {
				t.Errorf("decoding with format byte 0x%02x: %v; want errCorrupt", wrong[0], err)
			}
			for i := range b { // flipped bits may decode or not, but must not panic
				flipped := append([]byte(nil), b...)
				flipped[i] ^= 0xA5
				_, _ = tc.decode(flipped)
			}
		})
	}
}

func TestDecodeRejectsBadNumbers(t *testing.T) {
	for name, b := range map[string][]byte{
		"varint longer than 64 bits": {fmtItem, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02},
		"varint of 11 bytes":         {fmtItem, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
		"string longer than value":   {fmtItem, 0x00, 0x05, 'a', 'b'},
		"huge list length":           {fmtRelease, 2, 2, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F},
		"empty value":                {},
	} {
		var it knowledge.Item
		err := decodeItem(b, &it)
		if name == "huge list length" {
			_, err = decodeRelease(b)
		}
		if !errors.Is(err, errCorrupt) {
			t.Errorf("%s: %v; want errCorrupt", name, err)
		}
	}
}

// FuzzDecode feeds arbitrary bytes to every decoder (the gate and corpus
// ones too). None may panic, and a
// KEP that decodes must survive another encode and decode unchanged.
func FuzzDecode(f *testing.F) {
	for _, tc := range append(filledCases(), codecCases(&sampleKnowledge().KEPs[1], &knowledge.Release{},
		&knowledge.Item{}, &knowledge.Notice{API: &knowledge.APIChange{}}, &knowledge.Source{})...) {
		f.Add(tc.encode(tc.value))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if k, err := decodeKEP(b); err == nil {
			again, err := decodeKEP(encodeKEP(nil, k))
			if err != nil {
				t.Fatalf("re-decoding a decoded KEP: %v", err)
			}
			if diff := cmp.Diff(k, again); diff != "" {
				t.Fatalf("KEP changed on re-encoding (-first +second):\n%s", diff)
			}
		}
		_, _ = decodeRelease(b)
		var it knowledge.Item
		_ = decodeItem(b, &it)
		var n knowledge.Notice
		_ = decodeNotice(b, &n)
		var s knowledge.Source
		_ = decodeSource(b, &s)
		_, _, _ = decodeGate(b)
		_, _ = decodeCorpus(b)
	})
}

// TestListsDoNotShareRoom: a release's entries and notices are decoded
// from one copy, their string lists cut from shared blocks; appending to
// one list must copy it, never write into the next value's list.
func TestListsDoNotShareRoom(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	ctx := t.Context()
	kb := db.Knowledge()
	chs, err := kb.FindChanges(ctx, v1_10)
	if err != nil || len(chs) != 2 {
		t.Fatalf("FindChanges(1.10) = %d entries, %v; want 2", len(chs), err)
	}
	_ = append(chs[0].Kinds, "clobbered")
	_ = append(chs[0].SIGs, "clobbered")
	if chs[0].Kinds[0] != "feature" || chs[0].SIGs[0] != "apps" || chs[1].Kinds[0] != "deprecation" || chs[1].SIGs[0] != "node" {
		t.Errorf("entries after appending to the first's lists: %+v", chs)
	}
	ns, err := kb.FindNotices(ctx, v1_10, "")
	if err != nil || len(ns) < 2 {
		t.Fatalf("FindNotices(1.10) = %d notices, %v; want 2 or more", len(ns), err)
	}
	want := slices.Clone(ns[1].FeatureGates)
	_ = append(ns[0].FeatureGates, "Clobbered")
	if !slices.Equal(ns[1].FeatureGates, want) {
		t.Errorf("second notice's gates after appending to the first's: %q, want %q", ns[1].FeatureGates, want)
	}
}

// TestListKEPs: the KEPs read at once are those read one by one, and
// appending to one's lists leaves the next KEP's alone.
func TestListKEPs(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, sampleKnowledge())
	ctx := t.Context()
	kb := db.Knowledge()
	keps, err := kb.ListKEPs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nums := []int{7, 99, 100, 1000} // sampleKnowledge's, by number
	if len(keps) != len(nums) {
		t.Fatalf("ListKEPs gave %d KEPs; want %d", len(keps), len(nums))
	}
	for i, n := range nums {
		one, err := kb.FindKEPByNumber(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(one, keps[i]); diff != "" {
			t.Errorf("KEP-%d at once vs alone (-alone +at once):\n%s", n, diff)
		}
	}
	want := slices.Clone(keps[1].FeatureGates)
	_ = append(keps[0].FeatureGates, "Clobbered")
	if !slices.Equal(keps[1].FeatureGates, want) {
		t.Errorf("second KEP's gates after appending to the first's: %q, want %q", keps[1].FeatureGates, want)
	}
}
