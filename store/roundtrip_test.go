package store

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/knowledge"
)

var (
	versionType = reflect.TypeFor[knowledge.Version]()
	stageType   = reflect.TypeFor[knowledge.Stage]()
)

// fillValid is fill with values a store and JSON can carry: versions are
// 1.N with N unique, stages are real stages, numbers are positive and
// unique (so KEP numbers and release versions never clash), strings are
// UTF-8. Every exported field of every type it reaches is set, so a field
// the store forgets to keep makes a round trip fail.
func fillValid(v reflect.Value, seed *int) {
	*seed++
	switch {
	case v.Type() == versionType:
		v.Set(reflect.ValueOf(knowledge.Version{Major: 1, Minor: *seed}))
		return
	case v.Type() == stageType:
		v.SetInt(int64(knowledge.StageAlpha) + int64(*seed%5))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("text %d, 文字 %d", *seed, *seed))
	case reflect.Int:
		v.SetInt(int64(*seed * 7))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillValid(v.Field(i), seed)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillValid(v.Elem(), seed)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillValid(v.Index(i), seed)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillValid(k, seed)
			fillValid(e, seed)
			v.SetMapIndex(k, e)
		}
	default:
		panic("fillValid: add a case for " + v.Type().String())
	}
}

// filledKnowledge is a Knowledge with every exported field set, down to the
// Corpus and each KEP's Disagreements.
func filledKnowledge() *knowledge.Knowledge {
	var k knowledge.Knowledge
	seed := 0
	fillValid(reflect.ValueOf(&k).Elem(), &seed)
	return &k
}

// TestEveryFieldSurvivesReplace stores a Knowledge with every field set and
// reads it all back: the records, the corpus and the gate index. A field
// added to any knowledge type the store keeps, and forgotten by the codec,
// fails here. Skipped is the one field a store does not keep (Info counts
// it), and it is left out of the comparison by name.
func TestEveryFieldSurvivesReplace(t *testing.T) {
	db := openTest(t)
	k := filledKnowledge()
	if k.Corpus == nil || len(k.KEPs[0].Disagreements) == 0 || k.KEPs[0].History[0].Via == "" {
		t.Fatal("filledKnowledge left a field empty")
	}
	mustReplace(t, db, k)

	got := snapshot(t, db)
	c, err := db.Knowledge().LoadCorpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got.Corpus = c
	if diff := cmp.Diff(normalized(k), got); diff != "" {
		t.Errorf("stored knowledge differs (-given +read):\n%s", diff)
	}

	gates, err := db.Knowledge().ListGates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, kp := range normalized(k).KEPs {
		want = append(want, kp.FeatureGates...)
	}
	slices.SortFunc(want, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	if diff := cmp.Diff(want, gates); diff != "" {
		t.Errorf("gates (-want +got):\n%s", diff)
	}
}

// TestCorpusSurvivesJSON checks the corpus codec alone, with every field set.
func TestCorpusSurvivesJSON(t *testing.T) {
	var c knowledge.Corpus
	seed := 100
	fillValid(reflect.ValueOf(&c).Elem(), &seed)
	b, err := encodeCorpus(&c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeCorpus(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&c, got); diff != "" {
		t.Errorf("corpus round trip (-encoded +decoded):\n%s", diff)
	}
}
