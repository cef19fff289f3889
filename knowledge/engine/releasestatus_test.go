package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/engine"
)

// patchTruth reads, apart from the parsers, the newest patch of release
// minor each raw source names: endoflife.date's patch list, and the
// k8s.io/api module version SOURCE.md says was read for it, with that
// module's publication day.
func patchTruth(t *testing.T, minor int) (list int, api int, apiDay string) {
	t.Helper()
	b, err := os.ReadFile(sharedtest.Path(t, "data", "lifecycle", "kubernetes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Versions map[string]struct{ Name string } `json:"versions"`
	}
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf("1.%d.", minor)
	list = -1
	for name := range data.Versions {
		if n, err := strconv.Atoi(strings.TrimPrefix(name, prefix)); err == nil && strings.HasPrefix(name, prefix) && n > list {
			list = n
		}
	}
	src, err := os.ReadFile(sharedtest.Path(t, "data", "api-lifecycle", "SOURCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(fmt.Sprintf(`\| 1\.%d \| v0\.%d\.(\d+) \| (\d{4}-\d\d-\d\d) \|`, minor, minor)).FindSubmatch(src)
	if m == nil {
		t.Fatalf("api-lifecycle/SOURCE.md names no module version for 1.%d", minor)
	}
	api, _ = strconv.Atoi(string(m[1]))
	return list, api, string(m[2])
}

// One answer to "the newest patch of 1.N" and "which releases are out"
// (issue 30, point 4): the newest any raw source names, with its source
// and date, the same in `1.N patches`, `1.N eol`, the release card,
// `latest` and `supported`; `supported` names 1.37, which k8s.io/api's
// tags say is out though the lifecycle data stops at 1.36; every release
// of `releases` is dated as its card is.
func TestNewestPatchAndReleasesAgree(t *testing.T) {
	day := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	newest := newestReleased(t)
	for name, e := range fullEngines(t, engine.WithClock(func() time.Time { return day })) {
		t.Run(name, func(t *testing.T) {
			for _, minor := range []int{35, 36} {
				list, api, apiDay := patchTruth(t, minor)
				want := fmt.Sprintf("1.%d.%d", minor, max(list, api))
				if api <= list {
					t.Fatalf("the test expects k8s.io/api's tag to be newer than the patch list for 1.%d", minor)
				}
				words := fmt.Sprintf("%s (per the k8s.io/api v0.%d.%d tag, as of %s)", want, minor, api, apiDay)
				for _, q := range []string{"1.%d patches", "1.%d eol", "1.%d", "latest", "supported"} {
					if strings.Contains(q, "%d") {
						q = fmt.Sprintf(q, minor)
					}
					if text := answerText(ask(t, e, q)); !strings.Contains(text, words) {
						t.Errorf("%s does not name %s: %s", q, words, text)
					}
				}
				if text := answerText(ask(t, e, fmt.Sprintf("1.%d patches", minor))); !strings.Contains(text, fmt.Sprintf("1.%d.%d as the latest", minor, list)) {
					t.Errorf("1.%d patches does not say the patch list stops at 1.%d.%d: %s", minor, minor, list, text)
				}
			}
			sup := ask(t, e, "supported")
			if !strings.Contains(sup.Text, newest.String()) || len(sup.Facts) == 0 || sup.Facts[0].Name != newest.String() {
				t.Errorf("supported on %s: %q %+v; want %s, out by k8s.io/api's tags, first", day.Format(time.DateOnly), sup.Text, sup.Facts, newest)
			}
			if l := ask(t, e, "latest"); !strings.HasPrefix(l.Text, "The newest Kubernetes release out is "+newest.String()) {
				t.Errorf("latest: %q; want %s", l.Text, newest)
			}
			for _, r := range ask(t, e, "releases").Releases {
				card := ask(t, e, r.Version)
				if card.Release == nil || card.Release.Date != r.Date {
					t.Errorf("releases dates %s %s; its card %+v", r.Version, r.Date, card.Release)
				}
			}
		})
	}
}
