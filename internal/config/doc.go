// Package config reads kepbot's configuration: one YAML file, then defaults
// for what it leaves out, then environment overrides, then Validate.
//
// Secrets (tokens, signing secrets) never come from the YAML file itself:
// they come from the environment (SLACK_BOT_TOKEN) or from a file named by a
// *_file key or a *_FILE variable (SLACK_BOT_TOKEN_FILE), and they are held
// as Secret values that print as "[REDACTED]".
//
// It imports internal/secret. Like all of internal/, it may import only
// other internal/ packages (internal/importrules enforces it).
package config
