// Package kubernetes_test checks the two kustomizations in this folder:
// each renders (as `kubectl kustomize` does: render implements the fields
// they use and refuses any other), its Pod meets the Pod Security
// "restricted" profile its namespace enforces (checked here control by
// control, and by a real kube-apiserver's Pod Security admission, to which
// TestApplyServerSide applies both, dry run), the Deployment
// runs as the variant says (one replica on bbolt with Recreate, or three
// on etcd rolling), with probes on /readyz and /healthz, a pinned image
// the release publishes, secrets only by reference and every setting a
// full Secret needs to start Slack and Discord, and deploy/README.md's
// Secret command names every key the Deployments read.
package kubernetes_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/adapters/discord"
	"github.com/kepbot/kepbot/internal/config"
)

// variant is one folder to apply and what its Deployment must be.
type variant struct {
	dir      string
	replicas int
	strategy string
	backend  string
	kinds    []string
}

var variants = []variant{
	{dir: "single", replicas: 1, strategy: "Recreate", backend: config.BackendBbolt,
		kinds: []string{"ConfigMap", "Deployment", "Namespace", "PersistentVolumeClaim", "Service"}},
	{dir: "replicas", replicas: 3, strategy: "RollingUpdate", backend: config.BackendEtcd,
		kinds: []string{"ConfigMap", "Deployment", "Namespace", "PodDisruptionBudget", "Service"}},
}

// namespace is where both variants run.
const namespace = "kepbot"

// releaseImage is the image .github/workflows/release.yml pushes.
const releaseImage = "ghcr.io/kepbot/kepbot"

// fullSecret is a value for every key of the kepbot Secret, shaped as each
// platform's are, for loading the config as a pod would see it.
var fullSecret = map[string]string{
	"slack-bot-token":      "xoxb-1-2-deploytest",
	"slack-app-token":      "xapp-1-A1-2-deploytest",
	"slack-signing-secret": "8f742231b10e8888abcd99yyyzzz85a5",
	"discord-bot-token":    "MTAx.deploy.test",
	"discord-app-id":       "123456789012345678",
	"discord-public-key":   strings.Repeat("ab", 32),
	"etcd-username":        "kepbot",
	"etcd-password":        "deploytest",
}

func TestVariants(t *testing.T) {
	tags := map[string]bool{}
	for _, v := range variants {
		t.Run(v.dir, func(t *testing.T) {
			objs := mustRender(t, v.dir)
			var kinds []string
			for _, o := range objs {
				kinds = append(kinds, str(o["kind"]))
				meta := mapOf(o["metadata"])
				if o["kind"] != "Namespace" && meta["namespace"] != namespace {
					t.Errorf("%s %s is in namespace %v, want %s", o["kind"], meta["name"], meta["namespace"], namespace)
				}
			}
			slices.Sort(kinds)
			if !slices.Equal(kinds, v.kinds) {
				t.Errorf("renders %v, want %v", kinds, v.kinds)
			}
			ns := find(t, objs, "Namespace")
			if get(ns, "metadata", "name") != namespace || get(ns, "metadata", "labels", "pod-security.kubernetes.io/enforce") != "restricted" {
				t.Errorf("namespace %v does not enforce Pod Security restricted", get(ns, "metadata"))
			}

			dep := find(t, objs, "Deployment")
			tmpl := mapOf(get(dep, "spec", "template"))
			spec := mapOf(tmpl["spec"])
			if p := restrictedViolations(mapOf(get(tmpl, "metadata", "annotations")), spec); len(p) > 0 {
				t.Errorf("Pod Security restricted refuses the pod:\n  %s", strings.Join(p, "\n  "))
			}
			if n := get(dep, "spec", "replicas"); n != v.replicas {
				t.Errorf("%v replicas, want %d", n, v.replicas)
			}
			if s := get(dep, "spec", "strategy", "type"); s != v.strategy {
				t.Errorf("strategy %v, want %s", s, v.strategy)
			}
			if v.strategy == "RollingUpdate" && get(dep, "spec", "strategy", "rollingUpdate", "maxUnavailable") != 0 {
				t.Errorf("a rolling update may take a replica down before its successor is ready")
			}
			checkSelectors(t, objs, dep)
			c := list(spec["containers"])[0]
			tags[checkImage(t, str(c["image"]))] = true
			checkProbes(t, c)
			checkVolumes(t, objs, v, spec, c)
			checkConfig(t, objs, v, c)
		})
	}
	if len(tags) != 1 {
		t.Errorf("the variants run different releases: %v", tags)
	}
}

// checkSelectors: the Deployment, the Service and any PodDisruptionBudget
// select the pods' labels.
func checkSelectors(t *testing.T, objs []object, dep object) {
	t.Helper()
	labels := mapOf(get(dep, "spec", "template", "metadata", "labels"))
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
	for _, o := range objs {
		switch o["kind"] {
		case "Deployment", "Service", "PodDisruptionBudget":
			if !selects(mapOf(get(o, "spec", "selector"))) {
				t.Errorf("the %s does not select the pods' labels %v", o["kind"], labels)
			}
		}
		if o["kind"] == "PodDisruptionBudget" && get(o, "spec", "maxUnavailable") != 1 {
			t.Errorf("the PodDisruptionBudget allows %v down, want one at a time", get(o, "spec", "maxUnavailable"))
		}
	}
}

// imageRe is an image pinned to a release tag.
var imageRe = regexp.MustCompile(`^([^:@]+):(v\d+\.\d+\.\d+)$`)

// checkImage: the release's image at a release tag, never :latest. It
// returns the tag.
func checkImage(t *testing.T, image string) string {
	t.Helper()
	m := imageRe.FindStringSubmatch(image)
	if m == nil || m[1] != releaseImage {
		t.Errorf("image %q, want %s at a release tag vX.Y.Z", image, releaseImage)
		return ""
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", "release.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "images: "+m[1]+"\n") {
		t.Errorf("the release workflow does not push %s", m[1])
	}
	return m[2]
}

// checkProbes: readiness on /readyz, liveness on /healthz, and a startup
// probe waiting for the knowledge alone: an outage of one platform at
// start is retried while the others serve, and must not restart the pod.
func checkProbes(t *testing.T, c map[string]any) {
	t.Helper()
	for probe, want := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/healthz",
		"startupProbe": "/readyz?exclude=slack&exclude=discord"} {
		if p := get(c, probe, "httpGet", "path"); p != want {
			t.Errorf("%s %v, want %s", probe, p, want)
		}
	}
	if !slices.Contains(strs(c["args"]), "--config") {
		t.Errorf("the container does not read the mounted config: args %v", c["args"])
	}
	for _, e := range list(c["env"]) {
		name := str(e["name"])
		secretish := strings.Contains(name, "TOKEN") || strings.Contains(name, "SECRET") || strings.Contains(name, "PASSWORD")
		if secretish && (e["value"] != nil || get(e, "valueFrom", "secretKeyRef") == nil) {
			t.Errorf("%s is not taken from a Secret by reference", name)
		}
	}
}

// checkVolumes: the root filesystem is read-only and the database sits on
// a volume: the claim the variant renders for one replica, a scratch
// folder each replica rebuilds from etcd for several.
func checkVolumes(t *testing.T, objs []object, v variant, spec, c map[string]any) {
	t.Helper()
	if get(c, "securityContext", "readOnlyRootFilesystem") != true {
		t.Error("the root filesystem is writable")
	}
	var dataVolume string
	for _, m := range list(c["volumeMounts"]) {
		if m["mountPath"] == "/data" {
			dataVolume = str(m["name"])
		}
	}
	var data map[string]any
	for _, vol := range list(spec["volumes"]) {
		if vol["name"] == dataVolume {
			data = vol
		}
	}
	switch {
	case data == nil:
		t.Fatal("nothing is mounted at /data, where the database goes")
	case v.backend == config.BackendBbolt:
		claim := get(data, "persistentVolumeClaim", "claimName")
		if pvc := find(t, objs, "PersistentVolumeClaim"); claim == nil || claim != get(pvc, "metadata", "name") {
			t.Errorf("/data is %v, want the PersistentVolumeClaim %v", data, get(pvc, "metadata", "name"))
		}
	case data["emptyDir"] == nil:
		t.Errorf("/data is %v, want an emptyDir each replica rebuilds from etcd", data)
	}
}

// checkConfig loads the ConfigMap's bot.yaml as kepbot would in the pod,
// with the environment the Deployment gives it and a full Secret: the
// store is the variant's, the database is on /data, and Slack (Socket
// Mode and HTTP) and Discord (gateway, /k8s registered, HTTP
// interactions) all start.
func checkConfig(t *testing.T, objs []object, v variant, c map[string]any) {
	t.Helper()
	env := map[string]string{}
	for _, e := range list(c["env"]) {
		switch {
		case e["value"] != nil:
			env[str(e["name"])] = str(e["value"])
		case get(e, "valueFrom", "secretKeyRef") != nil:
			key := str(get(e, "valueFrom", "secretKeyRef", "key"))
			val, ok := fullSecret[key]
			if !ok {
				t.Errorf("%s reads the Secret's key %s, which deploy/README.md does not document", e["name"], key)
			}
			env[str(e["name"])] = val
		case get(e, "valueFrom", "fieldRef", "fieldPath") == "metadata.name":
			env[str(e["name"])] = "kepbot-7d9f8-abcde"
		}
	}
	cm := find(t, objs, "ConfigMap")
	path := filepath.Join(t.TempDir(), "bot.yaml")
	if err := os.WriteFile(path, []byte(str(get(cm, "data", "bot.yaml"))), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return env[k] }
	cfg, err := config.Load(path, getenv)
	if err != nil {
		t.Fatalf("the ConfigMap's bot.yaml with the pod's environment: %v", err)
	}
	if cfg.Store.Backend != v.backend || !strings.HasPrefix(cfg.DB, "/data/") || cfg.HTTP.Addr != "0.0.0.0:8080" {
		t.Errorf("store %s, db %s, addr %s; want %s, under /data, 0.0.0.0:8080", cfg.Store.Backend, cfg.DB, cfg.HTTP.Addr, v.backend)
	}
	if v.backend == config.BackendEtcd && (len(cfg.Store.Etcd.Endpoints) == 0 || env["BOT_REPLICA_ID"] == "") {
		t.Errorf("etcd endpoints %v, replica ID %q", cfg.Store.Etcd.Endpoints, env["BOT_REPLICA_ID"])
	}
	// The Discord adapter reads its own section and variables (bot serve's
	// wiring adds only a token file, which the pod does not use: its
	// tokens come from the Secret as variables).
	var d discord.Config
	if err := cfg.DecodeDiscord(&d); err != nil {
		t.Fatalf("the ConfigMap's discord section: %v", err)
	}
	if err := d.ApplyEnv(getenv); err != nil {
		t.Fatalf("discord settings with the pod's environment: %v", err)
	}
	if d = d.WithDefaults(); d.Validate() != nil {
		t.Fatalf("discord settings with the pod's environment: %v", d.Validate())
	}
	if !cfg.SlackSocketMode() || !cfg.SlackHTTP() || !d.Gateway() || !d.Register() || d.PublicKey == "" {
		t.Errorf("with a full Secret: Slack Socket Mode %v, HTTP %v; Discord gateway %v, /k8s registered %v, interactions %v; want all",
			cfg.SlackSocketMode(), cfg.SlackHTTP(), d.Gateway(), d.Register(), d.PublicKey != "")
	}
}

// TestSecretInstructions: deploy/README.md's kubectl create secret
// commands name exactly the keys the Deployments read.
func TestSecretInstructions(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`--from-literal=([a-z0-9-]+)=`).FindAllStringSubmatch(string(raw), -1) {
		documented[m[1]] = true
	}
	read := map[string]bool{}
	for _, v := range variants {
		dep := find(t, mustRender(t, v.dir), "Deployment")
		for _, c := range list(get(dep, "spec", "template", "spec", "containers")) {
			for _, e := range list(c["env"]) {
				if ref := get(e, "valueFrom", "secretKeyRef"); ref != nil {
					read[str(get(ref, "key"))] = true
					if get(ref, "name") != "kepbot" || get(ref, "optional") != true {
						t.Errorf("%s: %s reads %v; want the kepbot Secret, optional", v.dir, e["name"], ref)
					}
				}
			}
		}
	}
	for k := range read {
		if !documented[k] {
			t.Errorf("the Deployments read the Secret's key %s; deploy/README.md does not say to set it", k)
		}
		if _, ok := fullSecret[k]; !ok {
			t.Errorf("no test value for the Secret's key %s", k)
		}
	}
	for k := range documented {
		if !read[k] {
			t.Errorf("deploy/README.md says to set %s; no Deployment reads it", k)
		}
	}
}

// TestRestrictedCheckRefuses: the restricted-profile check finds each
// thing Pod Security admission would refuse in the single variant's pod.
func TestRestrictedCheckRefuses(t *testing.T) {
	mutations := map[string]func(spec, c map[string]any){
		"no seccomp":         func(spec, c map[string]any) { delete(mapOf(spec["securityContext"]), "seccompProfile") },
		"unconfined":         func(_, c map[string]any) { mapAt(mapOf(c["securityContext"]), "seccompProfile")["type"] = "Unconfined" },
		"may escalate":       func(_, c map[string]any) { delete(mapOf(c["securityContext"]), "allowPrivilegeEscalation") },
		"privileged":         func(_, c map[string]any) { mapOf(c["securityContext"])["privileged"] = true },
		"root":               func(spec, _ map[string]any) { mapOf(spec["securityContext"])["runAsUser"] = 0 },
		"may be root":        func(spec, _ map[string]any) { delete(mapOf(spec["securityContext"]), "runAsNonRoot") },
		"keeps capabilities": func(_, c map[string]any) { delete(mapOf(c["securityContext"]), "capabilities") },
		"adds a capability": func(_, c map[string]any) {
			mapOf(get(c, "securityContext", "capabilities"))["add"] = []any{"SYS_ADMIN"}
		},
		"host path": func(spec, _ map[string]any) {
			spec["volumes"] = append(spec["volumes"].([]any), map[string]any{"name": "h", "hostPath": map[string]any{"path": "/"}})
		},
		"host network": func(spec, _ map[string]any) { spec["hostNetwork"] = true },
		"host port":    func(_, c map[string]any) { list(c["ports"])[0]["hostPort"] = 8080 },
		"unsafe sysctl": func(spec, _ map[string]any) {
			mapOf(spec["securityContext"])["sysctls"] = []any{map[string]any{"name": "kernel.msgmax", "value": "1"}}
		},
		"probe on other host": func(_, c map[string]any) { mapOf(get(c, "livenessProbe", "httpGet"))["host"] = "10.0.0.1" },
	}
	for name, mutate := range mutations {
		dep := find(t, mustRender(t, "single"), "Deployment")
		spec := mapOf(get(dep, "spec", "template", "spec"))
		c := list(spec["containers"])[0]
		mutate(spec, c)
		if p := restrictedViolations(nil, spec); len(p) == 0 {
			t.Errorf("%s: the check passes a pod Pod Security restricted refuses", name)
		}
	}
}
