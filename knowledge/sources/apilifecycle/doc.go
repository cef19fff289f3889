// Package apilifecycle reads the API lifecycle markers of the Kubernetes
// API modules: k8s.io/api, and the two groups that live elsewhere
// (apiextensions.k8s.io in k8s.io/apiextensions-apiserver,
// apiregistration.k8s.io in k8s.io/kube-aggregator).
//
// Each group/version package of a module holds two files read here:
//
//   - register.go: the group (const GroupName = "apps", "" for the core
//     group) and, in addKnownTypes, the kinds the package registers
//     (&Deployment{}, &DeploymentList{}, ...);
//   - zz_generated.prerelease-lifecycle.go, for alpha and beta versions
//     (and a few types that were alpha or beta once): per type,
//     APILifecycleIntroduced, APILifecycleDeprecated and APILifecycleRemoved
//     return the release as (major, minor), and APILifecycleReplacement the
//     schema.GroupVersionKind to use instead.
//
// ParseRegister and ParseMarkers read the two files; ReadRelease reads one
// release of a module from an fs.FS (a folder), ReadModuleTarGz from a
// GitHub tarball; Merge joins releases into one knowledge.APIType per
// group/version/kind; LoadDir reads a whole folder of releases (the
// api-lifecycle data: k8s.io-api/release-1.N/...) with the module versions
// and dates its SOURCE.md gives.
//
// The files are generated Go code of a fixed shape, so they are read by
// scanning lines and a few regular expressions, not by go/parser: the whole
// data (1,700 files, 16 MB) reads in a fraction of a second. Nothing here
// writes to a store, reads a file's modification time or the clock.
//
// It imports knowledge, knowledge/internal/fsreason,
// knowledge/internal/lazyre, knowledge/internal/limit,
// knowledge/sources/provenance, knowledge/sources/safetar. It may import the
// knowledge root and other
// knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package apilifecycle
