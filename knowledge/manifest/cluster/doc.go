// Package cluster reads what a live Kubernetes cluster says of the API
// versions in use, for `bot scan --cluster`, as objects a scan checks
// (knowledge.ManifestRead), each saying which of three signals found it
// (ManifestObject.Source):
//
//   - metrics: the apiserver's apiserver_requested_deprecated_apis, 1 for
//     every deprecated API version requested since it started;
//   - object: each object's managedFields, which record the API version
//     each writer used (listed as metadata alone, paged: a Secret's data is
//     never fetched);
//   - helm-release: the manifest of each Helm v3 release's latest deployed
//     revision (Secrets of type helm.sh/release.v1, ConfigMaps labelled
//     owner=helm), read as `helm template` output.
//
// The kubeconfig is resolved as kubectl does (--kubeconfig, $KUBECONFIG,
// ~/.kube/config, the in-cluster service account) with client-go's
// tools/clientcmd, and requests go through client-go's rest transport
// (authentication, TLS); everything is read as plain JSON, so the
// k8s.io/api type registry stays out of the binary. What the credentials
// may not read is said, not fatal.
//
// It imports knowledge, knowledge/manifest, k8s.io/client-go.
package cluster
