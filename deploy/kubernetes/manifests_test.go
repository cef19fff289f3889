// Package kubernetes_test checks the manifests in this folder without a
// cluster: they parse, the kustomization lists them all, the Deployment
// runs three replicas on etcd with probes on /readyz and /healthz and
// secrets only by reference, the Service and the PodDisruptionBudget select
// its pods, and the config it mounts loads as kepbot's own config does.
package kubernetes_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kepbot/kepbot/internal/config"
)

// doc is the part of a Kubernetes object the checks read.
type doc struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct{ Name string }
	Resources  []string          `yaml:"resources"`
	Data       map[string]string `yaml:"data"`
	Spec       struct {
		Replicas       int            `yaml:"replicas"`
		MaxUnavailable any            `yaml:"maxUnavailable"`
		MinAvailable   any            `yaml:"minAvailable"`
		Selector       map[string]any `yaml:"selector"`
		Template       struct {
			Metadata struct{ Labels map[string]string }
			Spec     struct {
				Containers []struct {
					Args  []string
					Ports []struct {
						Name          string
						ContainerPort int `yaml:"containerPort"`
					}
					Env            []env
					ReadinessProbe probe `yaml:"readinessProbe"`
					LivenessProbe  probe `yaml:"livenessProbe"`
					StartupProbe   probe `yaml:"startupProbe"`
				}
			}
		}
	}
}

type env struct {
	Name      string
	Value     *string
	ValueFrom map[string]any `yaml:"valueFrom"`
}

type probe struct {
	HTTPGet struct {
		Path string
		Port any
	} `yaml:"httpGet"`
}

func load(t *testing.T) (map[string]doc, []string) {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]doc{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		for {
			var d doc
			if err := dec.Decode(&d); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[d.Kind] = d
		}
	}
	return out, files
}

func TestManifests(t *testing.T) {
	docs, files := load(t)
	k := docs["Kustomization"]
	for _, f := range files {
		if f != "kustomization.yaml" && !slices.Contains(k.Resources, f) {
			t.Errorf("kustomization.yaml does not list %s", f)
		}
	}
	dep := docs["Deployment"]
	if dep.Spec.Replicas != 3 {
		t.Errorf("the Deployment runs %d replicas, want 3", dep.Spec.Replicas)
	}
	labels := dep.Spec.Template.Metadata.Labels
	selects := func(sel map[string]any) bool {
		if m, ok := sel["matchLabels"].(map[string]any); ok {
			sel = m
		}
		for k, v := range sel {
			if labels[k] != v {
				return false
			}
		}
		return len(sel) > 0
	}
	if !selects(dep.Spec.Selector) || !selects(docs["Service"].Spec.Selector) || !selects(docs["PodDisruptionBudget"].Spec.Selector) {
		t.Error("the Deployment, Service and PodDisruptionBudget do not all select the pods' labels")
	}
	if pdb := docs["PodDisruptionBudget"].Spec; pdb.MaxUnavailable != 1 && pdb.MinAvailable != 2 {
		t.Errorf("the PodDisruptionBudget allows %v unavailable / %v available; want at most one down", pdb.MaxUnavailable, pdb.MinAvailable)
	}
	c := dep.Spec.Template.Spec.Containers[0]
	if c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("probes: readiness %q, liveness %q", c.ReadinessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Path)
	}
	// A platform that cannot connect at start is retried while the others
	// serve: the startup probe waits for the knowledge alone, or an outage
	// of one platform would restart the pod and take the others down.
	if p := c.StartupProbe.HTTPGet.Path; p != "/readyz?exclude=slack&exclude=discord" {
		t.Errorf("startup probe %q, want /readyz leaving the platforms out", p)
	}
	for _, e := range c.Env {
		secretish := strings.Contains(e.Name, "TOKEN") || strings.Contains(e.Name, "SECRET") || strings.Contains(e.Name, "PASSWORD")
		if secretish && (e.Value != nil || e.ValueFrom["secretKeyRef"] == nil) {
			t.Errorf("%s is not taken from a Secret by reference", e.Name)
		}
	}
	if !slices.Contains(c.Args, "--config") {
		t.Errorf("the container does not read the mounted config: args %v", c.Args)
	}

	// The mounted bot.yaml is a valid kepbot config on etcd.
	path := filepath.Join(t.TempDir(), "bot.yaml")
	if err := os.WriteFile(path, []byte(docs["ConfigMap"].Data["bot.yaml"]), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("the ConfigMap's bot.yaml: %v", err)
	}
	if !cfg.UsesEtcd() || len(cfg.Store.Etcd.Endpoints) == 0 || cfg.HTTP.Addr != "0.0.0.0:8080" {
		t.Errorf("the ConfigMap's bot.yaml: backend %q, endpoints %v, addr %s", cfg.Store.Backend, cfg.Store.Etcd.Endpoints, cfg.HTTP.Addr)
	}
}
