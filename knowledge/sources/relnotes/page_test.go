package relnotes

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// TestSharedPages reads the twelve release pages: each heading's form
// gives its theme, and the line "Kubernetes v1.N.0 released" its day.
func TestSharedPages(t *testing.T) {
	sharedtest.Root(t)
	want := map[string]struct{ date, theme string }{
		"1.25": {"2022-08-23", "Combiner"},
		"1.26": {"2022-12-09", "Electrifying"},
		"1.27": {"2023-04-11", ""},
		"1.28": {"2023-08-15", ""},
		"1.29": {"2023-12-13", "Mandala (The Universe)"},
		"1.30": {"2024-04-17", ""},
		"1.31": {"2024-08-13", ""},
		"1.32": {"2024-12-11", ""},
		"1.33": {"2025-04-23", "Octarine (The Color of Magic)"},
		"1.34": {"2025-08-27", "Of Wind & Will (O' WaW)"},
		"1.35": {"2025-12-17", "Timbernetes (World Tree Release)"},
		"1.36": {"2026-04-22", ""},
	}
	stamp := sharedStamp(t)
	for _, v := range sharedReleases {
		t.Run(v.String(), func(t *testing.T) {
			c, ws, err := ParsePage(v, "README.md", readShared(t, v, PageFile), stamp)
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != 0 {
				t.Errorf("warnings %v", ws)
			}
			w := want[v.String()]
			wantRel := []knowledge.Release{{Version: v, Date: w.date, Theme: w.theme, Sources: []string{PageSourceID(v)}}}
			if diff := cmp.Diff(wantRel, c.Releases); diff != "" {
				t.Errorf("release (-want +got):\n%s", diff)
			}
			wantSrc := []knowledge.Source{{
				ID: "sig-release/release-" + v.String() + "/README.md", Name: "Kubernetes " + v.String() + " release page (sig-release)",
				Kind: knowledge.SourceReleasePage, Lang: "en", AsOf: "2026-08-13",
				URL: "https://github.com/kubernetes/sig-release/blob/master/releases/release-" + v.String() + "/README.md",
			}}
			if diff := cmp.Diff(wantSrc, c.Sources); diff != "" {
				t.Errorf("source (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseHeading(t *testing.T) {
	tests := []struct {
		heading string
		version string
		theme   string
	}{
		{"Kubernetes v1.34: Of Wind & Will (O' WaW)", "1.34", "Of Wind & Will (O' WaW)"},
		{"Kubernetes 1.25: Combiner", "1.25", "Combiner"},
		{"Kubernetes 1.29: Mandala (The Universe) ✨🌌", "1.29", "Mandala (The Universe)"},
		{"Timbernetes v1.35 - World Tree Release", "1.35", "Timbernetes (World Tree Release)"},
		{"Kubernetes v1.36", "1.36", ""},
		{"Kubernetes v1.40 — Sea Glass", "1.40", "Sea Glass"},
		{"🚀 Kubernetes v1.41: **Lift Off** 🚀", "1.41", "Lift Off"},
		{"Otternetes v1.42", "1.42", "Otternetes"},
		{"[Kubernetes v1.43](https://example.invalid): Pine", "1.43", "Pine"},
		{"Release Information", "", ""},
	}
	for _, tt := range tests {
		h, _ := firstHeading([]string{"# " + tt.heading})
		v, theme := parseHeading(h)
		if v.String() != tt.version || theme != tt.theme {
			t.Errorf("parseHeading(%q) = %s, %q; want %s, %q", tt.heading, v, theme, tt.version, tt.theme)
		}
	}
}

func TestParsePageForms(t *testing.T) {
	v := knowledge.MustVersion("1.40")
	stamp := provenance.Stamp{Commit: "abcdef1", Date: "2030-01-02"}
	tests := []struct {
		name     string
		page     string
		date     string
		theme    string
		warnings []string // each a word a warning must hold, in order
	}{
		{"summary line", "# Kubernetes v1.40: Quartz\n\n- **Wednesday 22nd April 2026**: Week 15 — Kubernetes v1.40.0 released\n", "2026-04-22", "Quartz", nil},
		{"table row", "# Kubernetes v1.40\n\n| What | Who | When |\n|---|---|---|\n| **v1.40.0 released** | Branch Manager | Tuesday 1st December 2026 | week 14 |\n", "2026-12-01", "", nil},
		{"month first", "# Kubernetes v1.40\n\nKubernetes v1.40.0 released on April 22, 2026.\n", "2026-04-22", "", nil},
		{"ISO", "# Kubernetes v1.40\n\n* 2026-04-22: v1.40.0 released\n", "2026-04-22", "", nil},
		{"AoE with UTC alternate", "# Kubernetes v1.40\n\n- **Thursday 9th October 2025 (AoE) / Friday 10th October 2025, 12:00 UTC**: v1.40.0 released\n", "2025-10-09", "", nil},
		{"release candidates are not the release", "# Kubernetes v1.40\n\n- Monday 6th April 2026: v1.40.0-rc.0 released\n- Wednesday 22nd April 2026: v1.40.0 released\n", "2026-04-22", "", nil},
		{"two days disagree", "# Kubernetes v1.40\n\n- Wednesday 22nd April 2026: Kubernetes v1.40.0 released\n\n| **v1.40.0 released** | BM | Thursday 23rd April 2026 |\n", "2026-04-22", "", []string{"kept 2026-04-22"}},
		{"wrong weekday", "# Kubernetes v1.40\n\n- Friday 22nd April 2026: Kubernetes v1.40.0 released\n", "2026-04-22", "", []string{"Friday"}},
		{"no release line", "# Kubernetes v1.40\n\nDates to come.\n", "", "", []string{"no line"}},
		{"front matter and fences", "---\ntitle: x\n# not the heading\n---\n```\n# not this either\n```\n# Kubernetes v1.40: Real\n- 2026-04-22 v1.40.0 released\n", "2026-04-22", "Real", nil},
		{"heading of another release", "# Kubernetes v1.41: Other\n- 2026-04-22 v1.40.0 released\n", "2026-04-22", "Other", []string{"names 1.41"}},
		{"a line too long to read", "# Kubernetes v1.40: Long\n- 2026-04-22 v1.40.0 released" + strings.Repeat(" ", maxLineBytes) + "\n", "", "Long", []string{"no line"}},
		{"CRLF and BOM", "\uFEFF# Kubernetes v1.40: Crlf\r\n\r\n- 2026-04-22 v1.40.0 released\r\n", "2026-04-22", "Crlf", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ws, err := ParsePage(v, "p.md", []byte(tt.page), stamp)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Releases) != 1 || c.Releases[0].Date != tt.date || c.Releases[0].Theme != tt.theme || c.Releases[0].Version != v {
				t.Errorf("releases %+v, want 1.40 of %q themed %q", c.Releases, tt.date, tt.theme)
			}
			if len(c.Sources) != 1 || c.Sources[0].AsOf != "2030-01-02" {
				t.Errorf("sources %+v", c.Sources)
			}
			if len(ws) != len(tt.warnings) {
				t.Fatalf("warnings %v, want %d", ws, len(tt.warnings))
			}
			for i, w := range tt.warnings {
				if !strings.Contains(ws[i].Problem, w) || ws[i].File != "p.md" {
					t.Errorf("warning %v, want one of p.md saying %q", ws[i], w)
				}
			}
		})
	}
}

func TestParsePageVersionFromHeading(t *testing.T) {
	c, _, err := ParsePage(knowledge.Version{}, "p.md", []byte("# Kubernetes v1.41\n- 2026-08-01: v1.41.0 released\n"), provenance.Stamp{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Releases[0].Version.String() != "1.41" || c.Releases[0].Date != "2026-08-01" || c.Sources[0].AsOf != "" {
		t.Errorf("got %+v %+v", c.Releases, c.Sources)
	}
}

func TestParsePageRejects(t *testing.T) {
	tests := []struct {
		name    string
		release knowledge.Version
		data    []byte
		want    error
	}{
		{"empty", v140, nil, ErrEmpty},
		{"too large", v140, bytes.Repeat([]byte("# x\n"), MaxPageSize), ErrTooLarge},
		{"NUL bytes", v140, []byte("# Kubernetes v1.40\x00"), ErrNotUTF8},
		{"Latin-1", v140, []byte("# Kubernetes v1.40: Caf\xe9\n"), ErrNotUTF8},
		{"no release anywhere", knowledge.Version{}, []byte("# Release information\n"), ErrNoRelease},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := ParsePage(tt.release, "p.md", tt.data, provenance.Stamp{})
			if !errors.Is(err, tt.want) || c != nil {
				t.Fatalf("got %v, %v; want error %v", c, err, tt.want)
			}
			if !strings.Contains(err.Error(), "p.md") {
				t.Errorf("error %q should name the page", err)
			}
		})
	}
}

// TestParsePageWithoutHeading: a page with no heading is passed over with
// a Skip and a warning, not a release of unknown name.
func TestParsePageWithoutHeading(t *testing.T) {
	for _, page := range []string{"Just words.\n", "---\ntitle: Kubernetes v1.40\n---\n## Summary\n- 2026-04-22 v1.40.0 released\n", "```\n# in code\n```\n"} {
		c, ws, err := ParsePage(v140, "p.md", []byte(page), provenance.Stamp{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Releases) != 0 || len(c.Sources) != 0 || len(c.Skipped) != 1 || c.Skipped[0].Path != "p.md" || len(ws) != 1 {
			t.Errorf("%q: got %+v, warnings %v; want one Skip of p.md and a warning", page, c, ws)
		}
	}
}

func TestPageRelease(t *testing.T) {
	for page, want := range map[string]string{
		tinyPage: "1.40",
		"# Kubernetes v1.40: Tiny\nNo date yet.\n":                                                 "",
		"# kepbot\n- 2026-04-22: Kubernetes v1.40.0 released\n":                                    "",
		"---\ntitle: 'Kubernetes v1.31: Elli'\n---\nAnnouncing the release of Kubernetes v1.31.\n": "",
	} {
		v, ok := PageRelease([]byte(page))
		if v.String() != want || ok != (want != "") {
			t.Errorf("PageRelease(%q) = %s, %v; want %q", page, v, ok, want)
		}
	}
}
