package engine_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// relnotesTruth reads the deprecation entries of one release's notes as
// data straight from ../shared, apart from the parser: their PR numbers.
func relnotesTruth(t *testing.T, v string) []int {
	t.Helper()
	b, err := os.ReadFile(sharedtest.Path(t, "data", "sig-release", "releases", "release-"+v, "release-notes", "release-notes-draft.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries map[string]struct {
		PR           int      `json:"pr_number"`
		Kinds        []string `json:"kinds"`
		DoNotPublish bool     `json:"do_not_publish"`
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		if !e.DoNotPublish && slices.Contains(e.Kinds, "deprecation") {
			out = append(out, e.PR)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestReleaseNotesAndLifecycleFigures: issue 11's questions, over the
// whole of ../shared and over the built-in snapshot alone.
func TestReleaseNotesAndLifecycleFigures(t *testing.T) {
	day := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for name, e := range fullEngines(t, engine.WithClock(func() time.Time { return day })) {
		t.Run(name, func(t *testing.T) {
			for v, want := range map[string][2]string{
				"1.33": {"2025-04-23", "Octarine"}, "1.34": {"2025-08-27", "Of Wind & Will"},
				"1.35": {"2025-12-17", "Timbernetes"}, "1.36": {"2026-04-22", ""},
			} {
				a := ask(t, e, v)
				if a.Release == nil || a.Release.Date != want[0] || !strings.HasPrefix(a.Release.Theme, want[1]) {
					t.Errorf("%s = %+v; want released %s, theme %q", v, a.Release, want[0], want[1])
				}
			}
			if a := ask(t, e, "1.35 action required"); len(a.Notices) == 0 || a.Notices[0].PR == 0 || a.Notices[0].Kind != knowledge.NoticeUpgrade {
				t.Errorf("1.35 action required = %q %+v", a.Text, a.Notices)
			}
			u := ask(t, e, "upgrade 1.33 1.35")
			for _, n := range u.Notices {
				if n.Release.String() != "1.34" && n.Release.String() != "1.35" {
					t.Errorf("upgrade 1.33 1.35 lists a notice of %s: %s", n.Release, n.Title)
				}
			}
			if !strings.Contains(u.Text, "through 1.34, 1.35") {
				t.Errorf("upgrade 1.33 1.35: %q", u.Text)
			}
			if k := ask(t, e, "kep 3104"); k.KEP == nil || len(k.KEP.ReleaseNotes) == 0 {
				t.Errorf("kep 3104 names no release-note entry: %+v", k.KEP)
			}
			if a := ask(t, e, "1.31 eol"); !strings.Contains(a.Text, "reached end of life on 2025-11-11") {
				t.Errorf("1.31 eol: %q", a.Text)
			}
			if a := ask(t, e, "1.30 patches"); !strings.Contains(a.Text, "1.30.14 (2025-06-17, per the patch list") || len(a.Facts) == 0 || a.Facts[0].Name != "1.30.14" {
				t.Errorf("1.30 patches: %q %+v", a.Text, a.Facts)
			}
			if a := ask(t, e, "supported"); !strings.Contains(a.Text, "1.36 and 1.35 are supported") {
				t.Errorf("supported on %s: %q", day.Format(time.DateOnly), a.Text)
			}
			if a := ask(t, e, "1.38 deprecations"); !strings.Contains(a.Text, "I hold no release notes of 1.38 yet") {
				t.Errorf("1.38 deprecations says nothing of what it lacks: %q", a.Text)
			}
		})
	}
}

func listsPR(a *knowledge.Answer, pr int) bool {
	for _, n := range a.Notices {
		if n.PR == pr {
			return true
		}
	}
	return false
}
