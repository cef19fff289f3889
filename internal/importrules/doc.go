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
//   - internal/ is plumbing (config, logging, metrics, platform, secret)
//     and test kits (etcdtest, goldentest, kastest, logtest, sharedtest):
//     its non-test files import nothing of the application (adapters/,
//     knowledge/, store/, cmd/), only other internal/ packages. A test kit
//     that needs the application's types lives beside what it fakes
//     (knowledge/sources/upstreamtest, store/storetest);
//   - nothing imports cmd/..., but a command its own cmd/NAME/internal/...
//     (cmd/bot/internal/app, the wiring of bot serve, for cmd/bot).
//
// It imports no package of the module.
package importrules
