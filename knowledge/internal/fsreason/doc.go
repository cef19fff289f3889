// Package fsreason says in plain words why a file or folder could not be
// read, for the warnings and problems the readers of local files report.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package fsreason
