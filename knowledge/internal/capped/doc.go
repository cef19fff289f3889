// Package capped reads files and streams that may be no larger than a
// limit: the one way every source reader of kepbot reads bytes it did not
// write. It imports only the standard library.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package capped
