// Package metrics holds kepbot's Prometheus metrics on a registry of its
// own (never the global one, so tests and several servers in one process do
// not collide): questions by platform and answer kind, answer latency, and
// errors by platform and reason.
//
// It imports no package of the module. It may import anything in the module
// but cmd (internal/importrules enforces it).
package metrics
