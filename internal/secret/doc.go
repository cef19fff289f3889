// Package secret holds tokens and signing secrets so that no way of
// printing them shows them.
//
// It imports no package of the module. It may import anything in the module
// but cmd (internal/importrules enforces it).
package secret
