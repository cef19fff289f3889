package store

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

func TestVersionKeysSortLikeVersions(t *testing.T) {
	versions := []knowledge.Version{
		{Major: 0, Minor: 1}, v1_2, v1_9, v1_10, {Major: 1, Minor: 11}, {Major: 1, Minor: 99},
		{Major: 1, Minor: 100}, {Major: 1, Minor: 255}, {Major: 1, Minor: 256}, v2_0, {Major: 10, Minor: 1},
		{Major: 256, Minor: 0}, {Major: math.MaxUint32, Minor: math.MaxUint32},
	}
	for i, a := range versions {
		for _, b := range versions[i:] {
			ka, okA := versionKey(a)
			kb, okB := versionKey(b)
			if !okA || !okB {
				t.Fatalf("no key for %v or %v", a, b)
			}
			if got, want := bytes.Compare(ka[:], kb[:]), a.Compare(b); got != want {
				t.Errorf("keys of %s and %s compare %d; versions compare %d", a, b, got, want)
			}
		}
	}
}

func TestKEPKeysSortLikeNumbers(t *testing.T) {
	numbers := []int{0, 1, 9, 10, 99, 100, 255, 256, 1000, 4639, 65535, 65536, math.MaxUint32}
	var keys [][]byte
	for _, n := range numbers {
		k, ok := kepKey(n)
		if !ok {
			t.Fatalf("no key for %d", n)
		}
		if got, err := kepFromKey(k[:]); err != nil || got != n {
			t.Errorf("kepFromKey(kepKey(%d)) = %d, %v", n, got, err)
		}
		keys = append(keys, k[:])
	}
	if !slices.IsSortedFunc(keys, bytes.Compare) {
		t.Errorf("KEP keys are not in number order: %x", keys)
	}
}

func TestKeysRefuseValuesThatDoNotFit(t *testing.T) {
	for _, n := range []int{-1, math.MaxUint32 + 1, math.MinInt} {
		if _, ok := kepKey(n); ok {
			t.Errorf("kepKey(%d) is ok", n)
		}
		if _, ok := seqKey(n); ok {
			t.Errorf("seqKey(%d) is ok", n)
		}
		if _, ok := versionKey(knowledge.Version{Major: 1, Minor: n}); ok {
			t.Errorf("versionKey(1.%d) is ok", n)
		}
		if _, ok := itemKey(v1_9, knowledge.StageBeta, n); ok {
			t.Errorf("itemKey with position %d is ok", n)
		}
	}
	for _, s := range []knowledge.Stage{-1, 256} {
		if _, ok := itemKey(v1_9, s, 0); ok {
			t.Errorf("itemKey with stage %d is ok", s)
		}
		if _, ok := itemPrefix(v1_9, s); ok {
			t.Errorf("itemPrefix with stage %d is ok", s)
		}
	}
	long := knowledge.NoticeKind(bytes.Repeat([]byte("k"), 256))
	if _, ok := noticeKey(v1_9, long, 0); ok {
		t.Error("noticeKey with a 256-byte kind is ok")
	}
	if _, ok := noticePrefix(v1_9, long); ok {
		t.Error("noticePrefix with a 256-byte kind is ok")
	}
}

func TestItemKeysGroupByReleaseThenStage(t *testing.T) {
	type entry struct {
		v     knowledge.Version
		stage knowledge.Stage
		seq   int
	}
	entries := []entry{
		{v1_10, knowledge.StageStable, 0}, {v1_9, knowledge.StageStable, 3}, {v1_10, knowledge.StageAlpha, 7},
		{v1_9, knowledge.StageAlpha, 300}, {v1_10, knowledge.StageStable, 256}, {v1_9, knowledge.StageNone, 1},
	}
	keyOf := func(e entry) []byte {
		k, ok := itemKey(e.v, e.stage, e.seq)
		if !ok {
			t.Fatalf("no key for %+v", e)
		}
		return k
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(keyOf(a), keyOf(b)) })
	want := []entry{
		{v1_9, knowledge.StageNone, 1}, {v1_9, knowledge.StageAlpha, 300}, {v1_9, knowledge.StageStable, 3},
		{v1_10, knowledge.StageAlpha, 7}, {v1_10, knowledge.StageStable, 0}, {v1_10, knowledge.StageStable, 256},
	}
	if diff := cmp.Diff(want, entries, cmp.AllowUnexported(entry{})); diff != "" {
		t.Errorf("item key order (-want +got):\n%s", diff)
	}
	for _, e := range entries {
		k := keyOf(e)
		stagePrefix, _ := itemPrefix(e.v, e.stage)
		releasePrefix, _ := itemPrefix(e.v, knowledge.StageNone)
		if !bytes.HasPrefix(k, releasePrefix) || (e.stage != knowledge.StageNone && !bytes.HasPrefix(k, stagePrefix)) {
			t.Errorf("key %x of %+v lacks its prefixes %x, %x", k, e, releasePrefix, stagePrefix)
		}
		if seq, err := seqFromKey(k); err != nil || seq != e.seq {
			t.Errorf("seqFromKey(%x) = %d, %v; want %d", k, seq, err, e.seq)
		}
	}
}

func TestNoticeKindPrefixesDoNotOverlap(t *testing.T) {
	dep, _ := noticePrefix(v1_9, "dep")
	full, _ := noticeKey(v1_9, knowledge.NoticeDeprecation, 0)
	if bytes.HasPrefix(full, dep) {
		t.Errorf("a deprecation key %x falls under the prefix %x of kind \"dep\"", full, dep)
	}
	own, _ := noticePrefix(v1_9, knowledge.NoticeDeprecation)
	all, _ := noticePrefix(v1_9, "")
	if !bytes.HasPrefix(full, own) || !bytes.HasPrefix(full, all) {
		t.Errorf("key %x lacks its prefixes %x and %x", full, own, all)
	}
	other, _ := noticePrefix(v1_10, "")
	if bytes.HasPrefix(full, other) {
		t.Errorf("a 1.9 key %x falls under the 1.10 prefix %x", full, other)
	}
}
