package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
	"github.com/kepbot/kepbot/knowledge/sources/releasenote"
)

// seeded ingests the five seed release notes from ../shared (read at test
// time, never copied): releasenote.Parse each, Compile, save in bbolt.
func seeded(t testing.TB) *engine.Engine {
	t.Helper()
	dir := sharedtest.Path(t, "seeds")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var c knowledge.Corpus
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		part, err := releasenote.Parse(e.Name(), data)
		if err != nil {
			t.Fatalf("parse seed %s: %v", e.Name(), err)
		}
		c.Add(part)
	}
	if len(c.Sources) != 5 {
		t.Fatalf("read %d seed notes, want 5", len(c.Sources))
	}
	return engine.New(openStore(t, knowledge.Compile(&c)))
}

// The KEPs of the 1.30 note's GA list, read off its links by hand.
var ga130 = []int{24, 647, 1610, 2305, 2681, 2799, 3022, 3141, 3352, 3458, 3488, 3521, 3705, 3716, 3756, 3895, 4402}

func TestSeededKEP3866(t *testing.T) {
	a := ask(t, seeded(t), "kep 3866")
	if a.Kind != knowledge.KindKEP || !strings.HasPrefix(a.Title, "KEP-3866: ") {
		t.Fatalf("kep 3866 = %s %q", a.Kind, a.Title)
	}
	f := a.KEP
	if f.SIG != "sig-network" || f.Stage != knowledge.StageBeta {
		t.Errorf("SIG %q stage %v, want sig-network beta", f.SIG, f.Stage)
	}
	if diff := cmp.Diff(map[string]string{"alpha": "1.29", "beta": "1.31"}, f.Milestones); diff != "" {
		t.Errorf("milestones (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"NFTablesProxyMode"}, f.FeatureGates); diff != "" {
		t.Errorf("gates (-want +got):\n%s", diff)
	}
	if got := timeline(f.Timeline); got != "alpha 1.29, beta 1.31" {
		t.Errorf("timeline %q", got)
	}
	want := []knowledge.SourceRef{
		{Name: "Kubernetes 1.29 release note (zh)", AsOf: "2023-12-13"},
		{Name: "Kubernetes 1.31 release note (zh)", AsOf: "2024-08-13"},
	}
	if diff := cmp.Diff(want, a.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if len(a.Items) != 2 || a.Items[0].Text == "" || f.Links[0].URL != "https://kep.k8s.io/3866" {
		t.Errorf("items %d (first quoted %v), links %+v", len(a.Items), len(a.Items) > 0 && a.Items[0].Text != "", f.Links)
	}
}

func TestSeededReleases(t *testing.T) {
	e := seeded(t)
	tests := []struct {
		q    string
		want knowledge.ReleaseFacts
	}{
		{"1.29", knowledge.ReleaseFacts{Version: "1.29", Date: "2023-12-13", Theme: "Mandala", Enhancements: knowledge.Counts{Total: 49, Stable: 11, Beta: 19, Alpha: 19}}},
		{"v1.32", knowledge.ReleaseFacts{Version: "1.32", Date: "2024-12-11", Enhancements: knowledge.Counts{Total: 44, Stable: 13, Beta: 12, Alpha: 19}}},
		{"1.30.0", knowledge.ReleaseFacts{Version: "1.30", Date: "2024-04-17", Theme: "Uwubernetes", Enhancements: knowledge.Counts{Total: 45, Stable: 17, Beta: 18, Alpha: 10}}},
	}
	for _, tt := range tests {
		a := ask(t, e, tt.q)
		if a.Kind != knowledge.KindRelease || a.Release == nil {
			t.Fatalf("%s = %s %q", tt.q, a.Kind, a.Text)
		}
		if diff := cmp.Diff(tt.want, *a.Release); diff != "" {
			t.Errorf("%s facts (-want +got):\n%s", tt.q, diff)
		}
		if len(a.Items) == 0 || len(a.Items) > 5 || len(a.Sources) != 1 {
			t.Errorf("%s: %d highlights, %d sources", tt.q, len(a.Items), len(a.Sources))
		}
	}
	r := ask(t, e, "releases")
	var names []string
	for _, f := range r.Releases {
		names = append(names, f.Version)
	}
	if diff := cmp.Diff([]string{"1.27", "1.29", "1.30", "1.31", "1.32"}, names); diff != "" {
		t.Errorf("releases (-want +got):\n%s", diff)
	}
}

func TestSeeded130GA(t *testing.T) {
	a := ask(t, seeded(t), "1.30 ga")
	var got []int
	for _, it := range a.Items {
		got = append(got, it.KEP)
		if it.Stage != knowledge.StageStable || it.Release.String() != "1.30" || it.Text == "" {
			t.Errorf("item %+v is not a quoted GA item of 1.30", it)
		}
	}
	if diff := cmp.Diff(ga130, got); diff != "" {
		t.Errorf("1.30 GA KEPs (-want +got):\n%s", diff)
	}
	if a.Text != "17 enhancements went GA in Kubernetes 1.30." || len(a.Notes) != 0 {
		t.Errorf("text %q notes %q", a.Text, a.Notes)
	}
}

// TestSeededListsFollowEachNote: with the five Chinese notes alone (no
// kep.yaml), each release lists what its own note lists, even where an
// earlier note put the KEP at the same stage already; the list says so.
func TestSeededListsFollowEachNote(t *testing.T) {
	e := seeded(t)
	tests := []struct {
		question string
		want     []int // KEPs the release's own note lists at that stage
		repeat   map[int]string
	}{
		{"1.31 ga", []int{24, 2305}, map[int]string{24: "1.30", 2305: "1.30"}},
		{"1.31 alpha", []int{4368}, map[int]string{4368: "1.30"}},
		{"1.32 beta", []int{4247}, map[int]string{4247: "1.29"}},
		{"1.32 alpha", []int{4680}, map[int]string{4680: "1.31"}},
		{"1.32 stable", []int{2681}, map[int]string{2681: "1.30"}},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			a := ask(t, e, tt.question)
			listed := map[int]bool{}
			for _, it := range a.Items {
				listed[it.KEP] = true
			}
			for _, n := range tt.want {
				if !listed[n] {
					t.Errorf("%s does not list KEP-%d, which its note lists", tt.question, n)
				}
			}
			notes := strings.Join(a.Notes, "\n")
			for n, at := range tt.repeat {
				want := fmt.Sprintf("KEP-%d was listed as %s in %s already", n, a.Items[0].Stage.Label(), at)
				if !strings.Contains(notes, want) {
					t.Errorf("%s notes %q; want %q", tt.question, a.Notes, want)
				}
			}
		})
	}
	if a := ask(t, e, "1.32 ga"); a.Text != "13 enhancements went GA in Kubernetes 1.32." {
		t.Errorf("1.32 ga: %q; the note counts 13 GA and lists 13", a.Text)
	}
	d := ask(t, e, "1.31 deprecations")
	var keps []int
	for _, n := range d.Notices {
		keps = append(keps, n.KEP)
	}
	for _, n := range []int{4004, 4569} {
		if !slices.Contains(keps, n) {
			t.Errorf("1.31 deprecations lacks KEP-%d (got %v)", n, keps)
		}
	}
}

// TestSeededCardSaysNotesDisagree: a KEP two notes list as GA in two
// releases keeps its first graduation, and its card says the notes
// disagree, naming both, with both as sources.
func TestSeededCardSaysNotesDisagree(t *testing.T) {
	k := ask(t, seeded(t), "kep 2681")
	if got := k.KEP.Milestones["stable"]; got != "1.30" {
		t.Errorf("KEP-2681 reached GA in %q, want 1.30", got)
	}
	if got := timeline(k.KEP.Timeline); !strings.Contains(got, "stable 1.30, stable 1.32 (again)") {
		t.Errorf("KEP-2681 timeline %q", got)
	}
	want := "The Kubernetes 1.30 release note (zh) lists it as GA in 1.30; the Kubernetes 1.32 release note (zh) also lists it as GA in 1.32 — the notes disagree"
	if len(k.Notes) == 0 || !strings.HasPrefix(k.Notes[0], want) {
		t.Errorf("notes %q; want one starting %q", k.Notes, want)
	}
	var names []string
	for _, s := range k.Sources {
		names = append(names, s.Name)
	}
	for _, n := range []string{"Kubernetes 1.30 release note (zh)", "Kubernetes 1.32 release note (zh)"} {
		if !slices.Contains(names, n) {
			t.Errorf("sources %q lack %q", names, n)
		}
	}
}

func TestSeededErrorsAndGate(t *testing.T) {
	e := seeded(t)
	for q, want := range map[string]string{
		"kep abc":   `bad_input: "abc" is not a KEP number. Usage: kep NUMBER, e.g. kep 4639.`,
		"kep 99999": "not_found: I don't know KEP-99999. No kep.yaml I hold has that number; ask search WORDS to find a KEP by its name or gate.",
		"1.99":      "not_found: I don't know Kubernetes 1.99. I know 1.27, 1.29–1.32.",
	} {
		a := ask(t, e, q)
		if got := a.Error.Code + ": " + a.Text; got != want {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
	if g := ask(t, e, "gate nftablesproxymode"); g.Kind != knowledge.KindGate || g.KEP == nil || g.KEP.Number != 3866 {
		t.Errorf("gate nftablesproxymode = %s %q", g.Kind, g.Text)
	}
}

// TestSeededJSON checks the JSON of seeded answers holds their facts, as
// `bot ask --json` prints them.
func TestSeededJSON(t *testing.T) {
	e := seeded(t)
	for q, parts := range map[string][]string{
		"kep 3866": {`"number": 3866`, `"sig": "sig-network"`, `"alpha": "1.29"`, `"beta": "1.31"`, `"NFTablesProxyMode"`, `"as_of": "2023-12-13"`},
		"1.29":     {`"kind": "release"`, `"date": "2023-12-13"`, `"theme": "Mandala"`, `"total": 49`, `"stable": 11`, `"beta": 19`, `"alpha": 19`},
		"1.32":     {`"version": "1.32"`, `"total": 44`},
		"1.30 ga":  {`"kind": "list"`, `"kep": 4402`, `"stage": "stable"`},
		"1.99":     {`"kind": "error"`, `"code": "not_found"`, `"suggestions": [`},
	} {
		b, err := json.MarshalIndent(ask(t, e, q), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if !strings.Contains(string(b), p) {
				t.Errorf("JSON of %s lacks %s", q, p)
			}
		}
		if q == "1.32" && strings.Contains(string(b), `"theme"`) {
			t.Errorf("JSON of 1.32 has a theme; the note gives none")
		}
	}
}
