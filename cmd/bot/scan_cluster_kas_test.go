package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/internal/sharedtest"
	"github.com/kepbot/kepbot/knowledge/manifest/scan"
)

// kasVersion is the kube-apiserver the cluster tests run: a 1.31, the
// last release that serves flowcontrol.apiserver.k8s.io/v1beta3.
const kasVersion = "v1.31.14"

// testAPIServer is a real kube-apiserver on an embedded etcd.
type testAPIServer struct {
	kubeconfig, base string
	http             *http.Client
	token            string
}

// startAPIServer builds (once; ../shared/tools/kube-apiserver.sh caches it
// under $XDG_CACHE_HOME/kepbot-tools, ~/.cache by default) and starts a
// kube-apiserver against an etcd embedded in the test. It skips only when
// the Go module proxy cannot be reached for the build.
func startAPIServer(t testing.TB) *testAPIServer {
	t.Helper()
	script := sharedtest.Path(t, "tools", "kube-apiserver.sh")
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl is not installed; kube-apiserver.sh makes the server's keys with it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", script, "build", kasVersion).CombinedOutput()
	if err != nil {
		s := string(out)
		if strings.Contains(s, "dial tcp") || strings.Contains(s, "proxy.golang.org") || strings.Contains(s, "no such host") {
			t.Skipf("the Go module proxy cannot be reached to build kube-apiserver %s: %.300s", kasVersion, s)
		}
		t.Fatalf("build kube-apiserver %s: %v\n%s", kasVersion, err, out)
	}
	etcd, err := etcdtest.Start(etcdtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(etcd.Close)
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	run := exec.CommandContext(ctx, "bash", script, "run", kasVersion, dir, strconv.Itoa(port), etcd.Endpoints[0])
	out, err = run.Output()
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(dir, "pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGTERM)
				for range 50 {
					if syscall.Kill(pid, 0) != nil {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "kube-apiserver.log"))
		t.Fatalf("start kube-apiserver: %v\n%s\n%.2000s", err, out, log)
	}
	ca, err := os.ReadFile(filepath.Join(dir, "certs", "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	token, err := os.ReadFile(filepath.Join(dir, "token"))
	if err != nil {
		t.Fatal(err)
	}
	return &testAPIServer{kubeconfig: strings.TrimSpace(string(out)), base: fmt.Sprintf("https://127.0.0.1:%d", port), token: strings.TrimSpace(string(token)),
		http: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 16}}}
}

// create POSTs an object (JSON) to path, as a client of that API version.
func (s *testAPIServer) create(t testing.TB, path string, obj any) {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, s.base+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, body)
	}
}

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
	s.create(t, "/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas", map[string]any{
		"apiVersion": "flowcontrol.apiserver.k8s.io/v1beta3", "kind": "FlowSchema", "metadata": map[string]any{"name": "legacy-controller"},
		"spec": map[string]any{"priorityLevelConfiguration": map[string]any{"name": "workload-low"}, "matchingPrecedence": 5000,
			"rules": []any{map[string]any{"subjects": []any{map[string]any{"kind": "Group", "group": map[string]any{"name": "legacy"}}},
				"resourceRules": []any{map[string]any{"verbs": []string{"list"}, "apiGroups": []string{"*"}, "resources": []string{"*"}, "namespaces": []string{"*"}}}}}}})
	s.create(t, "/apis/apps/v1/namespaces/default/deployments", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]string{"app": "web"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]string{"app": "web"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}}}}})
	old := "---\n# Source: shop/templates/ingress.yaml\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: shop-old\n"
	cur := "---\n# Source: shop/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: shop\n---\n# Source: shop/templates/ingress.yaml\napiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: shop\n"
	s.create(t, "/api/v1/namespaces/default/secrets", helmSecret(t, "shop", "default", 1, "superseded", old))
	s.create(t, "/api/v1/namespaces/default/secrets", helmSecret(t, "shop", "default", 2, "deployed", cur))

	code, out, errs := run(t, "", nil, "scan", "--cluster", "--kubeconfig", s.kubeconfig, "--to", "1.32", "--json")
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
	for _, f := range got.Findings {
		if f.Source == "helm-release" && (f.Template != "shop/templates/ingress.yaml" || !strings.HasPrefix(f.File, "k8s://default/Secret/sh.helm.release.v1.shop.v2")) {
			t.Errorf("the Helm finding %+v: want its template and its release's Secret", f)
		}
	}
	if got.Objects < 10 {
		t.Errorf("%d objects looked at; want every object of the cluster", got.Objects)
	}
	_, text, _ := run(t, "", nil, "scan", "--cluster", "--kubeconfig", s.kubeconfig, "--to", "1.32")
	t.Logf("bot scan --cluster --to 1.32:\n%s", text)
	for _, w := range []string{"Scan for Kubernetes 1.32 from 1.31", "Removed in 1.32: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema", "Helm release shop, template shop/templates/ingress.yaml"} {
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
		cmd := exec.Command(exe, "scan", "--cluster", "--kubeconfig", s.kubeconfig, "--to", "1.32", "--json")
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
		s.create(b, "/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": fmt.Sprintf("bench-%d", i)}})
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s.create(b, fmt.Sprintf("/api/v1/namespaces/bench-%d/configmaps", i%namespaces), map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
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
