// Package sourcetest holds checks the source parsers' tests share:
// CheckKEPCoverage, that every KEP number a document's raw text names
// ends up in the corpus its parser made from it (or is left out with a
// reason). It lives beside the parsers, not in internal/, because it
// reads their corpus (knowledge.Corpus).
//
// It imports knowledge. It may import anything in the module but cmd
// (internal/importrules enforces it).
package sourcetest
