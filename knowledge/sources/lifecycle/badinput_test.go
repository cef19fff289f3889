package lifecycle

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

const tinyProduct = `---
title: Kubernetes
releases:
  - releaseCycle: "1.40"
    releaseDate: 2030-04-22
    eoas: 2031-04-28
    eol: false
    latest: "1.40.2"
    latestReleaseDate: 2030-06-01
  - releaseCycle: 1.39
    releaseDate: "2029-12-17"
    eoas: true
    eol: 2031-02-28T10:00:00Z
    latest: "1.39.9"
    latestReleaseDate: 2030-06-01
---

Kubernetes is a container orchestrator.
`

const tinyPatches = `{"releases": {}, "versions": {"1.40.2": {"name": "1.40.2", "date": "2030-06-01"}, "1.40.0": {"name": "1.40.0", "date": "2030-04-22"}}}`

func TestParseLifecycleForms(t *testing.T) {
	c, ws, err := ParseLifecycle("p.md", []byte(tinyProduct), provenance.Stamp{Date: "2030-07-01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 || len(c.Lifecycles) != 2 {
		t.Fatalf("got %+v, warnings %v", c.Lifecycles, ws)
	}
	l39, l40 := c.Lifecycles[0], c.Lifecycles[1]
	if l39.Release.String() != "1.39" || l39.Released != "2029-12-17" || l39.EndOfSupport != "" || l39.EOL != "2031-02-28" {
		t.Errorf("1.39 (unquoted cycle, quoted date, eoas: true, a timestamp): %+v", l39)
	}
	if l40.EOL != "" || l40.EndOfSupport != "2031-04-28" || l40.Latest != "1.40.2" {
		t.Errorf("1.40 (eol: false): %+v", l40)
	}
	if c.Sources[0].AsOf != "2030-07-01" {
		t.Errorf("as of %q", c.Sources[0].AsOf)
	}
}

func TestParseLifecycleReadsAround(t *testing.T) {
	doc := `---
title: Kubernetes
anchors: &a 2030-01-01
releases:
  - releaseCycle: "1.40"
    releaseDate: *a
    eoas: soon
    eol: [2031, 1]
    latest: "2.0.0"
  - releaseCycle: "1.40"
  - releaseCycle: "one point forty"
  - just text
  - releaseCycle: "1.41.3"
  - releaseCycle: "1.42"
    latest: "1.41.9"
---
`
	c, ws, err := ParseLifecycle("p.md", []byte(doc), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lifecycles) != 2 || c.Lifecycles[0].Released != "2030-01-01" || c.Lifecycles[0].Latest != "" || c.Lifecycles[1].Latest != "" {
		t.Errorf("lifecycles %+v", c.Lifecycles)
	}
	want := []string{"eoas", "eol", "latest", "twice", "one point forty", "not a mapping", "1.41.3", "not a patch of 1.42"}
	if len(ws) != len(want) {
		t.Fatalf("warnings %v, want %d", ws, len(want))
	}
	for i, w := range want {
		if !strings.Contains(ws[i].String(), w) || ws[i].File != "p.md" || ws[i].Entry == "" {
			t.Errorf("warning %d = %v, want one naming the file and the entry, saying %q", i, ws[i], w)
		}
	}
}

func TestParseLifecycleRejects(t *testing.T) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"empty", "", ErrEmpty},
		{"too large", "---\n" + strings.Repeat("#", MaxLifecycleSize) + "\n---\n", ErrTooLarge},
		{"binary", "---\x00\x01", ErrNotUTF8},
		{"no front matter", "# Kubernetes\n\nreleases: none\n", ErrNoFrontMatter},
		{"unclosed front matter", "---\ntitle: Kubernetes\nreleases: []\n", ErrNoFrontMatter},
		{"bad YAML", "---\ntitle: [Kubernetes\n---\n", ErrNotYAML},
		{"another product", "---\ntitle: Go\nreleases:\n  - releaseCycle: \"1.22\"\n---\n", ErrNotKubernetes},
		{"no releases", "---\ntitle: Kubernetes\n---\n", ErrNoReleases},
		{"releases not a list", "---\ntitle: Kubernetes\nreleases: 3\n---\n", ErrNoReleases},
		{"a list at the top", "---\n- a\n---\n", ErrNoReleases},
		{"no usable entry", "---\ntitle: Kubernetes\nreleases:\n  - releaseCycle: x\n---\n", ErrNothingUsable},
		{"an alias loop", "---\ntitle: Kubernetes\nreleases: &r\n  - *r\n---\n", ErrNothingUsable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ws, err := ParseLifecycle("p.md", []byte(tt.data), provenance.Stamp{})
			if !errors.Is(err, tt.want) || c != nil || ws != nil {
				t.Fatalf("got %v, %v, %v; want error %v alone", c, ws, err, tt.want)
			}
			if msg := err.Error(); !strings.Contains(msg, "p.md") || !strings.Contains(msg, "expected") {
				t.Errorf("error %q should name the file and say what was expected", msg)
			}
		})
	}
}

func TestParsePatchesReadsAround(t *testing.T) {
	data := `{"versions": {
	  "1.40.0": {"name": "1.40.0", "date": "2030-04-22"},
	  "1.40.0-rc.1": {"name": "1.40.0-rc.1", "date": "2030-04-01"},
	  "1.40.0-beta.0": {"name": "1.40.0-beta.0", "date": "2030-03-01"},
	  "2.0.0": {"name": "2.0.0", "date": "2031-01-01"},
	  "1.40.1": {"name": "1.40.1", "date": "soon"},
	  "1.40.2": "not an object",
	  "1.40.3": {"name": "1.40.4", "date": "2030-06-01T10:00:00Z"},
	  "v1.40.3": {"name": "v1.40.3", "date": "2030-06-02"}
	}}`
	c, ws, err := ParsePatches("r.json", []byte(data), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range c.Patches {
		got = append(got, p.String()+" "+p.Date)
	}
	if want := "1.40.0 2030-04-22,1.40.3 2030-06-01"; strings.Join(got, ",") != want {
		t.Errorf("patches %v, want %s", got, want)
	}
	text := ""
	for _, w := range ws {
		text += w.String() + "\n"
	}
	for _, w := range []string{"entry 1.40.1: skipped: date", "entry 1.40.2: skipped: not an object", "entry 1.40.3: its name is \"1.40.4\"",
		"entry v1.40.3: skipped: the same release", "r.json: 3 name(s) that are not releases"} {
		if !strings.Contains(text, w) {
			t.Errorf("no warning %q in:\n%s", w, text)
		}
	}
}

func TestParsePatchesRejects(t *testing.T) {
	tests := []struct {
		name string
		data string
		want error
	}{
		{"empty", " ", ErrEmpty},
		{"too large", `{"versions": {}, "x": "` + strings.Repeat("x", MaxPatchesSize) + `"}`, ErrTooLarge},
		{"not JSON", "releases: []", ErrNotJSON},
		{"truncated", `{"versions": {"1.0.0": {`, ErrNotJSON},
		{"an array", `[{"name": "1.0.0"}]`, ErrNotJSON},
		{"no versions", `{"releases": {}}`, ErrNoVersions},
		{"versions not an object", `{"versions": ["1.0.0"]}`, ErrNoVersions},
		{"versions null", `{"versions": null}`, ErrNoVersions},
		{"nothing usable", `{"versions": {"1.0.0-rc.1": {"date": "2015-01-01"}}}`, ErrNothingUsable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ws, err := ParsePatches("r.json", []byte(tt.data), provenance.Stamp{})
			if !errors.Is(err, tt.want) || c != nil || ws != nil {
				t.Fatalf("got %v, %v, %v; want error %v alone", c, ws, err, tt.want)
			}
			if msg := err.Error(); !strings.Contains(msg, "r.json") || !strings.Contains(msg, "expected") {
				t.Errorf("error %q should name the file and say what was expected", msg)
			}
		})
	}
}

func TestWarningsAreCapped(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"versions": {"1.0.0": {"date": "2015-07-10"}`)
	for i := range 2 * maxWarnings {
		fmt.Fprintf(&b, `, "1.0.%d": 5`, i+1)
	}
	b.WriteString("}}")
	_, ws, err := ParsePatches("r.json", b.Bytes(), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != maxWarnings+1 || !strings.Contains(ws[maxWarnings].Problem, fmt.Sprintf("%d more", maxWarnings)) {
		t.Errorf("%d warnings, the last %v; want %d and a count of the rest", len(ws), ws[len(ws)-1], maxWarnings+1)
	}
}
