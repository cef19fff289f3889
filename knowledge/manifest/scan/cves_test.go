package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
)

// TestClusterScanReportsItsReleaseCVEs: a live cluster whose server runs
// v1.30.2-eks-5e0fdde (as a stand-in reader says) gets the known
// vulnerabilities of Kubernetes 1.30.2 beside its findings, in the text
// and the JSON; they change the exit code only with FailOnCVE, and a scan
// of files (no server build) says nothing of them.
func TestClusterScanReportsItsReleaseCVEs(t *testing.T) {
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	kb := InMemory(k)
	cluster := func(context.Context, func(string, string) bool) (*knowledge.ManifestRead, error) {
		return &knowledge.ManifestRead{Documents: 3, ServerVersion: knowledge.MustVersion("1.30"), ServerPatch: "1.30.2", ServerBuild: "v1.30.2-eks-5e0fdde"}, nil
	}
	run := func(req Request) (int, string) {
		t.Helper()
		var out bytes.Buffer
		code, err := Run(context.Background(), kb, req, &out)
		if err != nil {
			t.Fatal(err)
		}
		return code, out.String()
	}
	code, text := run(Request{To: knowledge.MustVersion("1.31"), Read: cluster})
	if code != ExitClean {
		t.Errorf("exit %d without --fail-on cve; want 0: the CVEs do not change it", code)
	}
	for _, w := range []string{"The cluster's own release: Kubernetes 1.30.2 (its server says v1.30.2-eks-5e0fdde): 9 known vulnerabilities",
		"CVE-2024-10220 (GO-2024-3286): fixed in 1.30.3", "CVE-2025-1767 (GO-2025-3521): no fixed version", "check v1.30.2-eks-5e0fdde with its vendor",
		"Source: Go vulnerability database (vuln.go.dev, CC-BY-4.0), as of 2026-08-21"} {
		if !strings.Contains(text, w) {
			t.Errorf("the text lacks %q:\n%s", w, text)
		}
	}
	code, raw := run(Request{To: knowledge.MustVersion("1.31"), Read: cluster, Format: FormatJSON, FailOnCVE: true})
	var got JSON
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if code != ExitVulnerable || got.Server == nil || got.Server.Patch != "1.30.2" || len(got.Server.CVEs) != 9 {
		t.Errorf("with --fail-on cve: exit %d, server %+v", code, got.Server)
	}
	files := func(context.Context, func(string, string) bool) (*knowledge.ManifestRead, error) {
		return &knowledge.ManifestRead{Documents: 1, ServerVersion: knowledge.MustVersion("1.30")}, nil
	}
	if code, text := run(Request{To: knowledge.MustVersion("1.31"), Read: files, FailOnCVE: true}); code != ExitClean || strings.Contains(text, "vulnerabilit") {
		t.Errorf("no server build: exit %d, text %q", code, text)
	}
}

// TestPastedKubectlVersionReportsItsReleaseCVEs: `kubectl version | cat -
// manifests.yaml | bot scan -` names the server's patch, whose known
// vulnerabilities are reported as a cluster's: at v1.30.2 CVE-2024-10220
// (GO-2024-3286, fixed in 1.30.3 by its OSV record), at v1.30.3 not; and
// --fail-on cve exits 6 on them.
func TestPastedKubectlVersionReportsItsReleaseCVEs(t *testing.T) {
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		server string
		has    bool
	}{{"v1.30.2", true}, {"v1.30.3", false}} {
		dir := t.TempDir()
		p := filepath.Join(dir, "in.yaml")
		in := "Client Version: v1.31.0\nKustomize Version: v5.4.2\nServer Version: " + tc.server + "\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
		if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		code, err := Run(context.Background(), InMemory(k), Request{To: knowledge.MustVersion("1.31"), Paths: []string{p}, Format: FormatJSON, FailOnCVE: true}, &out)
		if err != nil {
			t.Fatal(err)
		}
		var got JSON
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Server == nil || got.Server.Patch != strings.TrimPrefix(tc.server, "v") || got.Server.Build != tc.server || len(got.Server.CVEs) == 0 || code != ExitVulnerable {
			t.Fatalf("server %s: exit %d, server %+v", tc.server, code, got.Server)
		}
		has := false
		for _, c := range got.Server.CVEs {
			has = has || c.ID == "GO-2024-3286"
		}
		if has != tc.has {
			t.Errorf("server %s: GO-2024-3286 listed %v, want %v", tc.server, has, tc.has)
		}
	}
}
