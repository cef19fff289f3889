package snapshot

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
)

// gateLine is one feature gate in the snapshot: its name and its
// declarations as runs of releases that declare it alike, so that 19
// releases of some 250 gates take a line a gate, not a record a gate and
// release.
type gateLine struct {
	Name string `json:"name"`
	// Constant is the Go constant that names it where that is not its
	// name (knowledge.GateDecl.Constant).
	Constant string     `json:"constant,omitempty"`
	Spans    []gateSpan `json:"spans"`
}

// gateSpan is a run of consecutive releases read that declare a gate the
// same way: [from, to, stage, default, locked, component] and, where the
// modules that declare it are not the component alone, [..., modules].
type gateSpan struct {
	From, To  knowledge.Version
	Component string
	Modules   []string
	knowledge.GateSpec
}

// shortModule is a module's path without k8s.io/.
func shortModule(m string) string { return strings.TrimPrefix(m, modulePrefix) }

// modulesWord writes the modules of a span, "" when they are its component
// alone (or none): "apiserver+kubernetes".
func (s gateSpan) modulesWord() string {
	if len(s.Modules) == 0 || len(s.Modules) == 1 && s.Modules[0] == s.Component {
		return ""
	}
	short := make([]string, len(s.Modules))
	for i, m := range s.Modules {
		short[i] = shortModule(m)
	}
	return strings.Join(short, "+")
}

// MarshalJSON writes the span as an array, its component without the
// k8s.io/ every module's path starts with ("" for k8s.io/kubernetes, "?"
// for none known), its lock as 0 or 1 and its default as a word:
// ["1.27","1.31","alpha","off",0,"apiserver"].
func (s gateSpan) MarshalJSON() ([]byte, error) {
	def, locked := "off", 0
	if s.Default {
		def = "on"
	}
	if s.Locked {
		locked = 1
	}
	comp := strings.TrimPrefix(s.Component, modulePrefix)
	switch s.Component {
	case kubernetesModule:
		comp = "" // most gates'
	case "":
		comp = "?"
	}
	if mods := s.modulesWord(); mods != "" {
		return fmt.Appendf(nil, "[%q,%q,%q,%q,%d,%q,%q]", s.From, s.To, s.Stage, def, locked, comp, mods), nil
	}
	return fmt.Appendf(nil, "[%q,%q,%q,%q,%d,%q]", s.From, s.To, s.Stage, def, locked, comp), nil
}

// kubernetesModule declares most gates: a span of its gates names no
// component.
const kubernetesModule = "k8s.io/kubernetes"

// modulePrefix starts the path of every module that declares gates.
const modulePrefix = "k8s.io/"

func (s *gateSpan) UnmarshalJSON(b []byte) error {
	var raw []any
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var mods []string
	switch len(raw) {
	case 6:
	case 7:
		w, ok := raw[6].(string)
		if !ok || w == "" {
			return fmt.Errorf("gate span %s: its modules are not a word like apiserver+kubernetes", b)
		}
		for _, m := range strings.Split(w, "+") {
			mods = append(mods, modulePrefix+m)
		}
	default:
		return fmt.Errorf("gate span %s is not [from, to, stage, default, locked, component(, modules)]", b)
	}
	from, _ := raw[0].(string)
	to, _ := raw[1].(string)
	stage, _ := raw[2].(string)
	def, ok1 := raw[3].(string)
	locked, ok2 := raw[4].(float64)
	comp, ok3 := raw[5].(string)
	switch comp {
	case "":
		comp = kubernetesModule
	case "?":
		comp = ""
	case knowledge.ComponentKubeadm:
	default:
		comp = modulePrefix + comp
	}
	f, err1 := knowledge.ParseVersion(from)
	t, err2 := knowledge.ParseVersion(to)
	st, ok4 := knowledge.ParseGateStage(stage)
	if err1 != nil || err2 != nil || !ok1 || !ok2 || !ok3 || !ok4 || stage == "" || (def != "on" && def != "off") || (locked != 0 && locked != 1) {
		return fmt.Errorf("gate span %s is not [from, to, stage, default, locked, component]", b)
	}
	if mods == nil && comp != "" && comp != knowledge.ComponentKubeadm {
		mods = []string{comp}
	}
	*s = gateSpan{From: f, To: t, Component: comp, Modules: mods, GateSpec: knowledge.GateSpec{Stage: st, Default: def == "on", Locked: locked == 1}}
	return nil
}

// gateSpans writes the gate tables as the snapshot keeps them: each table
// without its gates (its release, source and components), and each gate's
// runs over the releases in order. It fails when two tables are of one
// release: the shared data has one a release.
func gateSpans(tables []knowledge.GateTable) ([]knowledge.GateTable, []gateLine, error) {
	ts := append([]knowledge.GateTable(nil), tables...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Release.Less(ts[j].Release) })
	bare := make([]knowledge.GateTable, len(ts))
	lines := map[string]*gateLine{}
	var order []string
	for i, t := range ts {
		if i > 0 && ts[i-1].Release == t.Release {
			return nil, nil, fmt.Errorf("two feature gate tables of release %s (%s, %s)", t.Release, ts[i-1].Source, t.Source)
		}
		bare[i] = knowledge.GateTable{Release: t.Release, Source: t.Source, Components: t.Components, Listed: t.Listed}
		for _, d := range t.Gates {
			k := d.Name // case and all: 1.23 declared csiMigrationRBD, 1.24 CSIMigrationRBD
			if d.Kubeadm() {
				k = knowledge.ComponentKubeadm + ":" + d.Name
			}
			l := lines[k]
			if l == nil {
				l = &gateLine{Name: d.Name}
				lines[k] = l
				order = append(order, k)
			}
			if d.Constant != "" {
				l.Constant = d.Constant
			}
			n := len(l.Spans)
			if n > 0 && l.Spans[n-1].Component == d.Component && l.Spans[n-1].GateSpec == d.GateSpec && slices.Equal(l.Spans[n-1].Modules, d.Modules) && i > 0 && ts[i-1].Release == l.Spans[n-1].To {
				l.Spans[n-1].To = t.Release
				continue
			}
			l.Spans = append(l.Spans, gateSpan{From: t.Release, To: t.Release, Component: d.Component, Modules: d.Modules, GateSpec: d.GateSpec})
		}
	}
	sort.Strings(order)
	out := make([]gateLine, 0, len(order))
	for _, k := range order {
		out = append(out, *lines[k])
	}
	return bare, out, nil
}

// expandGates puts the gates of lines back into the tables of their
// releases. A span names its releases by the tables' order: each table
// from From to To.
func expandGates(tables []knowledge.GateTable, lines []gateLine) {
	at := map[knowledge.Version]int{}
	for i, t := range tables {
		at[t.Release] = i
	}
	for _, l := range lines {
		for _, s := range l.Spans {
			i, ok := at[s.From]
			if !ok {
				continue
			}
			for ; i < len(tables); i++ {
				t := &tables[i]
				t.Gates = append(t.Gates, knowledge.GateDecl{Name: l.Name, Constant: l.Constant, Component: s.Component, Modules: s.Modules, GateSpec: s.GateSpec})
				if t.Release == s.To {
					break
				}
			}
		}
	}
	for i := range tables {
		sort.Slice(tables[i].Gates, func(a, b int) bool {
			x, y := tables[i].Gates[a], tables[i].Gates[b]
			if x.Name != y.Name {
				return x.Name < y.Name
			}
			return x.Component < y.Component
		})
	}
}
