package slack

import "github.com/kepbot/kepbot/internal/secret"

// Secret holds a token or signing secret; every way of printing it yields
// "[REDACTED]" (see package secret).
type Secret = secret.Secret

// NewSecret wraps s.
func NewSecret(s string) Secret { return secret.New(s) }
