// Package metrics holds kepbot's Prometheus metrics on a registry of its
// own (never the global one, so tests and several servers in one process do
// not collide): questions by platform and answer kind, answer latency, and
// errors by platform and reason.
//
// It imports no package of the module. Like all of internal/, it may import
// only other internal/ packages (internal/importrules enforces it).
package metrics
