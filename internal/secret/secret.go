package secret

import (
	"fmt"
	"log/slog"
)

// Redacted is what a Secret shows wherever it is printed, logged or
// serialised.
const Redacted = "[REDACTED]"

// Secret holds a token or a signing secret. Every way of printing it (fmt
// verbs including %#v and %x, encoding/json, encoding.TextMarshaler, slog)
// yields "[REDACTED]"; only Value returns the secret itself, for the one
// place that must send it.
type Secret struct {
	value string
}

// New wraps s.
func New(s string) Secret { return Secret{value: s} }

// Value returns the secret. Call it only where the secret leaves for the
// service that needs it, never to log or format it.
func (s Secret) Value() string { return s.value }

// IsZero reports whether no secret is set.
func (s Secret) IsZero() bool { return s.value == "" }

// String returns "[REDACTED]", or "" when no secret is set.
func (s Secret) String() string {
	if s.value == "" {
		return ""
	}
	return Redacted
}

// GoString returns "[REDACTED]" for %#v.
func (s Secret) GoString() string { return `secret.Secret("` + Redacted + `")` }

// Format writes String for every verb, so that %d or %x cannot print the
// underlying bytes.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = f.Write([]byte(s.GoString()))
		return
	}
	_, _ = f.Write([]byte(s.String()))
}

// MarshalJSON writes "[REDACTED]" (or "" when unset).
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + s.String() + `"`), nil }

// MarshalText writes "[REDACTED]" (or "" when unset).
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// LogValue makes log/slog print "[REDACTED]".
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }
