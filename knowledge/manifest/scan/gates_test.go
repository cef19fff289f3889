package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/snapshot"
)

// The configurations below are written from ../shared/data/feature-gates
// (each release's k8s.io/kubernetes code; kubeadm's cmd/kubeadm/app/
// features): AppArmor is GA and locked on in 1.31-1.32 and in no list of
// 1.33; SidecarContainers GA, locked on, from 1.33; KMSv1 deprecated
// (k8s.io/apiserver) from 1.28; ImageVolume first declared in 1.31;
// UserNamespacesSupport and ImageVolume GA, locked on, in 1.36; ValidatingAdmissionPolicy
// GA 1.30-1.31 ("remove in 1.32"); kubeadm's EtcdLearnerMode GA in 1.32
// and gone in 1.33; ControlPlaneKubeletLocalMode kubeadm's, beta in 1.33.
const (
	gatesKubelet = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
featureGates:
  AppArmor: true
  SidecarContainers: true
  KMSv1: false
  UserNamespacesSupport: true
`
	gatesKubeletWarn = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
featureGates:
  SidecarContainers: true
  KMSv1: false
`
	gatesKubeadm = `apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
featureGates:
  EtcdLearnerMode: true
  ControlPlaneKubeletLocalMode: true
apiServer:
  extraArgs:
    feature-gates: ValidatingAdmissionPolicy=true,WatchList=false
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
nodeRegistration:
  kubeletExtraArgs:
  - name: feature-gates
    value: ImageVolume=true
`
	gatesStaticPod = `apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
  namespace: kube-system
spec:
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.36.0
    command:
    - kube-apiserver
    - --feature-gates=UserNamespacesSupport=false,ImageVolume=true,imagevolume=true,NoSuchGateAnywhere=true
`
)

// gateScan runs a scan of files (name → content) with the built-in
// snapshot, as bot scan without --db does.
func gateScan(t *testing.T, to string, format string, files map[string]string) (int, string) {
	t.Helper()
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var out bytes.Buffer
	code, err := Run(context.Background(), InMemory(k), Request{To: knowledge.MustVersion(to), Paths: paths, Format: format}, &out)
	if err != nil {
		t.Fatal(err)
	}
	return code, strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
}

// gateRows writes the JSON's gates as "file:document:line component gate=value status removed_in".
func gateRows(t *testing.T, raw string) []string {
	t.Helper()
	var got JSON
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%v:\n%s", err, raw)
	}
	if got.Gates == nil {
		t.Fatal("gates is null; want a list")
	}
	var rows []string
	for _, g := range got.Gates {
		removed := "-"
		if g.RemovedIn != nil {
			removed = *g.RemovedIn
		}
		rows = append(rows, fmt.Sprintf("%s:%d:%d %s %s %s=%t %s %s", g.File, g.Document, g.Line, g.Kind, g.Component, g.Gate, g.Value, g.Status, removed))
	}
	return rows
}

func sameRows(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("gates:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestScanKubeletGates: at 1.33 AppArmor is removed (exit 5), set-on
// SidecarContainers is locked and KMSv1 deprecated (warnings);
// UserNamespacesSupport, beta there, is fine. With only the warnings the
// exit is 4.
func TestScanKubeletGates(t *testing.T) {
	code, raw := gateScan(t, "1.33", FormatJSON, map[string]string{"kubelet.yaml": gatesKubelet})
	if code != ExitRemoved {
		t.Errorf("exit %d, want %d", code, ExitRemoved)
	}
	sameRows(t, gateRows(t, raw), []string{
		"kubelet.yaml:1:4 KubeletConfiguration kubelet AppArmor=true removed 1.33",
		"kubelet.yaml:1:5 KubeletConfiguration kubelet SidecarContainers=true locked -",
		"kubelet.yaml:1:6 KubeletConfiguration kubelet KMSv1=false deprecated -",
	})
	code, text := gateScan(t, "1.33", FormatText, map[string]string{"kubelet.yaml": gatesKubelet})
	for _, w := range []string{
		"Feature gates (1 feature gate setting stops its component, 2 feature gate settings warn):",
		"kubelet 1.33 will not start: feature gate AppArmor was removed in 1.33 (KubeletConfiguration, kubelet.yaml document 1 line 4)",
		"kubelet 1.33 ignores SidecarContainers=true: it is locked to that (GA)",
		"kubelet 1.33 warns: feature gate KMSv1 is deprecated",
		"kubelet.config.k8s.io is a component's configuration",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("exit %d, the text lacks %q:\n%s", code, w, text)
		}
	}
	if code, raw := gateScan(t, "1.33", FormatJSON, map[string]string{"kubelet.yaml": gatesKubeletWarn}); code != ExitDeprecated {
		t.Errorf("only locked and deprecated gates: exit %d, want %d\n%s", code, ExitDeprecated, raw)
	}
	// at 1.32 AppArmor is declared (GA, locked on): set on, a warning
	code, raw = gateScan(t, "1.32", FormatJSON, map[string]string{"kubelet.yaml": gatesKubelet})
	sameRows(t, gateRows(t, raw), []string{
		"kubelet.yaml:1:4 KubeletConfiguration kubelet AppArmor=true locked -",
		"kubelet.yaml:1:6 KubeletConfiguration kubelet KMSv1=false deprecated -",
	})
	if code != ExitDeprecated {
		t.Errorf("1.32: exit %d, want %d", code, ExitDeprecated)
	}
}

// TestScanInvalidGateValues: a value the component does not read as a
// boolean stops it (exit 5), in JSON with the value as written; a YAML
// 1.1 yes is a boolean, and AppArmor set so is removed at 1.33.
func TestScanInvalidGateValues(t *testing.T) {
	files := map[string]string{"kubelet.yaml": "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  AppArmor: yes\n  ImageVolume: \"true\"\n"}
	code, raw := gateScan(t, "1.33", FormatJSON, files)
	sameRows(t, gateRows(t, raw), []string{
		"kubelet.yaml:1:4 KubeletConfiguration kubelet AppArmor=true removed 1.33",
		"kubelet.yaml:1:5 KubeletConfiguration kubelet ImageVolume=false invalid_value -",
	})
	if code != ExitRemoved || !strings.Contains(raw, `"invalid_value":"the string \"true\""`) {
		t.Errorf("exit %d, want %d, with the value as written:\n%s", code, ExitRemoved, raw)
	}
	_, text := gateScan(t, "1.33", FormatText, files)
	if w := `kubelet 1.33 will not start: feature gate ImageVolume is set to the string "true", which is not true or false to it`; !strings.Contains(text, w) {
		t.Errorf("the text lacks %q:\n%s", w, text)
	}
	_, sarif := gateScan(t, "1.33", FormatSARIF, files)
	if !strings.Contains(sarif, `"ruleId": "invalid-feature-gate-value"`) {
		t.Errorf("SARIF has no invalid-feature-gate-value result:\n%.2000s", sarif)
	}
}

// TestScanKubeadmGates: kubeadm's own gate gone in 1.33, the API
// server's extra args with a gate removed in 1.32, and a v1beta4 join's
// kubelet gate not declared before 1.31.
func TestScanKubeadmGates(t *testing.T) {
	code, raw := gateScan(t, "1.33", FormatJSON, map[string]string{"kubeadm.yaml": gatesKubeadm})
	sameRows(t, gateRows(t, raw), []string{
		"kubeadm.yaml:1:4 ClusterConfiguration kubeadm EtcdLearnerMode=true removed 1.33",
		"kubeadm.yaml:1:8 ClusterConfiguration kube-apiserver ValidatingAdmissionPolicy=true removed 1.32",
	})
	if code != ExitRemoved {
		t.Errorf("exit %d, want %d", code, ExitRemoved)
	}
	code, raw = gateScan(t, "1.30", FormatJSON, map[string]string{"kubeadm.yaml": gatesKubeadm})
	sameRows(t, gateRows(t, raw), []string{
		"kubeadm.yaml:1:5 ClusterConfiguration kubeadm ControlPlaneKubeletLocalMode=true not_yet_declared -",
		"kubeadm.yaml:1:8 ClusterConfiguration kube-apiserver ValidatingAdmissionPolicy=true locked -",
		"kubeadm.yaml:2:15 JoinConfiguration kubelet ImageVolume=true not_yet_declared -",
	})
	if code != ExitRemoved {
		t.Errorf("1.30: exit %d, want %d", code, ExitRemoved)
	}
	_, text := gateScan(t, "1.33", FormatText, map[string]string{"kubeadm.yaml": gatesKubeadm})
	for _, w := range []string{"kubeadm 1.33: EtcdLearnerMode is not among kubeadm's feature gates there (removed in 1.33",
		"kube-apiserver 1.33 will not start: feature gate ValidatingAdmissionPolicy was removed in 1.32"} {
		if !strings.Contains(text, w) {
			t.Errorf("the text lacks %q:\n%s", w, text)
		}
	}
}

// TestScanStaticPodGates: at 1.36 UserNamespacesSupport is GA and locked
// on, so setting it off stops the API server; ImageVolume, GA and locked
// on there too, is set on (a warning) as spelled, and unknown in lower
// case; a gate no release declares is unknown.
func TestScanStaticPodGates(t *testing.T) {
	code, raw := gateScan(t, "1.36", FormatJSON, map[string]string{"apiserver.yaml": gatesStaticPod})
	sameRows(t, gateRows(t, raw), []string{
		"apiserver.yaml:1:12 Pod kube-apiserver UserNamespacesSupport=false locked_conflict -",
		"apiserver.yaml:1:12 Pod kube-apiserver ImageVolume=true locked -",
		"apiserver.yaml:1:12 Pod kube-apiserver imagevolume=true unknown -",
		"apiserver.yaml:1:12 Pod kube-apiserver NoSuchGateAnywhere=true unknown -",
	})
	if code != ExitRemoved {
		t.Errorf("exit %d, want %d", code, ExitRemoved)
	}
	_, text := gateScan(t, "1.36", FormatText, map[string]string{"apiserver.yaml": gatesStaticPod})
	for _, w := range []string{
		"kube-apiserver 1.36 will not start: feature gate UserNamespacesSupport is locked to true there, and is set to false (Pod kube-apiserver, apiserver.yaml document 1 line 12)",
		"kube-apiserver 1.36 will not start: feature gate imagevolume is not declared; 1.36 declares ImageVolume",
		"kube-apiserver 1.36 will not start: no release I read declares feature gate NoSuchGateAnywhere",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("the text lacks %q:\n%s", w, text)
		}
	}
}

// TestScanGatesUncheckable: a release whose code was not read (1.18)
// checks nothing and says so; a knowledge without gates says so too.
func TestScanGatesUncheckable(t *testing.T) {
	k, err := snapshot.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "kubelet.yaml")
	if err := os.WriteFile(p, []byte(gatesKubelet), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		k    *knowledge.Knowledge
		to   string
		note string
	}{
		{"a release not read", k, "1.18", "I have not read the code of 1.18"},
		{"no gates", &knowledge.Knowledge{APIs: k.APIs, APIReleases: k.APIReleases, Sources: k.Sources}, "1.33", "holds no release's feature gates"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notes []string
			var out bytes.Buffer
			code, err := Run(context.Background(), InMemory(tc.k), Request{To: knowledge.MustVersion(tc.to), Paths: []string{p}, Format: FormatJSON,
				Note: func(s string) { notes = append(notes, s) }}, &out)
			if err != nil {
				t.Fatal(err)
			}
			if code != ExitClean || len(notes) != 1 || !strings.Contains(notes[0], tc.note) {
				t.Errorf("exit %d, notes %q; want 0 and a note %q", code, notes, tc.note)
			}
			if rows := gateRows(t, out.String()); len(rows) != 0 {
				t.Errorf("gates %q, want none", rows)
			}
		})
	}
}

// TestScanGatesSARIF: each gate finding is a SARIF result of its rule,
// at its file and line, tagged feature-gate.
func TestScanGatesSARIF(t *testing.T) {
	code, raw := gateScan(t, "1.33", FormatSARIF, map[string]string{"kubelet.yaml": gatesKubelet})
	if code != ExitRemoved {
		t.Errorf("exit %d, want %d", code, ExitRemoved)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID         string         `json:"id"`
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string                `json:"ruleId"`
				Level     string                `json:"level"`
				Message   struct{ Text string } `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
						Region           struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(raw), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v:\n%s", err, raw)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		l := r.Locations[0].PhysicalLocation
		got = append(got, fmt.Sprintf("%s %s %s:%d %s", r.RuleID, r.Level, filepath.Base(l.ArtifactLocation.URI), l.Region.StartLine, r.Message.Text))
	}
	sameRows(t, got, []string{
		"removed-feature-gate error kubelet.yaml:4 kubelet 1.33 will not start: feature gate AppArmor was removed in 1.33",
		"locked-feature-gate warning kubelet.yaml:5 kubelet 1.33 ignores SidecarContainers=true: it is locked to that (GA), and locked gates are removed a few releases on",
		"deprecated-feature-gate warning kubelet.yaml:6 kubelet 1.33 warns: feature gate KMSv1 is deprecated and will be removed",
	})
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if strings.HasSuffix(r.ID, "-feature-gate") && fmt.Sprint(r.Properties["tags"]) != "[kubernetes feature-gate]" {
			t.Errorf("rule %s tags %v", r.ID, r.Properties["tags"])
		}
	}
}

// gatesDualStack sets IPv6DualStack (k8s.io/kubernetes declares it in
// 1.19-1.24, k8s.io/controller-manager in 1.21-1.26; its v0.27.0 is not in
// the data) on a kube-apiserver and a kube-controller-manager static Pod
// and a kubelet, and CPUCFSQuotaPeriod (the Go constant of
// CustomCPUCFSQuotaPeriod) on the kubelet.
const gatesDualStack = `apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
spec:
  containers:
  - name: kube-apiserver
    command: ["kube-apiserver", "--feature-gates=IPv6DualStack=true"]
---
apiVersion: v1
kind: Pod
metadata:
  name: kube-controller-manager
spec:
  containers:
  - name: kube-controller-manager
    command: ["kube-controller-manager", "--feature-gates=IPv6DualStack=true"]
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
featureGates:
  IPv6DualStack: true
  CPUCFSQuotaPeriod: true
`

// TestScanGatesPerComponent: at 1.25 kube-apiserver and the kubelet no
// longer take IPv6DualStack (k8s.io/kubernetes dropped it; only
// k8s.io/controller-manager, whose gates they do not register, declares
// it), while for kube-controller-manager the files read cannot say; at
// 1.27 its module was not read; at 1.28 it is gone everywhere, from
// k8s.io/controller-manager in 1.27 or 1.28.
func TestScanGatesPerComponent(t *testing.T) {
	for _, tc := range []struct {
		to   string
		exit int
		rows []string
		text []string
	}{
		{"1.25", ExitRemoved, []string{
			"dual.yaml:1:8 Pod kube-apiserver IPv6DualStack=true removed 1.25",
			"dual.yaml:2:17 Pod kube-controller-manager IPv6DualStack=true uncertain 1.25",
			"dual.yaml:3:22 KubeletConfiguration kubelet IPv6DualStack=true removed 1.25",
			"dual.yaml:3:23 KubeletConfiguration kubelet CPUCFSQuotaPeriod=true unknown -",
		}, []string{
			"kube-apiserver 1.25 will not start: feature gate IPv6DualStack was removed in 1.25 from k8s.io/kubernetes (k8s.io/controller-manager declares it there, and kube-apiserver does not register its gates)",
			"kube-controller-manager 1.25 may not start: feature gate IPv6DualStack is declared there only by k8s.io/controller-manager (k8s.io/kubernetes removed it in 1.25), and the files I read do not say whether kube-controller-manager registers that module's gates",
			"kubelet 1.25 will not start: CPUCFSQuotaPeriod is the Go constant of feature gate CustomCPUCFSQuotaPeriod",
		}},
		{"1.27", ExitRemoved, []string{
			"dual.yaml:1:8 Pod kube-apiserver IPv6DualStack=true removed 1.25",
			"dual.yaml:2:17 Pod kube-controller-manager IPv6DualStack=true uncertain 1.25",
			"dual.yaml:3:22 KubeletConfiguration kubelet IPv6DualStack=true removed 1.25",
			"dual.yaml:3:23 KubeletConfiguration kubelet CPUCFSQuotaPeriod=true unknown -",
		}, []string{
			"kube-controller-manager 1.27 may not start: feature gate IPv6DualStack was declared by k8s.io/controller-manager before 1.27, and its code of 1.27 was not read",
		}},
		{"1.28", ExitRemoved, []string{
			"dual.yaml:1:8 Pod kube-apiserver IPv6DualStack=true removed 1.25",
			"dual.yaml:2:17 Pod kube-controller-manager IPv6DualStack=true removed 1.27",
			"dual.yaml:3:22 KubeletConfiguration kubelet IPv6DualStack=true removed 1.25",
			"dual.yaml:3:23 KubeletConfiguration kubelet CPUCFSQuotaPeriod=true unknown -",
		}, []string{
			"kube-controller-manager 1.28 will not start: feature gate IPv6DualStack was removed in 1.27 or 1.28 from k8s.io/controller-manager",
		}},
	} {
		code, raw := gateScan(t, tc.to, FormatJSON, map[string]string{"dual.yaml": gatesDualStack})
		if code != tc.exit {
			t.Errorf("--to %s: exit %d, want %d", tc.to, code, tc.exit)
		}
		sameRows(t, gateRows(t, raw), tc.rows)
		_, text := gateScan(t, tc.to, FormatText, map[string]string{"dual.yaml": gatesDualStack})
		for _, w := range tc.text {
			if !strings.Contains(text, w) {
				t.Errorf("--to %s: the text lacks %q:\n%s", tc.to, w, text)
			}
		}
	}
}
