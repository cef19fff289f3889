// Package lazyre compiles a source parser's regular expressions the first
// time they are used, not when the program starts. The parsers hold some
// 150 of them; compiled at start they cost every command about 19 ms
// (`bot ask` included, which never parses a source) and keep 0.7 MB of
// small, pointer-rich objects that every garbage collection of serve
// marks, whether or not serve ever ingests.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package lazyre
