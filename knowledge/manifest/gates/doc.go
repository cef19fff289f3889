// Package gates reads the feature gates a configuration sets, as package
// manifest reads each document: a KubeletConfiguration's or
// KubeProxyConfiguration's featureGates; kubeadm's ClusterConfiguration
// featureGates (kubeadm's own gates) and --feature-gates in the extra args
// of its API server, controller manager and scheduler (v1beta3's map,
// v1beta4's list of name and value); InitConfiguration's and
// JoinConfiguration's kubelet extra args; and --feature-gates in the
// command or arguments of a container that runs kube-apiserver,
// kube-controller-manager, kube-scheduler, kube-proxy or the kubelet (a
// static Pod, a DaemonSet), Lists' items included. Only documents that
// name featureGates or feature-gates are parsed, with yaml.v3 as a node
// tree (no alias is followed); the settings keep the file, document and
// line, never another value of the document.
//
// It imports knowledge. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package gates
