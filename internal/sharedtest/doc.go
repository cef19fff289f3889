// Package sharedtest finds the ../shared folder of source documents that
// tests read at test time. Nothing from it is ever copied into the repository.
//
// It imports no package of the module. Like all of internal/, it may import
// only other internal/ packages (internal/importrules enforces it).
package sharedtest
