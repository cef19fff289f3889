package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge/manifest/scan"
)

// TestScanFeatureGates: bot scan --to V of a kubelet configuration, a
// kubeadm configuration and a static Pod, written from the releases'
// code (../shared/data/feature-gates), exits 5 for a gate removed, not
// declared yet or set against its lock, 4 for one locked or deprecated,
// and lists them under gates in --json.
func TestScanFeatureGates(t *testing.T) {
	db := scanDB(t)
	dir := writeFiles(t, map[string]string{
		// AppArmor: GA, locked on, in 1.31-1.32, gone in 1.33
		"kubelet.yaml": "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  AppArmor: true\n",
		// KMSv1: deprecated from 1.28; SidecarContainers: GA, locked on, from 1.33
		"warn.yaml": "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  KMSv1: false\n  SidecarContainers: true\n",
		// ImageVolume: first declared in 1.31
		"kubeadm.yaml": "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\napiServer:\n  extraArgs:\n  - name: feature-gates\n    value: ImageVolume=true\n",
		// UserNamespacesSupport: GA, locked on, in 1.36
		"pod.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\nspec:\n  containers:\n  - name: kube-apiserver\n    command: [kube-apiserver, --feature-gates=UserNamespacesSupport=false]\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		to, file string
		want     int
		says     string
	}{
		{"1.33", "kubelet.yaml", scan.ExitRemoved, "kubelet 1.33 will not start: feature gate AppArmor was removed in 1.33"},
		{"1.32", "kubelet.yaml", scan.ExitDeprecated, "kubelet 1.32 ignores AppArmor=true: it is locked to that (GA)"},
		{"1.33", "warn.yaml", scan.ExitDeprecated, "kubelet 1.33 warns: feature gate KMSv1 is deprecated"},
		{"1.30", "kubeadm.yaml", scan.ExitRemoved, "kube-apiserver 1.30 will not start: feature gate ImageVolume is declared only from 1.31"},
		{"1.33", "kubeadm.yaml", scan.ExitClean, ""},
		{"1.36", "pod.yaml", scan.ExitRemoved, "kube-apiserver 1.36 will not start: feature gate UserNamespacesSupport is locked to true there, and is set to false"},
	} {
		code, out, errs := run(t, "", nil, "scan", "--db", db, "--to", tc.to, p(tc.file))
		if code != tc.want || !strings.Contains(out, tc.says) {
			t.Errorf("scan --to %s %s: exit %d (want %d), output lacks %q:\n%s%s", tc.to, tc.file, code, tc.want, tc.says, out, errs)
		}
	}
	code, got := scanJSONOf(t, "", "--to", "1.36", p("pod.yaml"))
	if code != scan.ExitRemoved || len(got.Gates) != 1 {
		t.Fatalf("exit %d, gates %+v", code, got.Gates)
	}
	g := got.Gates[0]
	if g.File != p("pod.yaml") || g.Document != 1 || g.Line != 8 || g.Kind != "Pod" || g.Name != "kube-apiserver" || g.Component != "kube-apiserver" ||
		g.Gate != "UserNamespacesSupport" || g.Value || g.Status != "locked_conflict" || g.RemovedIn != nil {
		t.Errorf("gate %+v", g)
	}
	code, got = scanJSONOf(t, "", "--to", "1.33", p("kubelet.yaml"))
	if code != scan.ExitRemoved || len(got.Gates) != 1 || got.Gates[0].Status != "removed" || got.Gates[0].RemovedIn == nil || *got.Gates[0].RemovedIn != "1.33" {
		t.Errorf("exit %d, gates %+v", code, got.Gates)
	}
}
