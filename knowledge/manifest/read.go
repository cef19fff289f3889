package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Read reads the Kubernetes objects of a stream of YAML or JSON
// documents: only each object's apiVersion, kind, metadata.name and
// metadata.namespace, with where they are. It reads one document at a
// time and holds no more than one (and the Result) in memory.
//
// A document that cannot be read is a Problem, and the rest of the
// stream is still read. The error is for the stream as a whole: it
// could not be read, it is over lim.MaxBytes, it is binary, or it holds
// more than lim.MaxDocuments documents or lim.MaxObjects objects; what
// was read before is still in the Result. A zero field of lim takes its
// default (see DefaultLimits).
func Read(r io.Reader, lim Limits) (*Result, error) {
	return readEach(r, lim, nil)
}

// readEach is Read, calling each (when not nil) with every document it
// reads whole and without a problem (within the limits, parsed): its
// index, its text (after the '\n' the stream keeps first) and its first
// line in the stream. The text is the stream's buffer: each must not
// keep it.
func readEach(r io.Reader, lim Limits, each func(doc int, text []byte, line int)) (*Result, error) {
	s := newStream(lim.withDefaults())
	s.each = each
	err := s.read(r)
	return s.res, err
}

// stats counts which path read each document, for tests and benchmarks.
type stats struct {
	fastYAML, fastJSON, slow int
}

// stream is one Read in progress.
type stream struct {
	lim   Limits
	res   *Result
	stats stats
	br    *bufio.Reader
	lr    io.LimitedReader
	line  int    // lines read
	long  []byte // a line longer than br's buffer

	// The document being read.
	buf       []byte // '\n' then its text, lines ending in '\n'
	start     int    // stream line of its first line; 0 while it has none
	content   bool   // it has a line that is not blank, a comment or a directive
	flags     charFlags
	badLine   int  // first line with a byte that makes it unreadable
	over      bool // over lim.MaxDocumentBytes: its text is dropped
	tmpl      string
	pending   string // a "# Source:" path waiting for the next document's content
	pendingIn bool   // pending was seen after the current document's content began
	json      bool   // its first character is { or [: JSON for the fast path
	kubectl   bool   // it starts with a line of `kubectl version` output
	feeding   bool   // the fast YAML path reads its lines as they come, and has not given up

	fast *fast
	ext  extraction
	out  outcome

	// each is called with every document read whole (see readEach); nil
	// for none.
	each func(doc int, text []byte, line int)
}

func newStream(lim Limits) *stream {
	s := &stream{lim: lim, res: &Result{}, buf: []byte{'\n'}, feeding: true}
	s.fast = newFast(&s.ext, lim.MaxDepth)
	return s
}

func (s *stream) read(r io.Reader) error {
	s.lr = io.LimitedReader{R: r, N: s.lim.MaxBytes + 1}
	s.br = bufio.NewReaderSize(&s.lr, 16<<10)
	if head, _ := s.br.Peek(2); len(head) == 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF) {
		return &streamError{Kind: ErrBinary, Text: "the input is UTF-16 text; save it as UTF-8 (PowerShell's > writes UTF-16: use | Out-File -Encoding utf8)"}
	}
	for {
		b, err := s.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			b, err = s.longLine(b)
		}
		if len(b) > 0 {
			if e := s.take(b); e != nil {
				return e
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			if s.lr.N <= 0 {
				upTo := s.line + 1
				if s.start != 0 {
					upTo = s.start
				}
				return &streamError{Kind: ErrTooLarge, Text: fmt.Sprintf("the input is larger than the %s limit; the documents before line %d were read", size(s.lim.MaxBytes), upTo)}
			}
			return s.flush()
		case errors.Is(err, errBinaryLine):
			return &streamError{Kind: ErrBinary, Text: fmt.Sprintf("the input is binary, not YAML or JSON text (line %d has a NUL byte)", s.line+1)}
		default:
			return &streamError{Kind: ErrUnreadable, Text: "the input could not be read: " + err.Error(), Err: err}
		}
	}
}

var errBinaryLine = errors.New("NUL byte in a long line")

// longLine reads the rest of a line longer than the buffer. It keeps no
// more of it than can fit in a document; past that it only looks for
// NUL bytes, and the document is over its limit anyway.
func (s *stream) longLine(b []byte) ([]byte, error) {
	keep := s.lim.MaxDocumentBytes + 1
	s.long = append(s.long[:0], b...)
	for {
		more, err := s.br.ReadSlice('\n')
		if room := keep - len(s.long); room > 0 {
			take := more[:min(room, len(more))]
			if need := len(s.long) + len(take); need > cap(s.long) {
				nl := make([]byte, len(s.long), min(max(2*cap(s.long), need), keep))
				copy(nl, s.long)
				s.long = nl
			}
			s.long = append(s.long, take...)
			more = more[len(take):]
		}
		if hasNULByte(more) {
			return nil, errBinaryLine
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return s.long, err
		}
	}
}

// take reads one line of the stream (with its line break, if any).
func (s *stream) take(b []byte) error {
	s.line++
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n > 1 && b[n-2] == '\r' {
			b = b[:n-2]
		}
	}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:] // a byte order mark, at the start of the stream or of a file in it
	}
	f := checkLine(b)
	if f&hasNUL != 0 {
		return &streamError{Kind: ErrBinary, Text: fmt.Sprintf("the input is binary, not YAML or JSON text (line %d has a NUL byte)", s.line)}
	}
	if marker(b, '-') {
		if s.start != 0 && !s.content {
			return s.add(b, f, false) // the document's directives end here
		}
		if err := s.flush(); err != nil {
			return err
		}
		rest := bytes.TrimLeft(b[3:], " \t")
		switch {
		case len(rest) == 0:
			return nil
		case rest[0] == '#':
			s.source(rest)
			return nil
		}
		return s.add(b, f, true) // "--- value": the document starts on this line
	}
	if marker(b, '.') {
		return s.flush()
	}
	if s.content && s.otherDocument(b) {
		if err := s.flush(); err != nil {
			return err
		}
	}
	if !s.content {
		i := indentOf(b)
		switch {
		case i == len(b):
			return nil
		case b[i] == '#':
			if i == 0 {
				s.source(b)
			}
			return nil
		case b[0] == '%':
			return s.add(b, f, false)
		}
		return s.add(b, f, true)
	}
	if s.pendingIn {
		if i := indentOf(b); i < len(b) && b[i] != '#' {
			s.pending, s.pendingIn = "", false // a Source comment inside a document names nothing
		}
	}
	if len(b) > 0 && b[0] == '#' && s.source(b) {
		s.pendingIn = true
	}
	return s.add(b, f, false)
}

// marker reports whether b is a document marker: "---" or "...", alone
// or followed by a space or a tab.
func marker(b []byte, c byte) bool {
	return len(b) >= 3 && b[0] == c && b[1] == c && b[2] == c && (len(b) == 3 || b[3] == ' ' || b[3] == '\t')
}

// source reads a helm template "# Source: chart/templates/x.yaml"
// comment into s.pending and reports whether b was one.
func (s *stream) source(b []byte) bool {
	p, ok := bytes.CutPrefix(b, []byte("# Source: "))
	if !ok {
		return false
	}
	p = bytes.TrimSpace(p)
	if len(p) == 0 || len(p) > 1024 || checkLine(p)&(bad|hasOdd|hasTab) != 0 {
		return false
	}
	s.pending = string(p)
	return true
}

// add appends line b of the document; first says it is its first line
// of content.
func (s *stream) add(b []byte, f charFlags, first bool) error {
	if s.start == 0 {
		s.start = s.line
	}
	if first {
		s.content = true
		s.tmpl, s.pending, s.pendingIn = s.pending, "", false
		if i := skipSpaces(b, 0); i < len(b) && (b[i] == '{' || b[i] == '[') && s.start == s.line {
			s.json, s.feeding = true, false
		}
		s.kubectl = kubectlLine(b)
	}
	if s.over {
		return nil
	}
	if len(s.buf)+len(b) > s.lim.MaxDocumentBytes {
		s.over, s.feeding = true, false
		s.buf = s.buf[:1]
		return nil
	}
	if s.feeding && !s.fast.line(b, s.line-s.start+1, f) {
		s.feeding = false
	}
	if f&bad != 0 && s.badLine == 0 {
		s.badLine = s.line
	}
	s.flags |= f
	if need := len(s.buf) + len(b) + 1; need > cap(s.buf) {
		// Double, rather than let append grow a big buffer by a quarter
		// at a time (and allocate five times its size on the way).
		nb := make([]byte, len(s.buf), min(max(2*cap(s.buf), need, 4<<10), s.lim.MaxDocumentBytes+1))
		copy(nb, s.buf)
		s.buf = nb
	}
	s.buf = append(append(s.buf, b...), '\n')
	return nil
}

// flush reads the document that ends here, if it has any content.
func (s *stream) flush() error {
	defer s.resetDoc()
	if !s.content {
		return nil
	}
	doc, err := s.nextDocument()
	if err != nil {
		return err
	}
	switch {
	case s.over:
		s.res.Problems = append(s.res.Problems, Problem{Document: doc, Line: s.start,
			Message: fmt.Sprintf("the document is larger than the %s limit for one document", size(int64(s.lim.MaxDocumentBytes)))})
	case s.flags&hasInvalid != 0:
		s.res.Problems = append(s.res.Problems, Problem{Document: doc, Line: s.badLine, Message: msgUTF8})
	case s.flags&hasControl != 0:
		s.res.Problems = append(s.res.Problems, Problem{Document: doc, Line: s.badLine, Message: msgControl})
	default:
		if s.each == nil {
			return s.document(doc, s.buf, s.start)
		}
		n := len(s.res.Problems)
		if err := s.document(doc, s.buf, s.start); err != nil {
			return err
		}
		if len(s.res.Problems) == n {
			s.each(doc, s.buf, s.start) // the feature gates it sets (knowledge.go): of a document read whole
		}
	}
	return nil
}

func (s *stream) resetDoc() {
	if cap(s.buf) > 1<<20 && len(s.buf) < 64<<10 {
		s.buf = append(make([]byte, 0, 64<<10), '\n') // let a big document's buffer go
	}
	s.buf = s.buf[:1]
	s.start, s.content, s.flags, s.badLine, s.over, s.tmpl = 0, false, 0, 0, false, ""
	s.json, s.kubectl, s.feeding = false, false, true
	s.fast.begin()
}

// nextDocument counts one more document and returns its index.
func (s *stream) nextDocument() (int, error) {
	if s.res.Documents >= s.lim.MaxDocuments {
		return 0, &streamError{Kind: ErrTooMany, Text: fmt.Sprintf("the input holds more than %d documents; the first %d were read", s.lim.MaxDocuments, s.lim.MaxDocuments)}
	}
	s.res.Documents++
	return s.res.Documents, nil
}
