package importrules

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Module is kepbot's module path.
const Module = "github.com/kepbot/kepbot"

// Package is one package of the module as the rules see it: its path
// inside the module ("knowledge/question") and what its non-test files
// import.
type Package struct {
	Dir     string
	Imports []string
}

// Violation is one import a rule forbids.
type Violation struct {
	Dir, Import, Rule string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s imports %s: %s", v.Dir, v.Import, v.Rule)
}

// Check returns every import of pkgs a rule forbids, sorted.
func Check(pkgs []Package) []Violation {
	var out []Violation
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if rule := broken(p.Dir, imp); rule != "" {
				out = append(out, Violation{Dir: p.Dir, Import: imp, Rule: rule})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// broken names the rule importing imp from dir breaks, "" for none.
func broken(dir, imp string) string {
	own, inModule := strings.CutPrefix(imp, Module+"/")
	std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
	under := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	switch {
	case inModule && under(own, "cmd") && !(under(dir, commandOf(own)) && strings.HasPrefix(own, commandOf(own)+"/internal/")):
		return "nothing imports cmd but a command its own cmd/NAME/internal"
	case under(dir, "internal") && inModule && !under(own, "internal"):
		return "internal/ (plumbing and test kits) imports nothing of the application, only other internal/ packages"
	case dir == "knowledge" && !std && !(inModule && under(own, "knowledge/internal")):
		return "the knowledge root imports only the standard library and knowledge/internal"
	case under(dir, "knowledge") && inModule && under(own, "adapters"):
		return "knowledge never imports an adapter"
	case under(dir, "adapters") && inModule && under(own, "adapters") && !under(own, "adapters/internal") && adapterOf(own) != adapterOf(dir):
		return "an adapter never imports another adapter"
	case under(dir, "adapters") && inModule && under(own, "store"):
		return "an adapter never imports the store"
	case under(dir, "adapters") && inModule && under(own, "knowledge/sources"):
		return "an adapter never imports the sources"
	}
	return ""
}

// commandOf is the command a path inside cmd/ belongs to: "cmd/bot" for
// cmd/bot/internal/app.
func commandOf(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if len(parts) < 2 {
		return p
	}
	return parts[0] + "/" + parts[1]
}

// adapterOf is the adapter a path inside adapters/ belongs to: "slack" for
// adapters/slack/replayetcd.
func adapterOf(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// Read walks the module rooted at root and returns each package with the
// imports of its non-test Go files. testdata folders and hidden folders
// are skipped, as the go command skips them.
func Read(root string) ([]Package, error) {
	byDir := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		dir := path.Clean(filepath.ToSlash(rel))
		if byDir[dir] == nil {
			byDir[dir] = map[string]bool{}
		}
		for _, s := range f.Imports {
			imp, err := strconv.Unquote(s.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			byDir[dir][imp] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Package
	for dir, imps := range byDir {
		p := Package{Dir: dir}
		for imp := range imps {
			p.Imports = append(p.Imports, imp)
		}
		sort.Strings(p.Imports)
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return out, nil
}

// ModuleRoot finds the folder of kepbot's go.mod from dir upwards.
func ModuleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(b), "module "+Module+"\n") {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod of %s above %s", Module, dir)
		}
	}
}
