package featuregates

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// The modules whose code declares feature gates.
const (
	KubernetesModule    = "k8s.io/kubernetes"
	APIServerModule     = "k8s.io/apiserver"
	APIExtensionsModule = "k8s.io/apiextensions-apiserver"
	ClientGoModule      = "k8s.io/client-go"
	ComponentBaseModule = "k8s.io/component-base"
	ControllerMgrModule = "k8s.io/controller-manager"
)

// moduleOrder is which module a gate several declare is said to belong to:
// the staging library before k8s.io/kubernetes, which relists their gates.
var moduleOrder = []string{APIServerModule, APIExtensionsModule, ControllerMgrModule, ComponentBaseModule, ClientGoModule, KubernetesModule}

// listModules are the modules the generated list covers: every server gate
// the release builds in, not client-go's nor kubeadm's.
var listModules = []string{KubernetesModule, APIServerModule, APIExtensionsModule, ControllerMgrModule, ComponentBaseModule}

// File is one file of a module at a release: a Go file that declares gates
// or a generated list.
type File struct {
	Module string // k8s.io/kubernetes
	Path   string // inside the module: pkg/features/kube_features.go
	Data   []byte
}

// Wanted reports whether a file of module at path p is one the gates are
// read from: Go code of a features package (not tests), kubeadm's
// features, and the generated lists.
func Wanted(module, p string) bool {
	if isList(p) {
		return module == KubernetesModule
	}
	if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
		return false
	}
	dir := path.Dir(p)
	switch module {
	case KubernetesModule:
		return dir == "pkg/features" || dir == "cmd/kubeadm/app/features"
	case ClientGoModule:
		return dir == "features"
	case ComponentBaseModule:
		return dir == "logs" || dir == "logs/api/v1" || dir == "metrics/features" || dir == "zpages/features"
	}
	return dir == "pkg/features"
}

// Build reads one release's files into its gate table: from 1.32 on, the
// server gates from the generated list (its gates named by their Go
// constant given the constant's string, the name users set), and
// client-go's and kubeadm's from their Go code; before, every gate from the
// Go maps. modules are the modules read (their folders, or the zips
// fetched): a module read with no gate file declares none. What cannot be
// read is a Skip of source, and the rest is read.
func Build(v knowledge.Version, source string, modules []string, files []File) (knowledge.GateTable, []knowledge.Skip) {
	return build(v, source, modules, files, true)
}

// build is Build; with useList false, the generated list is passed over
// and every gate comes from the Go maps (a test compares the two).
func build(v knowledge.Version, source string, modules []string, files []File, useList bool) (knowledge.GateTable, []knowledge.Skip) {
	b := &builder{v: v, source: source}
	var gos []*goFile
	var lists []listEntry
	hasList, hasKubeadm := false, false
	for _, f := range files {
		if isList(f.Path) {
			if !useList {
				continue
			}
			es, problems, err := parseList(f.Data)
			if err != nil {
				b.skip(f, err.Error())
				continue
			}
			hasList = true
			lists = append(lists, es...)
			for _, p := range problems {
				b.skip(f, p)
			}
			continue
		}
		g, err := parseGo(f.Module, f.Path, f.Data)
		if err != nil {
			b.skip(f, err.Error())
			continue
		}
		hasKubeadm = hasKubeadm || g.kubeadm
		for _, p := range g.problems {
			b.skips = append(b.skips, knowledge.Skip{Path: f.Module + "/" + p, Reason: "could not read a gate", Source: source})
		}
		gos = append(gos, g)
	}
	t := knowledge.GateTable{Release: v, Source: source, Components: slices.Clone(modules)}
	if hasList {
		t.Components = append(t.Components, listModules...)
		t.Listed = true
	}
	if hasKubeadm {
		t.Components = append(t.Components, knowledge.ComponentKubeadm)
	}
	slices.Sort(t.Components)
	t.Components = slices.Compact(t.Components)
	t.Gates = b.gates(gos, lists, hasList)
	return t, b.skips
}

type builder struct {
	v      knowledge.Version
	source string
	skips  []knowledge.Skip
}

func (b *builder) skip(f File, reason string) {
	b.skips = append(b.skips, knowledge.Skip{Path: f.Module + "/" + f.Path, Reason: reason, Source: b.source})
}

// decl is a gate one map declares, before the maps are joined.
type decl struct {
	knowledge.GateDecl
	local bool   // the map's own module declares the constant
	where string // file:line, for notes
	file  string // the module of the file whose map declares it (k8s.io/kubernetes relisting genericfeatures.X)
}

// gates joins the files' declarations: one per gate and component scope
// (kubeadm's apart), sorted by name.
func (b *builder) gates(gos []*goFile, lists []listEntry, hasList bool) []knowledge.GateDecl {
	consts := map[string]map[string]string{} // package → constant → name
	owners := map[string][]string{}          // name → modules whose constant it is
	for _, g := range gos {
		if consts[g.pkg] == nil {
			consts[g.pkg] = map[string]string{}
		}
		for id, s := range g.consts {
			consts[g.pkg][id] = s
			if !g.kubeadm {
				owners[s] = appendOnce(owners[s], g.module)
			}
		}
	}
	byName := map[string][]decl{}
	for _, g := range gos {
		for _, e := range g.entries {
			d := decl{where: fmt.Sprintf("%s/%s:%d", g.module, g.name, e.line), file: g.module}
			switch {
			case e.named:
				d.Name, d.Component, d.local = e.key, g.module, true
			case e.pkg == "":
				d.Name, d.Component, d.local = nameOf(consts[g.pkg], e.key), g.module, true
			default:
				d.Name, d.Component = nameOf(consts[e.pkg], e.key), moduleOf(e.pkg)
			}
			if !e.named && e.key != d.Name && !strings.EqualFold(e.key, d.Name) {
				d.Constant = e.key // CPUCFSQuotaPeriod declares CustomCPUCFSQuotaPeriod
			}
			if g.kubeadm {
				d.Component = knowledge.ComponentKubeadm
			}
			spec, ok := at(e.specs, b.v)
			if !ok {
				continue // not yet available in this release
			}
			d.GateSpec = spec
			if hasList && !g.kubeadm && d.Component != ClientGoModule {
				// the generated list says what the server gates are; the
				// maps only say which module declares them
				byName["\x00"+d.Name] = append(byName["\x00"+d.Name], d)
				continue
			}
			byName[key(d.GateDecl)] = append(byName[key(d.GateDecl)], d)
		}
	}
	if hasList {
		goNames := map[string]string{} // a constant's identifier → its name, where they differ
		for _, m := range consts {
			for id, s := range m {
				if id != s {
					goNames[id] = s
				}
			}
		}
		for _, e := range lists {
			name, constant := e.name, ""
			if _, isName := owners[name]; !isName {
				if s, ok := goNames[name]; ok {
					name = s // CPUCFSQuotaPeriod is set as CustomCPUCFSQuotaPeriod
					if !strings.EqualFold(s, e.name) {
						constant = e.name
					}
				}
			}
			spec, ok := at(e.specs, b.v)
			if !ok {
				continue
			}
			for _, m := range byName["\x00"+name] {
				if constant == "" && m.Constant != "" {
					constant = m.Constant // the maps' constant, where the list writes the name
				}
			}
			d := decl{GateDecl: knowledge.GateDecl{Name: name, Constant: constant, GateSpec: spec}, local: true, where: "the generated list"}
			d.Component = b.componentOf(name, byName["\x00"+name], owners[name])
			d.Modules = listModulesOf(byName["\x00"+name], owners[name])
			byName[key(d.GateDecl)] = append(byName[key(d.GateDecl)], d)
		}
	}
	var out []knowledge.GateDecl
	for k, ds := range byName {
		if strings.HasPrefix(k, "\x00") {
			continue
		}
		d := b.join(ds)
		if d.Modules == nil && !d.Kubeadm() {
			for _, x := range ds {
				if x.file != "" {
					d.Modules = appendOnce(d.Modules, x.file)
				}
			}
			slices.Sort(d.Modules)
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Component < out[j].Component
	})
	return out
}

// listModulesOf are the modules that declare a gate of the generated list
// (which names none): those whose maps declare it (k8s.io/kubernetes
// relisting another module's gate counts), else the modules whose
// constant it is (1.32's list names gates whose versioned specs sit in a
// file of k8s.io/kubernetes the data does not hold).
func listModulesOf(maps []decl, owners []string) []string {
	var out []string
	for _, d := range maps {
		out = appendOnce(out, d.file)
	}
	if len(out) == 0 {
		out = slices.Clone(owners)
	}
	slices.Sort(out)
	return out
}

// key keeps kubeadm's gates apart from the components' of the same name.
func key(d knowledge.GateDecl) string {
	if d.Kubeadm() {
		return knowledge.ComponentKubeadm + "\x00" + d.Name
	}
	return d.Name
}

// componentOf is the module of a gate of the generated list: the module
// whose map declares it as its own, else one whose constant it is.
func (b *builder) componentOf(name string, maps []decl, owners []string) string {
	var mods []string
	for _, d := range maps {
		if d.local {
			mods = append(mods, d.Component)
		}
	}
	if len(mods) == 0 {
		for _, d := range maps {
			mods = append(mods, d.Component)
		}
	}
	if len(mods) == 0 {
		mods = owners
	}
	return first(mods)
}

// join makes one declaration of the maps that declare one gate: the one of
// the module that declares it as its own (the first of moduleOrder); a
// map that says otherwise is a note.
func (b *builder) join(ds []decl) knowledge.GateDecl {
	best := 0
	for i, d := range ds {
		if better(d, ds[best]) {
			best = i
		}
	}
	out := ds[best]
	for _, d := range ds {
		if out.Constant == "" && d.Constant != "" && !strings.EqualFold(d.Constant, out.Name) {
			out.Constant = d.Constant
		}
		if d.GateSpec != out.GateSpec {
			b.skips = append(b.skips, knowledge.Skip{Path: d.where, Source: b.source,
				Reason: fmt.Sprintf("gate %s is declared %s here and %s in %s, which is read", d.Name, specWords(d.GateSpec), specWords(out.GateSpec), out.where)})
		}
	}
	return out.GateDecl
}

func better(a, b decl) bool {
	if a.local != b.local {
		return a.local
	}
	return rank(a.Component) < rank(b.Component)
}

func rank(module string) int {
	if i := slices.Index(moduleOrder, module); i >= 0 {
		return i
	}
	return len(moduleOrder)
}

func first(mods []string) string {
	best := ""
	for _, m := range mods {
		if best == "" || rank(m) < rank(best) {
			best = m
		}
	}
	return best
}

func specWords(s knowledge.GateSpec) string {
	w := s.Stage.Label() + fmt.Sprintf(", default %t", s.Default)
	if s.Locked {
		w += ", locked"
	}
	return w
}

// nameOf is a constant's string value, else the identifier itself (the
// convention: a gate's constant is named as the gate).
func nameOf(consts map[string]string, id string) string {
	if s, ok := consts[id]; ok {
		return s
	}
	return id
}

// moduleOf is the module of an import path: k8s.io/apiserver for
// k8s.io/apiserver/pkg/features.
func moduleOf(importPath string) string {
	parts := strings.SplitN(importPath, "/", 3)
	if len(parts) < 2 {
		return importPath
	}
	return parts[0] + "/" + parts[1]
}

func appendOnce(ss []string, s string) []string {
	if slices.Contains(ss, s) {
		return ss
	}
	return append(ss, s)
}
