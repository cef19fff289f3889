package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"

	"github.com/kepbot/kepbot/knowledge"
)

// gateKnowledge has KEPs that share gates in different cases, listed with
// the higher number first (one withdrawn, two live), a gate with spaces
// around it and an empty one.
func gateKnowledge() *knowledge.Knowledge {
	return &knowledge.Knowledge{KEPs: []knowledge.KEP{
		{Number: 500, Title: "Later widgets", Status: "withdrawn", FeatureGates: []string{"WidgetMode", "LateOnly", "widgetmode"}},
		{Number: 42, Title: "Early widgets", Status: "implemented", FeatureGates: []string{"widgetMODE", " Spaced ", ""}},
		{Number: 601, Title: "Gadgets, again", Status: "implementable", FeatureGates: []string{"SharedGate"}},
		{Number: 600, Title: "Gadgets", Status: "implementable", FeatureGates: []string{"sharedgate"}},
		{Number: 7, Title: "Quiet pods", FeatureGates: []string{"QuietPods"}},
		{Number: 8, Title: "No gates"},
	}}
}

func TestFindKEPByGate(t *testing.T) {
	db := openTest(t)
	mustReplace(t, db, gateKnowledge())
	s := db.Knowledge()
	for _, tc := range []struct {
		name string
		kep  int
	}{
		{"QuietPods", 7},
		{"quietpods", 7},
		{"QUIETPODS", 7},
		{"  QuietPods\t", 7},
		{"WidgetMode", 42}, // named by 42 and 500: the live KEP owns it, not the withdrawn one
		{"widgetmode", 42},
		{"SharedGate", 601}, // named by two live KEPs at no stage: the newer (a successor)
		{"LateOnly", 500},
		{"spaced", 42},
	} {
		k, err := s.FindKEPByGate(t.Context(), tc.name)
		if err != nil {
			t.Errorf("gate %q: %v", tc.name, err)
			continue
		}
		if k.Number != tc.kep {
			t.Errorf("gate %q: KEP-%d; want KEP-%d", tc.name, k.Number, tc.kep)
		}
	}
	for name, want := range map[string]string{
		"WidgetModes":             "I don't know a feature gate named WidgetModes.",
		strings.Repeat("é", 2000): "I don't know a feature gate named " + strings.Repeat("é", 64) + "….",
	} {
		_, err := s.FindKEPByGate(t.Context(), name)
		checkNotFound(t, err, want)
	}
	for _, name := range []string{"", "  \t"} {
		_, err := s.FindKEPByGate(t.Context(), name)
		if knowledge.ErrorCode(err) != knowledge.EBADINPUT || knowledge.ErrorMessage(err) != "Give the name of a feature gate." {
			t.Errorf("gate %q: %v; want a bad-input error asking for a name", name, err)
		}
	}
}

func TestFindKEPByGateGivesTheWholeKEP(t *testing.T) {
	db := openTest(t)
	k := sampleKnowledge()
	mustReplace(t, db, k)
	got, err := db.Knowledge().FindKEPByGate(t.Context(), "roundchairs")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&k.KEPs[1], got, equateEmpty); diff != "" {
		t.Errorf("KEP by gate (-want +got):\n%s", diff)
	}
}

func TestListGates(t *testing.T) {
	db := openTest(t)
	s := db.Knowledge()
	gates, err := s.ListGates(t.Context())
	if err != nil || len(gates) != 0 {
		t.Fatalf("new store: gates %q, %v; want none", gates, err)
	}
	mustReplace(t, db, gateKnowledge())
	gates, err = s.ListGates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// Sorted without regard to case; each gate once, as its owner spells it.
	want := []string{"LateOnly", "QuietPods", "SharedGate", "Spaced", "widgetMODE"}
	if diff := cmp.Diff(want, gates); diff != "" {
		t.Errorf("ListGates (-want +got):\n%s", diff)
	}

	mustReplace(t, db, sampleKnowledge())
	gates, err = s.ListGates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"RoundChairs", "RoundTables"}, gates); diff != "" {
		t.Errorf("after another replace (-want +got):\n%s", diff)
	}
	if _, err := s.FindKEPByGate(t.Context(), "QuietPods"); knowledge.ErrorCode(err) != knowledge.ENOTFOUND {
		t.Errorf("a gate of the old knowledge: %v; want ENOTFOUND", err)
	}
}

func TestReplaceRefusesAHugeGateName(t *testing.T) {
	db := openTest(t)
	old := sampleKnowledge()
	mustReplace(t, db, old)
	before := infoOf(t, db)
	k := gateKnowledge()
	k.KEPs[4].FeatureGates = append(k.KEPs[4].FeatureGates, strings.Repeat("G", 1025)) // KEP-7
	err := db.Knowledge().ReplaceKnowledge(t.Context(), k)
	if err == nil || !strings.Contains(err.Error(), "KEP-7: feature gate name of 1025 bytes is too long") {
		t.Fatalf("ReplaceKnowledge: %v; want a refusal naming KEP-7", err)
	}
	checkUnchanged(t, db, old, before)
}

func TestGateValues(t *testing.T) {
	b := encodeGate(nil, 3866, "NFTablesProxyMode")
	n, spelling, err := decodeGate(b)
	if err != nil || n != 3866 || spelling != "NFTablesProxyMode" {
		t.Fatalf("decodeGate = %d, %q, %v", n, spelling, err)
	}
	for i := range len(b) {
		if _, _, err := decodeGate(b[:i]); !errors.Is(err, errCorrupt) {
			t.Errorf("the first %d bytes: %v; want errCorrupt", i, err)
		}
	}
	if _, _, err := decodeGate(append(b, 0)); !errors.Is(err, errCorrupt) {
		t.Errorf("a trailing byte: %v; want errCorrupt", err)
	}
}

// TestCorruptGateIndex damages the index: a bad value, and an entry naming
// a KEP that is not stored. Both are internal errors naming the gate.
func TestCorruptGateIndex(t *testing.T) {
	for name, value := range map[string][]byte{
		"bad value":     {fmtGate, 0xFF},
		"missing KEP":   encodeGate(nil, 12345, "Ghost"),
		"wrong format":  encodeKEP(nil, &knowledge.KEP{}),
		"trailing byte": append(encodeGate(nil, 99, "RoundTables"), 1),
	} {
		t.Run(name, func(t *testing.T) {
			db := openTest(t)
			mustReplace(t, db, sampleKnowledge())
			if err := db.bolt.Update(func(tx *bolt.Tx) error {
				return tx.Bucket(bucketGates).Put([]byte("roundtables"), value)
			}); err != nil {
				t.Fatal(err)
			}
			_, err := db.Knowledge().FindKEPByGate(t.Context(), "RoundTables")
			if !errors.Is(err, errCorrupt) || !strings.Contains(err.Error(), `read feature gate "roundtables"`) {
				t.Errorf("FindKEPByGate: %v; want a corrupt-value error naming the gate", err)
			}
			if knowledge.ErrorCode(err) != knowledge.EINTERNAL {
				t.Errorf("code %q; want internal", knowledge.ErrorCode(err))
			}
			if name != "missing KEP" {
				if _, err := db.Knowledge().ListGates(t.Context()); !errors.Is(err, errCorrupt) {
					t.Errorf("ListGates: %v; want errCorrupt", err)
				}
			}
		})
	}
}
