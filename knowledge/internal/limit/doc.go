// Package limit fills the limits of a reader left unset with their
// defaults, one rule for every Limits type of the sources and the
// manifest reader: zero or negative is unset.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package limit
