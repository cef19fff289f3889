package importrules

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLayoutKeepsItsImportRules reads every package of the module and
// fails on any import a rule forbids.
func TestLayoutKeepsItsImportRules(t *testing.T) {
	_, pkgs := modulePackages(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.Dir] = true
	}
	for _, must := range []string{"knowledge", "knowledge/question", "adapters/slack", "adapters/discord", "store", "cmd/bot", "cmd/bot/internal/app", "internal/config"} {
		if !seen[must] {
			t.Errorf("read no package %s: the walk missed part of the module (%d packages read)", must, len(pkgs))
		}
	}
	for _, v := range Check(pkgs) {
		t.Error(v)
	}
}

// TestRulesCatchEachBreak: each rule fails a package that breaks it, and
// passes the imports kepbot is meant to have.
func TestRulesCatchEachBreak(t *testing.T) {
	m := Module + "/"
	for _, tc := range []struct {
		dir, imp, rule string // rule "" when allowed
	}{
		{"knowledge", "strings", ""},
		{"knowledge", m + "knowledge/internal/flat", ""},
		{"knowledge", m + "store", "knowledge root"},
		{"knowledge", "github.com/rs/zerolog", "knowledge root"},
		{"knowledge", m + "knowledge/question", "knowledge root"},
		{"knowledge/question", m + "knowledge", ""},
		{"knowledge/question", m + "adapters/slack", "never imports an adapter"},
		{"knowledge/sources/refresh", m + "store", ""},
		{"adapters/slack", m + "adapters/discord", "another adapter"},
		{"adapters/slack/replayetcd", m + "adapters/slack", ""},
		{"adapters/discord", m + "adapters/internal/download", ""},
		{"adapters/discord", m + "store/etcdstore", "the store"},
		{"adapters/slack", m + "knowledge/sources/fetch", "the sources"},
		{"adapters/slack", m + "knowledge", ""},
		{"store", m + "cmd/bot", "imports cmd"},
		{"cmd/bot", m + "store", ""},
		{"cmd/bot", m + "cmd/bot/internal/app", ""},
		{"cmd/bot/internal/app", m + "cmd/bot/internal/admin", ""},
		{"cmd/bot/internal/app", m + "cmd/bot", "imports cmd"},
		{"cmd/other", m + "cmd/bot/internal/app", "imports cmd"},
		{"deploy/kubernetes", m + "cmd/bot/internal/app", "imports cmd"},
		{"internal/logging", m + "internal/config", ""},
		{"internal/kastest", m + "internal/etcdtest", ""},
		{"internal/config", "go.yaml.in/yaml/v3", ""},
		{"internal/sharedtest", m + "knowledge", "nothing of the application"},
		{"internal/metrics", m + "knowledge/sources/refresh", "nothing of the application"},
		{"internal/config", m + "adapters/discord", "nothing of the application"},
		{"internal/platform", m + "store", "nothing of the application"},
		{"internal/etcdtest/devetcd", m + "cmd/bot/internal/app", "imports cmd"},
	} {
		got := Check([]Package{{Dir: tc.dir, Imports: []string{tc.imp}}})
		switch {
		case tc.rule == "" && len(got) > 0:
			t.Errorf("%s importing %s: %v; want it allowed", tc.dir, tc.imp, got)
		case tc.rule != "" && (len(got) != 1 || !strings.Contains(got[0].Rule, tc.rule)):
			t.Errorf("%s importing %s: %v; want the rule %q broken", tc.dir, tc.imp, got, tc.rule)
		}
	}
}

// TestDocsSayTheirImports: every package has a package comment, and one
// that says what its package imports ("It imports ...") names exactly the
// module's packages it imports, so the docs stay true as code moves.
func TestDocsSayTheirImports(t *testing.T) {
	root, pkgs := modulePackages(t)
	checked := 0
	for _, p := range pkgs {
		comment, found, err := packageComment(filepath.Join(root, filepath.FromSlash(p.Dir)))
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Errorf("%s has no package comment (a doc.go saying what it holds and imports)", p.Dir)
			continue
		}
		listed, ok := docImports(comment)
		if !ok {
			continue
		}
		checked++
		var actual []string
		for _, imp := range p.Imports {
			if own, in := strings.CutPrefix(imp, Module+"/"); in {
				actual = append(actual, own)
			}
		}
		slices.Sort(listed)
		listed = slices.Compact(listed)
		if !slices.Equal(listed, actual) {
			t.Errorf("%s/doc.go says it imports %q; it imports %q", p.Dir, listed, actual)
		}
	}
	if checked < 30 {
		t.Errorf("only %d doc.go files say what they import", checked)
	}
}

func TestDocImports(t *testing.T) {
	for _, tt := range []struct {
		comment string
		want    []string
		ok      bool
	}{
		{"Package x does y.\n\nIt imports knowledge, knowledge/sources/relnotes. It may import the\nknowledge root.", []string{"knowledge", "knowledge/sources/relnotes"}, true},
		{"It imports no package of the module. It may import anything.", nil, true},
		{"Package x.", nil, false},
	} {
		got, ok := docImports(tt.comment)
		if ok != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("docImports(%q) = %q, %v; want %q, %v", tt.comment, got, ok, tt.want, tt.ok)
		}
	}
}

// modulePackages reads every package of the module this test runs in.
func modulePackages(t *testing.T) (root string, pkgs []Package) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if root, err = ModuleRoot(wd); err != nil {
		t.Fatal(err)
	}
	if pkgs, err = Read(root); err != nil {
		t.Fatal(err)
	}
	return root, pkgs
}
