// Package logging builds kepbot's zerolog logger: JSON lines by default,
// the console writer on a terminal, every line passed through a Redactor so
// that tokens, signing secrets and signed URLs never reach the log.
//
// House rules for what is logged: snake_case keys; per-request loggers carry
// platform, channel and kind (Request); message text never at info level.
//
// It imports internal/config. Like all of internal/, it may import only
// other internal/ packages (internal/importrules enforces it).
package logging
