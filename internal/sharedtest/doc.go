// Package sharedtest finds the ../shared folder of source documents that
// tests read at test time. Nothing from it is ever copied into the repository.
//
// It imports knowledge. It may import anything in the module but cmd
// (internal/importrules enforces it).
package sharedtest
