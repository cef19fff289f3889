package manifest

import (
	"errors"
	"fmt"

	"github.com/kepbot/kepbot/knowledge/internal/limit"
)

// Limits bound what one Read takes in. A zero field takes its default
// from DefaultLimits.
type Limits struct {
	MaxBytes         int64 // the whole stream
	MaxDocuments     int   // non-empty documents in the stream
	MaxDocumentBytes int   // one document; a longer one is a Problem, and the rest of the stream is read
	MaxDepth         int   // nesting of one document; a deeper one is a Problem
	MaxObjects       int   // objects in the Result, list items included
}

// DefaultLimits returns limits for a folder or file scanned from the
// command line: 256 MiB in all, 100,000 documents, 4 MiB and 200 levels
// of nesting per document, 200,000 objects. A `kubectl get -o yaml` list
// larger than 4 MiB must be split (or the limit raised).
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:         256 << 20,
		MaxDocuments:     100_000,
		MaxDocumentBytes: 4 << 20,
		MaxDepth:         200,
		MaxObjects:       200_000,
	}
}

// ChatLimits returns limits for manifests pasted or attached in chat:
// 1 MiB in all, 5,000 documents and 5,000 objects, 1 MiB per document,
// 100 levels of nesting.
func ChatLimits() Limits {
	return Limits{
		MaxBytes:         1 << 20,
		MaxDocuments:     5_000,
		MaxDocumentBytes: 1 << 20,
		MaxDepth:         100,
		MaxObjects:       5_000,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.MaxBytes = limit.Or(l.MaxBytes, d.MaxBytes)
	l.MaxDocuments = limit.Or(l.MaxDocuments, d.MaxDocuments)
	l.MaxDocumentBytes = limit.Or(l.MaxDocumentBytes, d.MaxDocumentBytes)
	l.MaxDepth = limit.Or(l.MaxDepth, d.MaxDepth)
	l.MaxObjects = limit.Or(l.MaxObjects, d.MaxObjects)
	return l
}

// The errors Read returns wrap one of these, so a caller can tell them
// apart with errors.Is; their text is a sentence for the user.
var (
	ErrTooLarge      = errors.New("the input is too large")
	ErrBinary        = errors.New("the input is not text")
	ErrTooMany       = errors.New("the input holds too many documents or objects")
	ErrUnreadable    = errors.New("the input could not be read")
	errInternalPanic = errors.New("internal error")
	errMoreThanOne   = errors.New("more than one document")
)

// streamError is an error of the stream as a whole: Kind is one of the
// Err values above and Text says what was wrong, in a sentence.
type streamError struct {
	Kind error
	Text string
	Err  error // the I/O error, if any
}

func (e *streamError) Error() string { return e.Text }

func (e *streamError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// size writes n bytes the way the messages say it: "4 MiB", "1.5 KiB".
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
