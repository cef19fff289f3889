package fsreason

import (
	"errors"
	"io/fs"
)

// Known returns the plain words for a missing file or folder ("no such
// file or folder") or a refused one ("permission denied"), and false for
// any other error.
func Known(err error) (string, bool) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder", true
	case errors.Is(err, fs.ErrPermission):
		return "permission denied", true
	}
	return "", false
}

// Of says why a path could not be read: Known's words, or else err's own
// text.
func Of(err error) string {
	if s, ok := Known(err); ok {
		return s
	}
	return err.Error()
}
