// Package prose holds the small string helpers that the knowledge root
// (compiling notices and titles) and the engine (writing answers) both
// use: whether a word is written like a feature gate, a text's first
// sentence, a cut to a number of runes, and adding names without
// repeating one. It imports only the standard library.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package prose
