// Package fetch downloads one file over https from an allowlist of hosts,
// guarded against server-side request forgery (reliability notes §5.4):
// https only; the host checked on the URL, on every redirect (at most
// MaxRedirects) and again at dial time, where it is resolved once and
// dialled only at addresses that are public (never loopback, private,
// link-local, CGNAT, ULA, unspecified, multicast or IPv4-mapped); no proxy
// from the environment; one total timeout; a cap on the bytes read; and
// If-None-Match for a cheap "nothing new".
//
// It knows nothing of kepbot's knowledge. Errors name the URL without its
// user info, query or fragment (see Redact), as those may carry a token.
//
// It imports no package of the module. It may import the knowledge root and
// other knowledge packages; never an adapter or cmd (internal/importrules
// enforces it).
package fetch
