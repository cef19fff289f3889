// Package flat keeps many small strings, or many small lists, as one of
// each and where each piece ends. What the knowledge keeps for as long as
// a process runs (the search index, the question vocabulary) is then a few
// objects for every garbage collection to mark, not one per string or
// list.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package flat
