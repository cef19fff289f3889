package gates_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/manifest"
)

// settings reads text as a scan reads a file, and writes each gate
// setting as "document:line kind/name component gate=value".
func settings(t *testing.T, text string) []string {
	t.Helper()
	read, err := manifest.ReadKnowledge(strings.NewReader(text), "f.yaml", manifest.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range read.Gates {
		if s.File != "f.yaml" {
			t.Errorf("%+v: file %q, want f.yaml", s, s.File)
		}
		k := ""
		if s.Kubeadm {
			k = " (kubeadm's)"
		}
		v := fmt.Sprint(s.Value)
		if s.Invalid != "" {
			v = "invalid(" + s.Invalid + ")"
		}
		out = append(out, fmt.Sprintf("%d:%d %s/%s %s %s=%s%s", s.Document, s.Line, s.Kind, s.Name, s.Component, s.Gate, v, k))
	}
	return out
}

func same(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestKubeletAndKubeProxyConfiguration: featureGates of both, after
// another document, with the line of each gate in the file; a value that
// is not a boolean is a setting the component refuses.
func TestKubeletAndKubeProxyConfiguration(t *testing.T) {
	text := `apiVersion: v1
kind: ConfigMap
metadata:
  name: other
data:
  featureGates: "not read: a ConfigMap's data"
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
featureGates:
  AppArmor: true
  UserNamespacesSupport: false
  Typo: maybe
---
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: nftables
featureGates: {NFTablesProxyMode: true}
`
	same(t, settings(t, text), []string{
		"2:12 KubeletConfiguration/ kubelet AppArmor=true",
		"2:13 KubeletConfiguration/ kubelet UserNamespacesSupport=false",
		"2:14 KubeletConfiguration/ kubelet Typo=invalid(maybe)",
		"3:19 KubeProxyConfiguration/ kube-proxy NFTablesProxyMode=true",
	})
}

// TestGateValuesAsTheComponentsReadThem: featureGates goes through
// sigs.k8s.io/yaml's YAML 1.1 reader into a map[string]bool, so a plain
// yes, on, Y or OFF is a boolean there (yaml.v3 alone would see strings
// and the gate would go unchecked), while a quoted "true", a number or
// nothing is no boolean and the component does not start; --feature-gates
// goes through strconv.ParseBool, so yes is refused there and 1, t and
// TRUE are taken, and a key without =value is refused.
func TestGateValuesAsTheComponentsReadThem(t *testing.T) {
	text := `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
featureGates:
  A: yes
  B: on
  C: Y
  D: OFF
  E: "true"
  F: 1
  G:
  H: [true]
  I: 'no'
---
apiVersion: v1
kind: Pod
metadata: {name: kube-scheduler}
spec:
  containers:
  - name: kube-scheduler
    command: [kube-scheduler, "--feature-gates=J=1,K=t,L=TRUE,M=yes,N,O=,P=on"]
`
	same(t, settings(t, text), []string{
		"1:4 KubeletConfiguration/ kubelet A=true",
		"1:5 KubeletConfiguration/ kubelet B=true",
		"1:6 KubeletConfiguration/ kubelet C=true",
		"1:7 KubeletConfiguration/ kubelet D=false",
		`1:8 KubeletConfiguration/ kubelet E=invalid(the string "true")`,
		"1:9 KubeletConfiguration/ kubelet F=invalid(1)",
		"1:10 KubeletConfiguration/ kubelet G=invalid(no value)",
		"1:11 KubeletConfiguration/ kubelet H=invalid(a list)",
		`1:12 KubeletConfiguration/ kubelet I=invalid(the string "no")`,
		"2:20 Pod/kube-scheduler kube-scheduler J=true",
		"2:20 Pod/kube-scheduler kube-scheduler K=true",
		"2:20 Pod/kube-scheduler kube-scheduler L=true",
		"2:20 Pod/kube-scheduler kube-scheduler M=invalid(yes)",
		"2:20 Pod/kube-scheduler kube-scheduler N=invalid(no value)",
		"2:20 Pod/kube-scheduler kube-scheduler O=invalid(no value)",
		"2:20 Pod/kube-scheduler kube-scheduler P=invalid(on)",
	})
}

// TestKubeadmV1beta3: ClusterConfiguration's own featureGates are
// kubeadm's; the control plane's extraArgs are a map whose feature-gates
// is the flag's value; InitConfiguration's kubeletExtraArgs the kubelet's.
func TestKubeadmV1beta3(t *testing.T) {
	text := `apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  kubeletExtraArgs:
    feature-gates: "ImageVolume=true"
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
featureGates:
  EtcdLearnerMode: true
apiServer:
  extraArgs:
    feature-gates: ValidatingAdmissionPolicy=true,WatchList=false
    audit-log-path: /var/log/audit.log
controllerManager:
  extraArgs:
    feature-gates: "CronJobsScheduledAnnotation=true"
scheduler:
  extraArgs: {feature-gates: "SchedulerQueueingHints=false"}
`
	same(t, settings(t, text), []string{
		"1:5 InitConfiguration/ kubelet ImageVolume=true",
		"2:10 ClusterConfiguration/ kubeadm EtcdLearnerMode=true (kubeadm's)",
		"2:13 ClusterConfiguration/ kube-apiserver ValidatingAdmissionPolicy=true",
		"2:13 ClusterConfiguration/ kube-apiserver WatchList=false",
		"2:17 ClusterConfiguration/ kube-controller-manager CronJobsScheduledAnnotation=true",
		"2:19 ClusterConfiguration/ kube-scheduler SchedulerQueueingHints=false",
	})
}

// TestKubeadmV1beta4: extraArgs and kubeletExtraArgs are lists of name
// and value.
func TestKubeadmV1beta4(t *testing.T) {
	text := `apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
featureGates:
  ControlPlaneKubeletLocalMode: true
apiServer:
  extraArgs:
  - name: audit-log-path
    value: /var/log/audit.log
  - name: feature-gates
    value: ImageVolume=true
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
nodeRegistration:
  kubeletExtraArgs:
  - name: feature-gates
    value: UserNamespacesSupport=true,SidecarContainers=true
`
	same(t, settings(t, text), []string{
		"1:4 ClusterConfiguration/ kubeadm ControlPlaneKubeletLocalMode=true (kubeadm's)",
		"1:10 ClusterConfiguration/ kube-apiserver ImageVolume=true",
		"2:17 JoinConfiguration/ kubelet UserNamespacesSupport=true",
		"2:17 JoinConfiguration/ kubelet SidecarContainers=true",
	})
}

// TestContainersFeatureGatesFlag: --feature-gates in a static Pod's
// command (joined with =, or the value as the next word), a DaemonSet's
// pod template args, a List's items, a shell line; a container that runs
// no Kubernetes component is not read.
func TestContainersFeatureGatesFlag(t *testing.T) {
	text := `apiVersion: v1
kind: Pod
metadata:
  name: kube-apiserver
  namespace: kube-system
spec:
  containers:
  - name: kube-apiserver
    image: registry.k8s.io/kube-apiserver:v1.33.0
    command:
    - kube-apiserver
    - --advertise-address=10.0.0.1
    - --feature-gates=UserNamespacesSupport=false,WatchList=true
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-proxy
spec:
  template:
    spec:
      containers:
      - name: kube-proxy
        image: registry.k8s.io/kube-proxy:v1.33.0
        command: ["/usr/local/bin/kube-proxy"]
        args:
        - --config=/var/lib/kube-proxy/config.conf
        - --feature-gates
        - NFTablesProxyMode=true
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: scheduler
  spec:
    containers:
    - name: main
      image: example.com/sched:1
      command: ["sh", "-c", "exec kube-scheduler --feature-gates=SchedulerQueueingHints=true --v=2"]
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    template:
      spec:
        containers:
        - name: web
          image: nginx
          args: ["--feature-gates=NotAComponent=true"]
`
	same(t, settings(t, text), []string{
		"1:13 Pod/kube-apiserver kube-apiserver UserNamespacesSupport=false",
		"1:13 Pod/kube-apiserver kube-apiserver WatchList=true",
		"2:29 DaemonSet/kube-proxy kube-proxy NFTablesProxyMode=true",
		"3:42 Pod/scheduler kube-scheduler SchedulerQueueingHints=true",
	})
}

// TestJSONConfiguration: a kubelet configuration in JSON is read as well.
func TestJSONConfiguration(t *testing.T) {
	text := `{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
 "featureGates": {"ImageVolume": true}}`
	same(t, settings(t, text), []string{"1:2 KubeletConfiguration/ kubelet ImageVolume=true"})
}

// TestChatReaderReadsGates: the reader of a scan question in chat reads
// them too, without a file.
func TestChatReaderReadsGates(t *testing.T) {
	read, err := manifest.ChatReader([]byte("apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  AppArmor: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []knowledge.GateSetting{{Document: 1, Line: 4, Kind: "KubeletConfiguration", Component: "kubelet", Gate: "AppArmor", Value: true}}
	if fmt.Sprint(read.Gates) != fmt.Sprint(want) {
		t.Errorf("Gates = %+v, want %+v", read.Gates, want)
	}
}

// TestAliasesAreNotFollowed: a document of aliases (a "billion laughs")
// sets nothing and costs no more than its own nodes.
func TestAliasesAreNotFollowed(t *testing.T) {
	text := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nx: &a {AppArmor: true}\nfeatureGates: *a\n"
	same(t, settings(t, text), nil)
}

// BenchmarkReadKnowledge: what reading the gates adds to a scan's read of
// a stream: manifests that set none (a byte search a document), and
// configurations that do (parsed again with yaml.v3).
func BenchmarkReadKnowledge(b *testing.B) {
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        args: [--port=80]\n"
	kubelet := "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\nfeatureGates:\n  AppArmor: true\n  ImageVolume: true\n"
	for _, tc := range []struct{ name, doc string }{{"no gates", deploy}, {"kubelet configurations", kubelet}} {
		text := strings.Repeat(tc.doc+"---\n", 2000)
		b.Run(tc.name+"/Read", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := manifest.Read(strings.NewReader(text), manifest.DefaultLimits()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/ReadKnowledge", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := manifest.ReadKnowledge(strings.NewReader(text), "f.yaml", manifest.DefaultLimits()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
