// Package secret holds tokens and signing secrets so that no way of
// printing them shows them.
//
// It imports no package of the module. Like all of internal/, it may import
// only other internal/ packages (internal/importrules enforces it).
package secret
