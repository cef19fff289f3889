package featuregates

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// goFile is what one Go file of a module says about feature gates: its
// constants (a gate's name is its constant's string value), its imports
// (a map entry may name another package's constant), and the entries of
// the maps that declare gates.
type goFile struct {
	name    string // the file's path inside its module, for notes
	module  string // the Go module it belongs to: k8s.io/apiserver
	pkg     string // its package's import path: k8s.io/apiserver/pkg/features
	kubeadm bool   // kubeadm's own features package (cmd/kubeadm/app/features)
	consts  map[string]string
	bools   map[string]bool
	imports map[string]string // name used in the file → import path
	entries []entry
	// problems are entries or values that could not be read: each is a
	// note, and the rest of the file is read.
	problems []string
}

// entry is one gate a map declares: the constant that names it and its
// specs, oldest version first as the code lists them.
type entry struct {
	key   string // the constant's identifier (or, for a string key, the name itself)
	pkg   string // the import path of the package holding the constant; "" for the file's own
	named bool   // key is the name itself (a string literal key)
	specs []spec
	line  int
}

// spec is one FeatureSpec: unversioned (zero version, it holds in any
// release) or from its version on. A spec with a MinCompatibilityVersion
// holds only where the release's default compatibility version (the
// previous release) is at least that.
type spec struct {
	version   knowledge.Version
	minCompat knowledge.Version
	knowledge.GateSpec
}

// mapKind is which shape of map a composite literal is.
type mapKind int

const (
	notGates    mapKind = iota
	unversioned         // map[featuregate.Feature]featuregate.FeatureSpec
	versioned           // map[featuregate.Feature]featuregate.VersionedSpecs
	kubeadmList         // kubeadm's FeatureList: map[string]Feature{FeatureSpec: ...}
)

// parseGo reads one Go file with go/parser. It fails only when the file is
// not Go; entries it cannot read are problems.
func parseGo(module, name string, src []byte) (*goFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("not Go source: %w", err)
	}
	dir := path.Dir(name)
	g := &goFile{name: name, module: module, pkg: module, consts: map[string]string{}, bools: map[string]bool{}, imports: map[string]string{}}
	if dir != "." {
		g.pkg = module + "/" + dir
	}
	g.kubeadm = module == KubernetesModule && strings.HasPrefix(name, "cmd/kubeadm/")
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		n := path.Base(p)
		if im.Name != nil {
			n = im.Name.Name
		}
		g.imports[n] = p
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			g.readConsts(gd)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		k := g.kindOf(cl.Type)
		if k == notGates {
			return true
		}
		for _, el := range cl.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				g.problem(fset, el, "a map element without a key")
				continue
			}
			e, ok := g.readKey(kv.Key)
			if !ok {
				g.problem(fset, kv.Key, "a key that is neither a constant nor a name")
				continue
			}
			e.line = fset.Position(kv.Pos()).Line
			specs, why := g.readValue(k, kv.Value)
			if why != "" {
				g.problem(fset, kv, "gate "+e.key+": "+why)
				continue
			}
			e.specs = specs
			g.entries = append(g.entries, e)
		}
		return false
	})
	return g, nil
}

func (g *goFile) problem(fset *token.FileSet, n ast.Node, what string) {
	g.problems = append(g.problems, fmt.Sprintf("%s:%d: %s; passed over", g.name, fset.Position(n.Pos()).Line, what))
}

// readConsts records a const block's string constants (typed
// featuregate.Feature, untyped, or featuregate.Feature("X")) and its bool
// constants (a default written as a constant).
func (g *goFile) readConsts(gd *ast.GenDecl) {
	for _, s := range gd.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i, id := range vs.Names {
			if i >= len(vs.Values) {
				break
			}
			v := vs.Values[i]
			if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 && typeName(call.Fun) == "Feature" {
				v = call.Args[0]
			}
			switch x := v.(type) {
			case *ast.BasicLit:
				if x.Kind == token.STRING {
					if s, err := strconv.Unquote(x.Value); err == nil {
						g.consts[id.Name] = s
					}
				}
			case *ast.Ident:
				if x.Name == "true" || x.Name == "false" {
					g.bools[id.Name] = x.Name == "true"
				}
			}
		}
	}
}

// typeName is the last name of a type expression: Feature for
// featuregate.Feature and Feature alike; "" for anything but a name.
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func (g *goFile) kindOf(t ast.Expr) mapKind {
	if g.kubeadm && typeName(t) == "FeatureList" {
		return kubeadmList
	}
	mt, ok := t.(*ast.MapType)
	if !ok || typeName(mt.Key) != "Feature" {
		return notGates
	}
	switch typeName(mt.Value) {
	case "FeatureSpec":
		return unversioned
	case "VersionedSpecs":
		return versioned
	}
	return notGates // the dependencies map: map[Feature][]Feature
}

// readKey reads a map key: a constant of the file's package (Name), of
// another (genericfeatures.Name), or a string.
func (g *goFile) readKey(k ast.Expr) (entry, bool) {
	switch x := k.(type) {
	case *ast.Ident:
		return entry{key: x.Name}, true
	case *ast.SelectorExpr:
		pkg, ok := x.X.(*ast.Ident)
		if !ok {
			return entry{}, false
		}
		p, ok := g.imports[pkg.Name]
		if !ok {
			return entry{}, false
		}
		return entry{key: x.Sel.Name, pkg: p}, true
	case *ast.BasicLit:
		if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && s != "" {
			return entry{key: s, named: true}, true
		}
	}
	return entry{}, false
}

// readValue reads a map value of kind k into specs; why says what could
// not be read.
func (g *goFile) readValue(k mapKind, v ast.Expr) ([]spec, string) {
	cl, ok := v.(*ast.CompositeLit)
	if !ok {
		return nil, "its spec is not written out"
	}
	switch k {
	case unversioned:
		s, why := g.readSpec(cl, false)
		return []spec{s}, why
	case kubeadmList:
		for _, el := range cl.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if ok && typeName(kv.Key) == "FeatureSpec" {
				inner, ok := kv.Value.(*ast.CompositeLit)
				if !ok {
					return nil, "its FeatureSpec is not written out"
				}
				s, why := g.readSpec(inner, false)
				return []spec{s}, why
			}
		}
		return nil, "it has no FeatureSpec"
	}
	var out []spec
	for _, el := range cl.Elts {
		inner, ok := el.(*ast.CompositeLit)
		if !ok {
			return nil, "a versioned spec is not written out"
		}
		s, why := g.readSpec(inner, true)
		if why != "" {
			return nil, why
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, "it has no versioned spec"
	}
	return out, ""
}

// readSpec reads a FeatureSpec literal: Default, PreRelease,
// LockToDefault, and for a versioned one Version and
// MinCompatibilityVersion. A PreRelease left out is GA, as in
// k8s.io/component-base.
func (g *goFile) readSpec(cl *ast.CompositeLit, versionedSpec bool) (spec, string) {
	s := spec{GateSpec: knowledge.GateSpec{Stage: knowledge.GateGA}}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return s, "a spec field without a name"
		}
		field := typeName(kv.Key)
		switch field {
		case "Default", "LockToDefault":
			b, ok := g.boolOf(kv.Value)
			if !ok {
				return s, field + " is not true, false or a constant of them"
			}
			if field == "Default" {
				s.Default = b
			} else {
				s.Locked = b
			}
		case "PreRelease":
			st, ok := knowledge.ParseGateStage(typeName(kv.Value))
			if !ok {
				return s, "PreRelease is not Alpha, Beta, GA or Deprecated"
			}
			s.Stage = st
		case "Version", "MinCompatibilityVersion":
			v, ok := mustParse(kv.Value)
			if !ok {
				return s, field + " is not version.MustParse(\"1.N\")"
			}
			if field == "Version" {
				s.version = v
			} else {
				s.minCompat = v
			}
		}
	}
	if versionedSpec && s.version.IsZero() {
		return s, "a versioned spec has no Version"
	}
	return s, ""
}

func (g *goFile) boolOf(e ast.Expr) (bool, bool) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false, false
	}
	switch id.Name {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	b, ok := g.bools[id.Name]
	return b, ok
}

// mustParse reads version.MustParse("1.29").
func mustParse(e ast.Expr) (knowledge.Version, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || typeName(call.Fun) != "MustParse" {
		return knowledge.Version{}, false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return knowledge.Version{}, false
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return knowledge.Version{}, false
	}
	v, err := knowledge.ParseVersion(s)
	return v, err == nil
}

// at returns the spec that holds in release v: the newest whose version is
// not after v (an unversioned spec holds in any release; of two of one
// version, the later listed), leaving out a spec whose
// MinCompatibilityVersion is after v's default compatibility version (the
// release before v). ok is false when none holds: the gate is not yet
// available in v.
func at(specs []spec, v knowledge.Version) (knowledge.GateSpec, bool) {
	var best *spec
	for i := range specs {
		s := &specs[i]
		if !s.version.IsZero() && v.Less(s.version) {
			continue
		}
		if !s.minCompat.IsZero() && !s.minCompat.Less(v) {
			continue
		}
		if best == nil || !s.version.Less(best.version) {
			best = s
		}
	}
	if best == nil {
		return knowledge.GateSpec{}, false
	}
	return best.GateSpec, true
}
