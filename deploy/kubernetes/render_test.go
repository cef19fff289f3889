package kubernetes_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// object is one Kubernetes object as YAML decodes it.
type object = map[string]any

// kustomization is what render reads of a kustomization.yaml. Anything
// else in the file fails the test: render does what `kubectl kustomize`
// does for these fields only, so a field it does not know would make its
// output differ silently.
type kustomization struct {
	APIVersion string   `yaml:"apiVersion"`
	Kind       string   `yaml:"kind"`
	Namespace  string   `yaml:"namespace"`
	Resources  []string `yaml:"resources"`
	Labels     []struct {
		Pairs            map[string]string `yaml:"pairs"`
		IncludeSelectors bool              `yaml:"includeSelectors"`
		IncludeTemplates bool              `yaml:"includeTemplates"`
	} `yaml:"labels"`
}

// clusterScoped are the kinds the namespace transformer leaves alone.
var clusterScoped = map[string]bool{"Namespace": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"PersistentVolume": true, "StorageClass": true, "CustomResourceDefinition": true, "PriorityClass": true}

// render builds the kustomization in dir as `kubectl kustomize dir` does
// for the fields kustomization lists: the resources in order (a folder is
// rendered first, with its own kustomization), then this level's
// namespace on every namespaced object and its labels on every object's
// metadata. It fails on a field it does not implement, a file of the
// folder the kustomization leaves out, a resource that is not there, and
// two objects of one kind, namespace and name, as kustomize does.
func render(dir string) ([]object, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		return nil, err
	}
	var k kustomization
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&k); err != nil {
		return nil, fmt.Errorf("%s/kustomization.yaml: %w (render implements apiVersion, kind, namespace, resources and labels only)", dir, err)
	}
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		return nil, fmt.Errorf("%s/kustomization.yaml is %s %s", dir, k.APIVersion, k.Kind)
	}
	for _, l := range k.Labels {
		if l.IncludeSelectors || l.IncludeTemplates {
			return nil, fmt.Errorf("%s: labels with includeSelectors or includeTemplates are not implemented here", dir)
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" && !slices.Contains(k.Resources, b) {
			errs = append(errs, fmt.Errorf("%s/kustomization.yaml does not list %s", dir, b))
		}
	}
	var out []object
	for _, r := range k.Resources {
		path := filepath.Join(dir, r)
		st, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("%s/kustomization.yaml lists %s: %w", dir, r, err)
		}
		read := readObjects
		if st.IsDir() {
			read = render
		}
		objs, err := read(path)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	seen := map[string]bool{}
	for _, o := range out {
		meta := mapAt(o, "metadata")
		if k.Namespace != "" && !clusterScoped[str(o["kind"])] {
			meta["namespace"] = k.Namespace
		}
		for _, l := range k.Labels {
			labels := mapAt(meta, "labels")
			for key, v := range l.Pairs {
				labels[key] = v
			}
		}
		id := fmt.Sprintf("%s %s/%s", o["kind"], meta["namespace"], meta["name"])
		if seen[id] {
			errs = append(errs, fmt.Errorf("%s: two objects are %s", dir, id))
		}
		seen[id] = true
	}
	return out, errors.Join(errs...)
}

// mustRender is render failing the test.
func mustRender(t *testing.T, dir string) []object {
	t.Helper()
	objs, err := render(dir)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// readObjects decodes every document of a YAML file.
func readObjects(path string) ([]object, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []object
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var o object
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if o == nil {
			continue
		}
		if str(o["apiVersion"]) == "" || str(o["kind"]) == "" || str(mapAt(o, "metadata")["name"]) == "" {
			return nil, fmt.Errorf("%s: an object without apiVersion, kind or name", path)
		}
		out = append(out, o)
	}
}

// find returns the one object of kind in objs, failing when there is not
// exactly one.
func find(t *testing.T, objs []object, kind string) object {
	t.Helper()
	var found []object
	for _, o := range objs {
		if o["kind"] == kind {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d objects of kind %s, want 1", len(found), kind)
	}
	return found[0]
}

// mapAt returns m[key] as a map, making it when it is missing.
func mapAt(m map[string]any, key string) map[string]any {
	if v, ok := m[key].(map[string]any); ok {
		return v
	}
	v := map[string]any{}
	m[key] = v
	return v
}

// get follows path through nested maps; nil when any step is missing.
func get(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// list is v as a list of maps (a YAML sequence of mappings).
func list(v any) []map[string]any {
	items, _ := v.([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// strs is v as a list of strings.
func strs(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, it := range items {
		out = append(out, fmt.Sprint(it))
	}
	return out
}

// TestRenderRefusesWhatItCannotDo: a kustomization with a field render
// does not implement, one that leaves out a file of its folder or lists
// one that is not there fails rather than rendering something kustomize
// would not.
func TestRenderRefusesWhatItCannotDo(t *testing.T) {
	for name, k := range map[string]string{
		"patches":      "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\npatches:\n  - path: p.yaml\n",
		"unlisted":     "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n",
		"missing file": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml, b.yaml]\n",
		"twice":        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml, a.yaml]\n",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := render(dir); err == nil {
			t.Errorf("%s: render accepted %q", name, strings.TrimSpace(k))
		}
	}
}
