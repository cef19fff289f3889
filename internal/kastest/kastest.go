package kastest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
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
	"syscall"
	"testing"
	"time"

	"github.com/kepbot/kepbot/internal/etcdtest"
	"github.com/kepbot/kepbot/internal/sharedtest"
)

// Server is a running kube-apiserver.
type Server struct {
	// Kubeconfig is the path of a kubeconfig for it.
	Kubeconfig string
	// Base is its URL, https://127.0.0.1:PORT.
	Base string

	token  string
	client *http.Client
}

// Start builds (once) and starts kube-apiserver version (a release tag
// such as v1.31.14) on an embedded etcd, and stops both at the end of the
// test. It skips when openssl is missing or the Go module proxy cannot be
// reached for the build; any other failure fails the test.
func Start(t testing.TB, version string) *Server {
	t.Helper()
	script := sharedtest.Path(t, "tools", "kube-apiserver.sh")
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl is not installed; kube-apiserver.sh makes the server's keys with it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", script, "build", version).CombinedOutput()
	if err != nil {
		s := string(out)
		if strings.Contains(s, "dial tcp") || strings.Contains(s, "proxy.golang.org") || strings.Contains(s, "no such host") {
			t.Skipf("the Go module proxy cannot be reached to build kube-apiserver %s: %.300s", version, s)
		}
		t.Fatalf("build kube-apiserver %s: %v\n%s", version, err, out)
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
	run := exec.CommandContext(ctx, "bash", script, "run", version, dir, strconv.Itoa(port), etcd.Endpoints[0])
	out, err = run.Output()
	t.Cleanup(func() { stop(dir) })
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
	return &Server{Kubeconfig: strings.TrimSpace(string(out)), Base: fmt.Sprintf("https://127.0.0.1:%d", port), token: strings.TrimSpace(string(token)),
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 16}}}
}

// stop ends the kube-apiserver run in dir: SIGTERM, up to 5 s, SIGKILL.
func stop(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	for range 50 {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// Response is what the server answered a request.
type Response struct {
	Status int
	Body   []byte
	// Warnings are the Warning headers' texts (admission warnings, such
	// as Pod Security's for a workload whose pods it would refuse).
	Warnings []string
}

// Do sends method path (with its query) and obj as JSON (nil for none),
// as the token's user.
func (s *Server) Do(t testing.TB, method, path string, obj any) Response {
	t.Helper()
	var body io.Reader
	if obj != nil {
		b, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.Base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := Response{Status: resp.StatusCode, Body: b}
	for _, w := range resp.Header.Values("Warning") {
		// 299 - "text": the text, unquoted.
		if _, text, ok := strings.Cut(w, " - "); ok {
			w = strings.Trim(text, `"`)
		}
		r.Warnings = append(r.Warnings, w)
	}
	return r
}

// Create POSTs obj to path, failing the test unless it was created.
func (s *Server) Create(t testing.TB, path string, obj any) {
	t.Helper()
	if r := s.Do(t, http.MethodPost, path, obj); r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
	}
}
