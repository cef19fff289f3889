// Package semver compares versions by the precedence of Semantic
// Versioning 2.0.0 (semver.org, §11), as OSV's SEMVER ranges are read:
// MAJOR.MINOR.PATCH, a pre-release after "-" older than its release,
// build metadata after "+" ignored, no leading "v". OSV's "0" (the
// beginning of time in an introduced event) is older than every version.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package semver
