package featuregates

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/knowledge"
)

// listGate is one gate of the generated list
// (versioned_feature_list.yaml, unversioned_feature_list.yaml):
// {name, versionedSpecs: [{default, lockToDefault, preRelease, version,
// minCompatibilityVersion}]}, each spec holding from its version on.
type listGate struct {
	Name  string     `yaml:"name"`
	Specs []listSpec `yaml:"versionedSpecs"`
}

type listSpec struct {
	Default       *bool  `yaml:"default"`
	LockToDefault bool   `yaml:"lockToDefault"`
	PreRelease    string `yaml:"preRelease"`
	Version       string `yaml:"version"`
	MinCompat     string `yaml:"minCompatibilityVersion"`
}

// isList reports whether a file inside a module is one of the generated
// lists of gates (k8s.io/kubernetes 1.32 on).
func isList(p string) bool {
	return strings.HasSuffix(p, "/versioned_feature_list.yaml") || strings.HasSuffix(p, "/unversioned_feature_list.yaml")
}

// parseList reads a generated list with yaml.v3. An empty file is an empty
// list. It fails on YAML that is not such a list; a gate it cannot read is
// a problem, and the rest is read.
func parseList(data []byte) ([]listEntry, []string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, nil
	}
	var gates []listGate
	if err := yaml.Unmarshal(data, &gates); err != nil {
		return nil, nil, fmt.Errorf("not a list of feature gates: %w", err)
	}
	var out []listEntry
	var problems []string
	for i, g := range gates {
		name := strings.TrimSpace(g.Name)
		if name == "" {
			problems = append(problems, fmt.Sprintf("gate %d has no name; passed over", i+1))
			continue
		}
		e := listEntry{name: name}
		why := ""
		for _, s := range g.Specs {
			sp, w := s.spec()
			if w != "" {
				why = w
				break
			}
			e.specs = append(e.specs, sp)
		}
		if why == "" && len(e.specs) == 0 {
			why = "no versioned spec"
		}
		if why != "" {
			problems = append(problems, fmt.Sprintf("gate %s: %s; passed over", name, why))
			continue
		}
		out = append(out, e)
	}
	return out, problems, nil
}

// listEntry is one gate of a generated list, its specs read.
type listEntry struct {
	name  string
	specs []spec
}

func (s listSpec) spec() (spec, string) {
	st, ok := knowledge.ParseGateStage(s.PreRelease)
	if !ok {
		return spec{}, fmt.Sprintf("preRelease %q is not Alpha, Beta, GA or Deprecated", clip(s.PreRelease))
	}
	if s.Default == nil {
		return spec{}, "a spec has no default"
	}
	out := spec{GateSpec: knowledge.GateSpec{Stage: st, Default: *s.Default, Locked: s.LockToDefault}}
	if s.Version != "" { // "" in the unversioned list: it holds in any release
		v, err := knowledge.ParseVersion(s.Version)
		if err != nil {
			return spec{}, fmt.Sprintf("version %q is not a release like 1.33", clip(s.Version))
		}
		out.version = v
	}
	if s.MinCompat != "" {
		v, err := knowledge.ParseVersion(s.MinCompat)
		if err != nil {
			return spec{}, fmt.Sprintf("minCompatibilityVersion %q is not a release like 1.33", clip(s.MinCompat))
		}
		out.minCompat = v
	}
	return out, ""
}

// clip shortens a value for a message to 40 bytes.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
