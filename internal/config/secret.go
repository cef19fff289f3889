package config

import "github.com/kepbot/kepbot/internal/secret"

// Secret holds a token or a signing secret; see package secret.
type Secret = secret.Secret

// Redacted is what a Secret shows wherever it is printed.
const Redacted = secret.Redacted

// NewSecret wraps s.
func NewSecret(s string) Secret { return secret.New(s) }
