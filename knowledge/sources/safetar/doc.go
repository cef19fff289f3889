// Package safetar streams the entries of an untrusted .tar.gz without
// extracting it: every entry name is checked, every byte counted, and a
// stream that breaks a limit fails at the limit with bounded memory.
//
// It never writes to disk. Callers read the regular files they want through
// Entry.ReadAll, which holds at most Limits.MaxFileBytes in memory.
//
// It imports knowledge/internal/capped, knowledge/internal/limit. It may
// import the knowledge root
// and other knowledge packages; never an adapter or cmd
// (internal/importrules enforces it).
package safetar
