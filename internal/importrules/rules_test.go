package importrules

import (
	"os"
	"strings"
	"testing"
)

// TestLayoutKeepsItsImportRules reads every package of the module and
// fails on any import a rule forbids.
func TestLayoutKeepsItsImportRules(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[p.Dir] = true
	}
	for _, must := range []string{"knowledge", "knowledge/question", "adapters/slack", "adapters/discord", "store", "cmd/bot"} {
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
