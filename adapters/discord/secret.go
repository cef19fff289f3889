package discord

import "github.com/kepbot/kepbot/internal/secret"

// Secret holds the bot token; every way of printing it yields
// "[REDACTED]" (see package secret).
type Secret = secret.Secret

// NewSecret wraps s.
func NewSecret(s string) Secret { return secret.New(s) }

// redacted is what stands where a secret was.
const redacted = secret.Redacted
