package metrics

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kepbot/kepbot/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite docs/operations.md's table of metrics from Catalog")

// descRE reads what a *prometheus.Desc says of itself.
var descRE = regexp.MustCompile(`^Desc\{fqName: "([^"]+)", help: "((?:[^"\\]|\\.)*)", (?:unit: "[^"]*", )?constLabels: \{[^}]*\}, variableLabels: \{([^}]*)\}\}$`)

// TestCatalogIsWhatIsRegistered: every kepbot_* metric that New, Sources,
// Delivery and Cluster register is in Catalog with its name, labels and
// help, and nothing else is: docs/operations.md's table, made from Catalog, lists
// what /metrics serves.
func TestCatalogIsWhatIsRegistered(t *testing.T) {
	m := New("test")
	m.Sources()
	m.Delivery()
	m.Cluster()
	ch := make(chan *prometheus.Desc, 256)
	m.Registry().Describe(ch)
	close(ch)
	got := map[string]Spec{}
	for d := range ch {
		sm := descRE.FindStringSubmatch(d.String())
		if sm == nil {
			t.Fatalf("cannot read %s", d)
		}
		if !strings.HasPrefix(sm[1], "kepbot_") {
			continue
		}
		var labels []string
		if sm[3] != "" {
			labels = strings.Split(sm[3], ",")
		}
		got[sm[1]] = Spec{Name: sm[1], Help: strings.ReplaceAll(sm[2], `\"`, `"`), Labels: labels}
	}
	names := map[string]bool{}
	for _, s := range Catalog() {
		names[s.Name] = true
		g, ok := got[s.Name]
		switch {
		case !ok:
			t.Errorf("%s is in the catalog but not registered", s.Name)
		case g.Help != s.Help || !slices.Equal(g.Labels, s.Labels):
			t.Errorf("%s registered as %+v; the catalog says %+v", s.Name, g, s)
		}
		if s.Type != Counter && s.Type != Gauge && s.Type != Histogram {
			t.Errorf("%s: type %q", s.Name, s.Type)
		}
		if (s.Type == Counter) != strings.HasSuffix(s.Name, "_total") {
			t.Errorf("%s is a %s: only counters end in _total", s.Name, s.Type)
		}
	}
	for name := range got {
		if !names[name] {
			t.Errorf("%s is registered but not in the catalog (nor the README)", name)
		}
	}
}

// TestMetricsTable: docs/operations.md's table of metrics is Catalog's.
// `go test ./internal/metrics -run TestMetricsTable -update` rewrites it.
func TestMetricsTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("| metric | type | labels | meaning |\n|---|---|---|---|\n")
	for _, s := range Catalog() {
		labels := "–"
		if len(s.Labels) > 0 {
			labels = "`" + strings.Join(s.Labels, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.Name, s.Type, labels, strings.ReplaceAll(s.Help, "|", `\|`))
	}
	goldentest.CompareSection(t, "../../docs/operations.md", "metrics", "go test ./internal/metrics -run TestMetricsTable -update", []byte(b.String()), *update)

	// Every metric the docs name elsewhere (the example alerts, the prose
	// of every page) is one of the catalog's.
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, s := range Catalog() {
		known[s.Name] = true
	}
	for _, page := range append(pages, "../../README.md", "../../CONTRIBUTING.md", "../../deploy/README.md") {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range regexp.MustCompile(`kepbot_[a-z_]*[a-z]`).FindAllString(string(text), -1) {
			if !known[strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")] {
				t.Errorf("%s names %s, which kepbot does not serve", filepath.Base(page), name)
			}
		}
	}
}
