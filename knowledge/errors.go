package knowledge

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Error codes. The message of an Error with one of these codes is a sentence
// a user may read; only adapters decide how to show it.
const (
	EBADINPUT = "bad_input"
	ENOTFOUND = "not_found"
	EINTERNAL = "internal"
)

// Error is a domain error: a code and a message fit to show a user.
type Error struct {
	Code    string
	Message string
	// Suggestions are "did you mean" alternatives, best first.
	Suggestions []string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-readable message of err if it is an *Error,
// and a generic apology for anything else: internal errors are never shown.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Sorry, something went wrong on my side. Try again in a moment."
}

// Echo returns a short, safe copy of user text for a message: letters,
// digits and . - _ : only (so it can never become a mention or a link), at
// most 24 of them, or "that" when none is left.
func Echo(s string) string { return echo(s) }

func echo(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-_:", r) {
			if n == 24 {
				b.WriteString("…")
				break
			}
			b.WriteRune(r)
			n++
		}
	}
	if b.Len() == 0 {
		return "that"
	}
	return b.String()
}
