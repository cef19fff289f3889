package cluster

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseDeprecated reads the metric's rows from the Prometheus text
// format: labels in any order, escapes, rows at 0 left out, other metrics
// passed over.
func TestParseDeprecated(t *testing.T) {
	text := "# TYPE apiserver_requested_deprecated_apis gauge\n" +
		`apiserver_requested_deprecated_apis{removed_release="1.25",group="batch",version="v1beta1",resource="cronjobs",subresource=""} 1` + "\n" +
		`apiserver_requested_deprecated_apis{group="policy",removed_release="1.25",resource="podsecuritypolicies",subresource="",version="v1beta1"} 0` + "\n" +
		`apiserver_requested_deprecated_apis{group="",removed_release="",resource="componentstatuses",subresource="",version="v1"} 1` + "\n" +
		`apiserver_requested_deprecated_apis_other{group="x"} 1` + "\n" +
		`apiserver_requested_deprecated_apis{group="a\"b",removed_release="",resource="r",subresource="status",version="v2"} 1` + "\n"
	got, err := parseDeprecated(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []DeprecatedRequest{
		{Group: "batch", Version: "v1beta1", Resource: "cronjobs", RemovedRelease: "1.25"},
		{Version: "v1", Resource: "componentstatuses"},
		{Group: `a"b`, Version: "v2", Resource: "r", Subresource: "status"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v; want %+v", i, got[i], want[i])
		}
	}
}

// TestDecodeRelease: Helm's storage, in a Secret (base64 twice) and a
// ConfigMap (once); a release that is not base64, not Helm's JSON, or a
// gzip bomb is an error, never a panic or a huge allocation.
func TestDecodeRelease(t *testing.T) {
	for _, secret := range []bool{true, false} {
		r, err := decodeRelease(helmRelease(t, "shop", "prod", 4, "kind: Service\n", secret), secret)
		if err != nil || r.Name != "shop" || r.Revision != 4 || r.Manifest != "kind: Service\n" {
			t.Errorf("secret %v: %+v, %v", secret, r, err)
		}
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zero := make([]byte, 1<<20)
	for range (maxRelease >> 20) + 2 {
		zw.Write(zero)
	}
	zw.Close()
	bomb := base64.StdEncoding.EncodeToString(z.Bytes())
	for name, v := range map[string]string{"not base64": "%%%", "not JSON": base64.StdEncoding.EncodeToString([]byte("{")), "a gzip bomb": bomb} {
		if _, err := decodeRelease(v, false); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestConnectResolvesKubeconfig: --kubeconfig, else $KUBECONFIG; --context
// picks a context other than the current one; the user's token is sent.
func TestConnectResolvesKubeconfig(t *testing.T) {
	var auth string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Write([]byte(`{"major":"1","minor":"30"}`))
	}))
	defer srv.Close()
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	// client-go sends a token only over TLS: the servers are https
	kc := "apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: {server: \"https://127.0.0.1:1\"}\n- name: b\n  cluster: {server: \"" + srv.URL + "\", certificate-authority-data: " + ca + "}\n" +
		"users:\n- name: ua\n  user: {token: token-a}\n- name: ub\n  user: {token: token-b}\n" +
		"contexts:\n- name: ca\n  context: {cluster: a, user: ua}\n- name: cb\n  context: {cluster: b, user: ub}\ncurrent-context: ca\n"
	path := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Connect(Config{Kubeconfig: path, Context: "cb"})
	if err != nil {
		t.Fatal(err)
	}
	if _, minor, _, err := c.serverBuild(t.Context()); err != nil || minor != "30" || auth != "Bearer token-b" {
		t.Errorf("minor %q, %v, auth %q; want context cb's server and token", minor, err, auth)
	}
	t.Setenv("KUBECONFIG", path)
	t.Setenv("HOME", t.TempDir())
	if c, err = Connect(Config{}); err != nil || c.Host != "https://127.0.0.1:1" {
		t.Errorf("from $KUBECONFIG: %v, host %v; want the current context's server", err, c)
	}
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	if _, err := Connect(Config{}); err == nil || !strings.Contains(err.Error(), "no cluster to read") {
		t.Errorf("err %v; want the places looked at", err)
	}
}
