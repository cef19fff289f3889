// Package featuregates reads what each Kubernetes release's code declares
// about its feature gates: every gate's stage (Alpha, Beta, GA,
// Deprecated), its default and whether it is locked to it, and which
// module declares it, kubeadm's own gates kept apart. This is what a
// cluster of that release does; kep.yaml milestones are plans.
//
// Two formats, both read as the code is, never by guessing at text:
//
//   - up to 1.31, Go source (k8s.io/kubernetes pkg/features, the staging
//     modules' features packages, kubeadm's cmd/kubeadm/app/features): the
//     maps of type map[featuregate.Feature]featuregate.FeatureSpec and, from
//     1.31, ...VersionedSpecs, read with go/parser. A gate's name is its
//     constant's string value; an entry may name another package's
//     constant (genericfeatures.X).
//   - from 1.32, k8s.io/kubernetes' generated versioned_feature_list.yaml
//     (and unversioned_feature_list.yaml), read with yaml.v3: every server
//     gate the release builds in, each spec holding from its version on.
//     client-go's and kubeadm's gates still come from their Go code. The
//     list names two gates by their Go constant (CPUCFSQuotaPeriod is set as
//     CustomCPUCFSQuotaPeriod): the constants of the Go files give the name.
//
// Build reads one release's files into a knowledge.GateTable; LoadDir reads
// the shared feature-gates folder (VERSIONS.tsv dates each release by its
// k8s.io/kubernetes tag, never a file time); ReadModuleZip reads a release
// from a Go module proxy's zip of k8s.io/kubernetes or k8s.io/client-go.
// Nothing here writes to a store or reads the clock.
//
// It imports knowledge, knowledge/internal/capped,
// knowledge/internal/fsreason. It may import the knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package featuregates
