package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/kepbot/kepbot/internal/kastest"
	"github.com/kepbot/kepbot/knowledge/manifest/scan"
)

// kasVersion is the kube-apiserver the cluster tests run: a 1.31, the
// last release that serves flowcontrol.apiserver.k8s.io/v1beta3.
const kasVersion = "v1.31.14"

// startAPIServer starts a real kube-apiserver (kasVersion) on an embedded
// etcd (internal/kastest); it skips only when the Go module proxy cannot be
// reached for the build.
func startAPIServer(t testing.TB) *kastest.Server { return kastest.Start(t, kasVersion) }

// helmSecret is a Helm v3 release revision as Helm's secret driver stores
// it: the release as JSON, gzipped, base64, as the value of "release".
func helmSecret(t testing.TB, name, ns string, revision int, status, manifest string) map[string]any {
	t.Helper()
	rel, err := json.Marshal(map[string]any{"name": name, "namespace": ns, "version": revision,
		"info": map[string]any{"status": status}, "chart": map[string]any{"metadata": map[string]any{"name": name, "version": "1.0.0"}}, "manifest": manifest})
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(rel)
	zw.Close()
	return map[string]any{"apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
		"metadata": map[string]any{"name": fmt.Sprintf("sh.helm.release.v1.%s.v%d", name, revision), "namespace": ns,
			"labels": map[string]string{"owner": "helm", "name": name, "status": status, "version": strconv.Itoa(revision)}},
		// encoding/json writes a []byte as base64: the Secret's own encoding
		"data": map[string][]byte{"release": []byte(base64.StdEncoding.EncodeToString(z.Bytes()))}}
}

// TestScanClusterRealAPIServer: against a real 1.31 kube-apiserver holding
// a FlowSchema written through flowcontrol.apiserver.k8s.io/v1beta3, an
// apps/v1 Deployment and a Helm release whose deployed manifest has a
// networking.k8s.io/v1beta1 Ingress (and whose superseded revision has an
// extensions/v1beta1 one), `bot scan --cluster --to 1.32` reports the
// FlowSchema (by the metric and by the object), the Ingress named by its
// release, nothing else, from 1.31, exit 5.
func TestScanClusterRealAPIServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no kube-apiserver")
	}
	s := startAPIServer(t)
	s.Create(t, "/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas", map[string]any{
		"apiVersion": "flowcontrol.apiserver.k8s.io/v1beta3", "kind": "FlowSchema", "metadata": map[string]any{"name": "legacy-controller"},
		"spec": map[string]any{"priorityLevelConfiguration": map[string]any{"name": "workload-low"}, "matchingPrecedence": 5000,
			"rules": []any{map[string]any{"subjects": []any{map[string]any{"kind": "Group", "group": map[string]any{"name": "legacy"}}},
				"resourceRules": []any{map[string]any{"verbs": []string{"list"}, "apiGroups": []string{"*"}, "resources": []string{"*"}, "namespaces": []string{"*"}}}}}}})
	s.Create(t, "/apis/apps/v1/namespaces/default/deployments", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]string{"app": "web"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]string{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}}}}})
	old := "---\n# Source: shop/templates/ingress.yaml\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: shop-old\n"
	cur := "---\n# Source: shop/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: shop\n---\n# Source: shop/templates/ingress.yaml\napiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: shop\n"
	s.Create(t, "/api/v1/namespaces/default/secrets", helmSecret(t, "shop", "default", 1, "superseded", old))
	s.Create(t, "/api/v1/namespaces/default/secrets", helmSecret(t, "shop", "default", 2, "deployed", cur))

	code, out, errs := run(t, "", nil, "scan", "--cluster", "--kubeconfig", s.Kubeconfig, "--to", "1.32", "--json")
	var got scan.JSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d, not JSON (%v)\n%s\n%s", code, err, out, errs)
	}
	if code != scan.ExitRemoved || got.From == nil || *got.From != "1.31" {
		t.Errorf("exit %d, from %v; want 5 and 1.31\nstderr: %s", code, got.From, errs)
	}
	var seen []string
	for _, f := range got.Findings {
		seen = append(seen, fmt.Sprintf("%s %s %s %s/%s %s %s", f.Source, f.APIVersion, f.Kind, f.Namespace, f.Name, f.HelmRelease, f.Status))
	}
	want := map[string]bool{
		"metrics flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema /flowschemas  removed":      true,
		"object flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema /legacy-controller  removed": true,
		"helm-release networking.k8s.io/v1beta1 Ingress default/shop shop removed":           true,
	}
	for _, s := range seen {
		if !want[s] {
			t.Errorf("finding %q is not one of the three wanted", s)
		}
		delete(want, s)
	}
	for s := range want {
		t.Errorf("missing the finding %q (found: %q)", s, seen)
	}
	if len(got.Errors) != 0 {
		t.Errorf("errors %+v", got.Errors)
	}
	// The server's own release, 1.31.14, and its known vulnerabilities, read
	// by hand from ../shared/data/cves: CVE-2025-13281 (fixed only in 1.32.10
	// and later lines), CVE-2024-7598 and CVE-2025-1767 (no fix), and
	// CVE-2020-8562 (withdrawn, every version); CVE-2025-5187 is fixed in
	// 1.31.12, CVE-2025-0426 in 1.31.6, CVE-2024-9042 in 1.31.5.
	if got.Server == nil || got.Server.Patch != "1.31.14" {
		t.Fatalf("server %+v; want the patch release /version names, 1.31.14", got.Server)
	}
	var ids []string
	for _, c := range got.Server.CVEs {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, " ") != "GO-2025-4240 GO-2025-3547 GO-2025-3521 GO-2022-0617" {
		t.Errorf("the server's CVEs %v", ids)
	}
	for _, f := range got.Findings {
		if f.Source == "helm-release" && (f.Template != "shop/templates/ingress.yaml" || !strings.HasPrefix(f.File, "k8s://default/Secret/sh.helm.release.v1.shop.v2")) {
			t.Errorf("the Helm finding %+v: want its template and its release's Secret", f)
		}
	}
	if got.Objects < 10 {
		t.Errorf("%d objects looked at; want every object of the cluster", got.Objects)
	}
	_, text, _ := run(t, "", nil, "scan", "--cluster", "--kubeconfig", s.Kubeconfig, "--to", "1.32")
	t.Logf("bot scan --cluster --to 1.32:\n%s", text)
	for _, w := range []string{"Scan for Kubernetes 1.32 from 1.31", "Removed in 1.32: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", "Helm release shop, template shop/templates/ingress.yaml",
		"The cluster's own release: Kubernetes 1.31.14 (its server says v1.31.14): 4 known vulnerabilities"} {
		if !strings.Contains(text, w) {
			t.Errorf("the text lacks %q:\n%s", w, text)
		}
	}
}

// BenchmarkScanCluster10k: `bot scan --cluster` as a whole process over a
// real kube-apiserver holding 10,000 ConfigMaps besides its own objects:
// wall time a scan and the process's peak RSS, and the peak RSS of a scan
// of the cluster before the ConfigMaps were made (the memory a page at a
// time does not grow with the objects).
func BenchmarkScanCluster10k(b *testing.B) {
	s := startAPIServer(b)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	scanOnce := func(min int) (rss int64) {
		cmd := exec.Command(exe, "scan", "--cluster", "--kubeconfig", s.Kubeconfig, "--to", "1.32", "--json")
		cmd.Env = append(os.Environ(), botChild+"=1")
		var out bytes.Buffer
		cmd.Stdout = &out
		_ = cmd.Run()
		var got scan.JSON
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Objects < min {
			b.Fatalf("exit %d, %d objects (%v)", cmd.ProcessState.ExitCode(), got.Objects, err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			return ru.Maxrss
		}
		return 0
	}
	empty := scanOnce(1)
	const n, namespaces = 10000, 10
	for i := range namespaces {
		s.Create(b, "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": fmt.Sprintf("bench-%d", i)}})
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s.Create(b, fmt.Sprintf("/api/v1/namespaces/bench-%d/configmaps", i%namespaces), map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
					"metadata": map[string]any{"name": fmt.Sprintf("cm-%d", i)}, "data": map[string]string{"k": strings.Repeat("v", 64)}})
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	var rss int64
	b.ResetTimer()
	for range b.N {
		rss = max(rss, scanOnce(n))
	}
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MiB")
	b.ReportMetric(float64(empty)/1024, "peak-RSS-before-MiB")
}
