package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
)

// rawReleaseDays reads, from the raw files, each release's day by the
// sources that give one: the v1.N.0 tag of k8s.io/kubernetes in the
// feature-gates data's VERSIONS.tsv (the Go module proxy's time, a UTC
// day) and the 1.N.0 entry of endoflife.date's patch list.
func rawReleaseDays(t *testing.T) (tags, patches map[string]string) {
	t.Helper()
	tsv, err := os.ReadFile(sharedtest.Path(t, "data", "feature-gates", "VERSIONS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	tags, patches = map[string]string{}, map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^k8s\.io/kubernetes\tv(1\.\d+)\.0\t(\d{4}-\d\d-\d\d)T`).FindAllStringSubmatch(string(tsv), -1) {
		tags[m[1]] = m[2]
	}
	raw, err := os.ReadFile(sharedtest.Path(t, "data", "lifecycle", "kubernetes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Versions map[string]struct{ Date string } `json:"versions"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	for name, v := range data.Versions {
		if rel, ok := strings.CutSuffix(name, ".0"); ok && strings.Count(name, ".") == 2 {
			patches[rel] = v.Date
		}
	}
	return tags, patches
}

// TestReleaseDayEverywhere: every release 1.19-1.37 has one day, the same
// in its card, its support answer, the release list, latest and
// supported, each saying what gives it: the patch list's v.0 tag where it
// lists one, else the k8s.io/kubernetes v1.N.0 tag's time from the Go
// module proxy (1.37, tagged 2026-08-26, which neither the patch list nor
// the lifecycle data lists yet). Where the sources give a release two days
// (1.26: 2022-12-08 in the patch list, 2022-12-09 UTC at the proxy and on
// its release page) the card says both.
func TestReleaseDayEverywhere(t *testing.T) {
	tags, patches := rawReleaseDays(t)
	if tags["1.37"] != "2026-08-26" || patches["1.37"] != "" {
		t.Fatalf("the raw data changed: 1.37 tagged %q, patch list %q", tags["1.37"], patches["1.37"])
	}
	for name, e := range fullEngines(t) {
		t.Run(name, func(t *testing.T) {
			listed := map[string]string{}
			rel := ask(t, e, "releases")
			for _, r := range rel.Releases {
				listed[r.Version] = r.Date
			}
			for _, f := range rel.Facts {
				listed[f.Name] = f.Value
			}
			for minor := 19; minor <= 37; minor++ {
				v := fmt.Sprintf("1.%d", minor)
				want, by := patches[v], "the day of its "+v+".0 tag in the patch list"
				if want == "" {
					want, by = tags[v], "the UTC day of its k8s.io/kubernetes v"+v+".0 tag, per the Go module proxy"
				}
				card := ask(t, e, v)
				if card.Release == nil || card.Release.Date != want || !strings.Contains(card.Text, "released "+want+" ("+by+")") {
					t.Errorf("%s: %q; want released %s (%s)", v, card.Text, want, by)
					continue
				}
				if tags[v] != want && !slices.ContainsFunc(card.Notes, func(n string) bool { return strings.Contains(n, tags[v]) && strings.Contains(n, want) }) {
					t.Errorf("%s: the proxy's tag day %s is not the patch list's %s, and the card's notes %q do not say both", v, tags[v], want, card.Notes)
				}
				if d, ok := listed[v]; ok && !strings.Contains(d, want) {
					t.Errorf("releases lists %s as %q; want %s", v, d, want)
				}
				if eol := ask(t, e, v+" eol"); eol.Kind != knowledge.KindError && !slices.Contains(eol.Facts, knowledge.Fact{Name: "Released", Value: want}) && !strings.Contains(eol.Text, "out since "+want+" ("+by+")") {
					t.Errorf("%s eol: %q %v; want released %s", v, eol.Text, eol.Facts, want)
				}
			}
			day37 := "out since 2026-08-26 (the UTC day of its k8s.io/kubernetes v1.37.0 tag, per the Go module proxy)"
			latest := ask(t, e, "latest")
			if !strings.Contains(latest.Text, "1.37, "+day37) || !slices.ContainsFunc(latest.Sources, func(s knowledge.SourceRef) bool {
				return strings.Contains(s.Name, "k8s.io/kubernetes v1.37.0") && s.AsOf == "2026-08-26"
			}) {
				t.Errorf("latest: %q %v", latest.Text, latest.Sources)
			}
			if !slices.ContainsFunc(ask(t, e, "supported").Facts, func(f knowledge.Fact) bool { return f.Name == "1.37" && strings.HasPrefix(f.Value, day37) }) {
				t.Error("supported: 1.37 without its day and its source")
			}
			// out, newer than the lifecycle data: supported from its day (this panicked)
			if a := ask(t, e, "is 1.37 supported"); a.Verdict != knowledge.VerdictYes || !strings.Contains(a.Text, day37) {
				t.Errorf("is 1.37 supported: %s %q", a.Verdict, a.Text)
			}
			for _, q := range []string{"latest", "supported", "1.37", "1.37 eol", "releases"} {
				if a := ask(t, e, q); strings.Contains(a.Text+strings.Join(a.Notes, " ")+fmt.Sprint(a.Facts), "no source I hold gives its day") {
					t.Errorf("%s still says no source gives 1.37's day", q)
				}
			}
		})
	}
}
