// Package importrules holds the test that keeps kepbot's layout honest:
// which packages may import which. It has no code of its own beyond the
// checker the test runs, and imports only the standard library.
//
// The rules:
//   - the knowledge root (package knowledge) imports only the standard
//     library and its own knowledge/internal/... helpers;
//   - nothing under knowledge/ imports an adapter or cmd;
//   - an adapter never imports another adapter (adapters/internal/... is
//     theirs to share), the store, or the sources;
//   - nothing imports cmd/....
//
// It imports no package of the module.
package importrules
