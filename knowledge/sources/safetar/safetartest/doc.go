// Package safetartest writes hostile tar.gz archives on the fly for the
// tests of safetar and of its callers: a million entries, an entry of ten
// gigabytes, without holding any of it in memory or on disk.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package safetartest
