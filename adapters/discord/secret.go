package discord

import (
	"fmt"
	"log/slog"
)

// redacted is what a Secret shows wherever it is printed or serialised.
const redacted = "[REDACTED]"

// Secret holds the bot token. Every way of printing it (fmt verbs including
// %#v and %x, encoding/json, encoding.TextMarshaler, slog, zerolog's
// Stringer) yields "[REDACTED]"; only Value returns the token, for the one
// place that sends it to Discord.
type Secret struct {
	value string
}

// NewSecret wraps s.
func NewSecret(s string) Secret { return Secret{value: s} }

// Value returns the secret itself. Call it only where it leaves for Discord.
func (s Secret) Value() string { return s.value }

// IsZero reports whether no secret is set.
func (s Secret) IsZero() bool { return s.value == "" }

// String returns "[REDACTED]", or "" when no secret is set.
func (s Secret) String() string {
	if s.value == "" {
		return ""
	}
	return redacted
}

// GoString returns a redacted Go form for %#v.
func (s Secret) GoString() string { return `discord.Secret("` + redacted + `")` }

// Format writes String for every verb, so that %x or %q cannot print the
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
